/* The int8 channel rule of the half2 lanes (lanes_h2::channel_bits and channel_bits2, without
 * the conversion pipe) against its reference, lane(ldpc_channel(soft_sanitize(v))) (the rule the
 * CPU decoder runs), for every one of the 2^32 float bit patterns (NaN, infinities, -0,
 * subnormals, ties at half steps, values beyond 2^22 steps) at several quantisation steps; the
 * two-value form with -v in its high lane. Exits 77 (skipped) where no GPU runs. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "qc_packed_kernel.cuh"

__global__ void k_channel_rule(float inv_step, unsigned long long* bad, unsigned* first)
{
    const uint32_t stride = gridDim.x * blockDim.x;
    for (uint64_t i = blockIdx.x * (uint64_t)blockDim.x + threadIdx.x; i < (1ull << 32); i += stride) {
        const float v = __uint_as_float((uint32_t)i);
        const uint32_t want = lanes_h2::lane(ldpc_channel(soft_sanitize(v), LDPC_PREC_I8, inv_step));
        const uint32_t pair = lanes_h2::channel_bits2(v, -v, inv_step),
                       pair_want = want | lanes_h2::lane(ldpc_channel(soft_sanitize(-v), LDPC_PREC_I8, inv_step)) << 16;
        if (lanes_h2::channel_bits(v, inv_step) != want || pair != pair_want) {
            if (atomicAdd(bad, 1ull) == 0)
                *first = (uint32_t)i;
        }
    }
}

int main(void)
{
    int n = 0;
    if (cudaGetDeviceCount(&n) != cudaSuccess || n == 0) {
        printf("test_channel_rule: no CUDA device, skipped\n");
        return 77;
    }
    /* 1 / quant_step: the default 0.25, steps that make ties and large products, the extremes */
    const float inv[] = {4.0f, 1.0f, 1.0f / 0.3f, 2.5f, 1e-3f, 0.0125f, 1e6f, 3e38f, 1e-30f};
    unsigned long long* bad;
    unsigned* first;
    if (cudaMallocManaged(&bad, sizeof *bad) != cudaSuccess || cudaMallocManaged(&first, sizeof *first) != cudaSuccess) {
        printf("test_channel_rule: no memory on the device, skipped\n");
        return 77;
    }
    int fails = 0;
    for (size_t k = 0; k < sizeof inv / sizeof inv[0]; k++) {
        *bad = 0;
        *first = 0;
        k_channel_rule<<<1024, 256>>>(inv[k], bad, first);
        const cudaError_t e = cudaDeviceSynchronize();
        if (e != cudaSuccess) {
            printf("FAIL inv_step %g: %s\n", inv[k], cudaGetErrorString(e));
            return 1;
        }
        printf("inv_step %g: %llu of 2^32 values differ%s", inv[k], *bad, *bad ? "" : "\n");
        if (*bad) {
            float v;
            memcpy(&v, first, sizeof v);
            printf(" (first: bits 0x%08x, value %g)\n", *first, v);
            fails++;
        }
    }
    printf(fails ? "test_channel_rule: FAILED\n" : "test_channel_rule: passed\n");
    return fails ? 1 : 0;
}
