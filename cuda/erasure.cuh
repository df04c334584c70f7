/* The erased-frame rule on the device (ldpc_is_erasure): a frame whose every transmitted soft
 * value is an erasure is reported as not converged. Shared by every CUDA decoder. */
#ifndef GPUFEC_CUDA_ERASURE_CUH
#define GPUFEC_CUDA_ERASURE_CUH

#include <cuda_runtime.h>
#include <stdint.h>

#include "ldpc_rules.h"

/* One block per frame over the chunk's raw input (n_tx values per frame, frames consecutive). */
static __global__ void k_clear_erased(const float* __restrict__ in, uint32_t n_tx, uint8_t* conv)
{
    const float* x = in + (size_t)blockIdx.x * n_tx;
    int any = 0;
    for (uint32_t j = threadIdx.x; j < n_tx && !any; j += blockDim.x)
        any = !ldpc_is_erasure(x[j]);
    if (!__syncthreads_or(any) && threadIdx.x == 0)
        conv[blockIdx.x] = 0;
}

static inline void clear_erased_frames(const float* in, uint32_t n_tx, uint32_t nf, uint8_t* conv,
                                       cudaStream_t stream)
{
    if (nf)
        k_clear_erased<<<nf, 128, 0, stream>>>(in, n_tx, conv);
}

#endif
