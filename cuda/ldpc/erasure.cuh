/* The erased-frame rule on the device (soft_is_erasure) as a pass of its own over a chunk's input:
 * a frame whose every transmitted soft value is an erasure is reported as not converged. The QC
 * and generic layered kernels apply the rule in their frame loaders (a block-wide OR, no extra
 * pass). The flooding kernels mark each frame before decoding (k_has_information), since their
 * per-element loader has no per-frame reduction and a flag written by every element cost 8%.
 * The hard-decision decoder clears the flags after decoding (k_clear_erased): it is synchronous,
 * so the pass does not wait behind another stream's kernel, which cost the two-stream soft
 * decoders about 10% when it ran there (measured on the H100). */
#ifndef GPUFEC_CUDA_ERASURE_CUH
#define GPUFEC_CUDA_ERASURE_CUH

#include <cuda_runtime.h>
#include <stdint.h>

#include "ldpc_rules.h"

/* Block-wide (contains a barrier): 1 when x[0..n_tx) has a value that is not an erasure. Each
 * thread stops at its first informative value, so real frames cost one read per thread. */
static __device__ __forceinline__ int frame_carries_information(const float* __restrict__ x, uint32_t n_tx)
{
    int any = 0;
    for (uint32_t j = threadIdx.x; j < n_tx && !any; j += blockDim.x)
        any = !soft_is_erasure(x[j]);
    return __syncthreads_or(any);
}

/* One block per frame of the chunk's raw input (frames consecutive, n_tx values each). */
static __global__ void k_has_information(const float* __restrict__ in, uint32_t n_tx, uint8_t* has_info)
{
    const int any = frame_carries_information(in + (size_t)blockIdx.x * n_tx, n_tx);
    if (threadIdx.x == 0)
        has_info[blockIdx.x] = (uint8_t)any;
}

static __global__ void k_clear_erased(const float* __restrict__ in, uint32_t n_tx, uint8_t* conv)
{
    if (!frame_carries_information(in + (size_t)blockIdx.x * n_tx, n_tx) && threadIdx.x == 0)
        conv[blockIdx.x] = 0;
}

static inline void clear_erased_frames(const float* in, uint32_t n_tx, uint32_t nf, uint8_t* conv,
                                       cudaStream_t stream)
{
    if (nf)
        k_clear_erased<<<nf, 128, 0, stream>>>(in, n_tx, conv);
}

#endif
