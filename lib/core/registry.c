/* The one list of decoder implementations, in preference order. Adding an implementation (a new
 * family's kernels, another backend) is one line here plus its backend_ops record; the front
 * (decoder.c) walks this list, so AUTO is this order and the log says why each earlier entry
 * declined. */
#include "decoder_internal.h"

const backend_ops* const decoder_registry[] = {
#ifdef GPUFEC_HAVE_CUDA
    &cuda_hard_backend_ops, /* Gallager-A/B, PGaB: 32 frames per word */
    &cuda_backend_ops,      /* SPA and the min-sum family: QC, generic layered, flooding kernels */
#endif
    &cpu_backend_ops, /* the reference: every algorithm, every code */
    NULL,
};
