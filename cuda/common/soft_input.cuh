/* Narrow soft-bit input (float16, int8) widened to float on the device, by the same rule as the
 * CPU (lib/core/soft_input.h), so that the copy over PCIe carries 2 or 1 bytes per soft bit. The
 * pass runs between the copy in and the decoder, in the chunk's stream. */
#ifndef GPUFEC_CUDA_SOFT_INPUT_CUH
#define GPUFEC_CUDA_SOFT_INPUT_CUH

#include <cuda_runtime.h>

#include "soft_input.h"

static __global__ void k_widen_soft(const void* __restrict__ raw, gpufec_input_type type, float scale,
                                    float* __restrict__ out, size_t count)
{
    const size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (i < count)
        out[i] = soft_input_value(raw, i, type, scale);
}

static inline cudaError_t widen_soft_input(const void* raw, gpufec_input_type type, float scale, float* out,
                                           size_t count, cudaStream_t stream)
{
    if (count)
        k_widen_soft<<<(unsigned)((count + 255) / 256), 256, 0, stream>>>(raw, type, scale, out, count);
    return cudaGetLastError();
}

#endif
