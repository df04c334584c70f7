/* Narrow soft-bit input (float16, int8) widened to float on the device, by the same rule as the
 * CPU (lib/core/soft_input.h), so that the copy over PCIe carries 2 or 1 bytes per soft bit. The
 * pass runs between the copy in and the decoder, in the chunk's stream. */
#ifndef GPUFEC_CUDA_SOFT_INPUT_CUH
#define GPUFEC_CUDA_SOFT_INPUT_CUH

#include <cuda_runtime.h>

#include "soft_input.h"

/* Four soft bits per thread: one 4- or 8-byte load and one 16-byte store. (One per thread, a
 * byte load each, the pass made int8 soft bits in cost the 5G NR kernels 5-7% against float32
 * in; four per thread took 3-4% off that at 8192 blocks, docs/performance.md.) The buffers are
 * cudaMalloc'd, so every group of four is aligned; the last, partial one goes value by value. */
template <gpufec_input_type TYPE, typename T>
static __global__ void k_widen_soft4(const T* __restrict__ raw, float scale, float* __restrict__ out, size_t count)
{
    const size_t i = ((size_t)blockIdx.x * blockDim.x + threadIdx.x) * 4;
    if (i + 4 <= count) {
        T v[4];
        if constexpr (sizeof(T) == 1)
            *reinterpret_cast<uint32_t*>(v) = *reinterpret_cast<const uint32_t*>(raw + i);
        else
            *reinterpret_cast<uint2*>(v) = *reinterpret_cast<const uint2*>(raw + i);
        float w[4];
#pragma unroll
        for (int k = 0; k < 4; k++)
            w[k] = soft_input_value(v, (size_t)k, TYPE, scale);
        *reinterpret_cast<float4*>(out + i) = make_float4(w[0], w[1], w[2], w[3]);
    } else {
        for (size_t k = i; k < count; k++)
            out[k] = soft_input_value(raw, k, TYPE, scale);
    }
}

static inline cudaError_t widen_soft_input(const void* raw, gpufec_input_type type, float scale, float* out,
                                           size_t count, cudaStream_t stream)
{
    const unsigned blocks = (unsigned)((count + 1023) / 1024); /* 256 threads of four */
    if (count && type == GPUFEC_INPUT_INT8)
        k_widen_soft4<GPUFEC_INPUT_INT8><<<blocks, 256, 0, stream>>>((const int8_t*)raw, scale, out, count);
    else if (count && type == GPUFEC_INPUT_FLOAT16)
        k_widen_soft4<GPUFEC_INPUT_FLOAT16><<<blocks, 256, 0, stream>>>((const uint16_t*)raw, scale, out, count);
    return cudaGetLastError();
}

#endif
