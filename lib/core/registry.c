/* The two lists that make a family part of the library. Adding a family is its folder plus a
 * line in each (docs/architecture.md, "adding a code family").
 *
 * family_registry: gpufec_code_open asks the families in this order for a name, then for a file
 * (the LDPC family reads any file as alist: a family that reads files goes before it). The
 * option listing follows this order too.
 *
 * decoder_registry: the implementations in preference order; the front (decoder.c) walks it, so
 * AUTO is this order, only the entries of the code's family are considered, and the log says why
 * each earlier one declined. */
#include "decoder_internal.h"
#include "device_encoder_internal.h"
#include "family.h"

/* Each family's records, defined in its folder. */
extern const family_record nbldpc_family, ldpc_family, turbo_family, conv_family;
extern const backend_ops ldpc_cpu_ops, turbo_cpu_ops, turbo_simd_ops, nbldpc_cpu_ops, conv_cpu_ops;
#ifdef GPUFEC_HAVE_CUDA
extern const backend_ops ldpc_cuda_ops, ldpc_cuda_hard_ops, turbo_cuda_ops, nbldpc_cuda_ops, conv_cuda_ops;
extern const device_encoder_ops ldpc_cuda_encoder_ops, turbo_cuda_encoder_ops, nbldpc_cuda_encoder_ops,
    conv_cuda_encoder_ops;
#endif

const family_record* const family_registry[] = {
    &nbldpc_family, /* nb-* names; .kn and .nbalist files (before LDPC, which reads any file) */
    &ldpc_family,
    &turbo_family, /* lte-turbo-<K> names; reads no files */
    &conv_family,  /* conv-k<K>-..., cc-k7-*, lte-tbcc-<k> names; reads no files */
    NULL,
};

const backend_ops* const decoder_registry[] = {
#ifdef GPUFEC_HAVE_CUDA
    &ldpc_cuda_hard_ops, /* Gallager-A/B, PGaB: 32 frames per word */
    &ldpc_cuda_ops,      /* SPA and the min-sum family: QC, generic layered, flooding kernels */
    &turbo_cuda_ops,     /* a block per frame, a thread per sub-block */
    &nbldpc_cuda_ops,    /* a block per frame, a warp per check */
    &conv_cuda_ops,      /* a thread per state pair, frames side by side in a block */
#endif
    &ldpc_cpu_ops, /* the reference: every algorithm, every code */
    &turbo_simd_ops, /* arithmetic=int16|int8: fixed point, a frame per vector lane */
    &turbo_cpu_ops,  /* arithmetic=float, the reference: Log-MAP / Max-Log-MAP, any P and guard */
    &nbldpc_cpu_ops, /* the reference: FFT-BP and min-max, flooding and layered */
    &conv_cpu_ops,   /* Viterbi, 16 frames per vector */
    NULL,
};

/* Device encoders (gpufec_device_encoder_*): at most one per family. */
const device_encoder_ops* const device_encoder_registry[] = {
#ifdef GPUFEC_HAVE_CUDA
    &ldpc_cuda_encoder_ops,   /* staircase (DVB-S2), dual-diagonal QC, else a dense generator */
    &turbo_cuda_encoder_ops,  /* a thread per constituent encoder, then rate matching */
    &nbldpc_cuda_encoder_ops, /* the dense systematic encoder, a block per frame */
    &conv_cuda_encoder_ops,   /* a thread per transmitted bit */
#endif
    NULL,
};
