/* What the caller gets per frame, made on the device from what a plan wrote (cfg user_pos,
 * user_len, check_crc, pack; decoder_internal.h): the code's CRC checked on the whole decoded
 * word, the output positions gathered, the bits packed eight per byte. Done here, before the
 * copy back, a 5G NR code block with its CRC24B copies K / 8 bytes instead of its n_full-bit
 * mother codeword (26112 bytes at BG1, Z = 384), and the check no longer waits for the host. */
#ifndef GPUFEC_CUDA_FINISH_OUTPUT_CUH
#define GPUFEC_CUDA_FINISH_OUTPUT_CUH

#include <cuda_runtime.h>

#include "bit_pack.h"
#include "crc24.h"

#include <stdint.h>
#include <vector>

/* The CRC register (crc24.h) is linear in the message bits and starts at 0, so the register of
 * m bits is the XOR of the registers of each 1 bit alone: bit i alone leaves the generator
 * shifted on through the m - 1 - i zeros after it. tab[i] is that register; a word holds its
 * CRC when the XOR over its 1 bits is 0. */
static inline std::vector<uint32_t> crc_bit_registers(uint32_t poly, uint32_t width, uint32_t m)
{
    std::vector<uint32_t> tab(m);
    uint32_t r = crc_step(0u, 1u, poly, width); /* the last bit alone */
    for (uint32_t i = m; i-- > 0;) {
        tab[i] = r;
        r = crc_step(r, 0u, poly, width);
    }
    return tab;
}

struct finish_args {
    const uint8_t* words;     /* the plan's output, `stride` bytes per frame */
    uint32_t stride;
    const uint32_t* user_pos; /* NULL: positions user_first, user_first + 1, ... */
    uint32_t user_first, user_len;
    int pack;
    const uint32_t* crc_pos;  /* NULL: crc_first, crc_first + 1, ... */
    uint32_t crc_first;
    const uint32_t* crc_tab;  /* crc_n entries (information, then CRC bits); crc_n 0: no CRC */
    uint32_t crc_n;
    uint8_t* converged;       /* cleared where the CRC fails */
    uint8_t* out;             /* out_bytes per frame */
    uint32_t out_bytes;
};

/* One block per frame, enough threads that each does a few loads: at 256 threads the CRC of
 * a BG1 block (8448 bits) took 28 us of a 152-block slot, its loads one after another. */
constexpr int FINISH_THREADS = 1024;
constexpr int FINISH_UNROLL = 4;

static __device__ __forceinline__ uint32_t finish_at(const uint32_t* pos, uint32_t first, uint32_t i)
{
    return pos ? pos[i] : first + i;
}

static __global__ void __launch_bounds__(FINISH_THREADS) k_finish_output(const finish_args a)
{
    const uint8_t* w = a.words + (size_t)blockIdx.x * a.stride;
    if (a.crc_n) {
        __shared__ uint32_t part[FINISH_THREADS / 32];
        uint32_t r = 0;
        for (uint32_t i0 = threadIdx.x; i0 < a.crc_n; i0 += FINISH_THREADS * FINISH_UNROLL) {
            uint8_t b[FINISH_UNROLL];
#pragma unroll
            for (int u = 0; u < FINISH_UNROLL; u++) {
                const uint32_t i = i0 + u * FINISH_THREADS;
                b[u] = i < a.crc_n ? w[finish_at(a.crc_pos, a.crc_first, i)] : 0;
            }
#pragma unroll
            for (int u = 0; u < FINISH_UNROLL; u++)
                if (b[u])
                    r ^= a.crc_tab[i0 + u * FINISH_THREADS];
        }
        for (int s = 16; s; s >>= 1)
            r ^= __shfl_xor_sync(0xffffffffu, r, s);
        if ((threadIdx.x & 31) == 0)
            part[threadIdx.x >> 5] = r;
        __syncthreads();
        if (threadIdx.x == 0) {
            for (int k = 1; k < FINISH_THREADS / 32; k++)
                r ^= part[k];
            if (r)
                a.converged[blockIdx.x] = 0;
        }
    }
    uint8_t* o = a.out + (size_t)blockIdx.x * a.out_bytes;
    const uint8_t* from = a.user_pos ? w : w + a.user_first;
    for (uint32_t j = threadIdx.x; j < a.out_bytes; j += FINISH_THREADS)
        o[j] = a.pack ? packed_byte(from, a.user_pos, a.user_len, j) : from[a.user_pos ? a.user_pos[j] : j];
}

static inline cudaError_t finish_output(const finish_args& a, uint32_t nf, cudaStream_t stream)
{
    if (nf)
        k_finish_output<<<nf, FINISH_THREADS, 0, stream>>>(a);
    return cudaGetLastError();
}

#endif
