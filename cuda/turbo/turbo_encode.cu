/* The LTE turbo device encoder: a thread block per frame. Both constituent encoders and the CRC
 * are linear recursions over GF(2) (a 3-bit state, a 24-bit register), so they run in segments
 * of kSeg bits: each segment from a zero state, then one thread carries the true start states
 * across the segments (the state after kSeg zero-input steps is a table), then each segment
 * again from its true start, writing the mother codeword into shared memory, from where the
 * transmitted bits (rate matching, the code's transmission map) are gathered. */
#include "device_encoder.cuh"

extern "C" {
#include "text_reader.h"
#include "turbo_code.h"
}

#include <stdio.h>
#include <stdlib.h>

namespace {

const unsigned kThreads = 256;
const uint32_t kSeg = 64;                   /* bits a thread walks */
const uint32_t kMaxSeg = TURBO_MAX_K / kSeg; /* 96 */

struct turbo_enc_dev {
    uint32_t k;           /* information bits a frame carries */
    uint32_t k_mother;    /* K - crc: those at k and beyond are filler (0) */
    uint32_t K, crc_poly; /* crc_poly 0: no CRC */
    uint32_t n_out;
    const uint32_t* perm;
    const uint32_t* out_src;
    uint32_t rsc_skip[8];  /* state after kSeg zero-input steps */
    uint32_t crc_skip[24]; /* register after kSeg zero bits, from each register bit alone */
};

__device__ __forceinline__ uint32_t crc_step(uint32_t r, uint32_t bit, uint32_t poly)
{
    const uint32_t top = ((r >> 23) & 1u) ^ bit;
    r = (r << 1) & 0xFFFFFFu;
    return top ? r ^ poly : r;
}

__global__ void __launch_bounds__(kThreads) k_turbo_encode(turbo_enc_dev t, const uint8_t* info, uint8_t* out)
{
    extern __shared__ uint32_t smem[];
    __shared__ uint32_t seg_state[2][kMaxSeg + 1]; /* end from zero, then true start */
    __shared__ uint32_t seg_crc[kMaxSeg + 1];
    __shared__ uint32_t crc;
    uint8_t* sys = (uint8_t*)smem;  /* K systematic bits */
    uint8_t* x = sys + t.K;         /* the mother codeword, 3 (K + 4) bits */
    const uint8_t* u = info + (size_t)blockIdx.x * t.k;
    const uint32_t segs = (t.K + kSeg - 1) / kSeg, crc_segs = (t.k_mother + kSeg - 1) / kSeg;
    for (uint32_t i = threadIdx.x; i < t.k_mother; i += blockDim.x)
        sys[i] = i < t.k ? u[i] != 0 : 0;
    __syncthreads();
    if (t.crc_poly) { /* 36.212 5.1.1 over the information and filler bits, by segments */
        for (uint32_t g = threadIdx.x; g < crc_segs; g += blockDim.x) {
            uint32_t r = 0;
            for (uint32_t i = g * kSeg, end = min(i + kSeg, t.k_mother); i < end; i++)
                r = crc_step(r, sys[i], t.crc_poly);
            seg_crc[g] = r;
        }
        __syncthreads();
        if (threadIdx.x == 0) {
            uint32_t r = 0;
            for (uint32_t g = 0; g < crc_segs; g++) {
                const uint32_t len = min(kSeg, t.k_mother - g * kSeg);
                uint32_t moved = 0; /* the register r after len zero bits */
                if (len == kSeg) {
                    for (uint32_t b = 0; b < 24; b++)
                        moved ^= (r >> b) & 1u ? t.crc_skip[b] : 0u;
                } else { /* the last, shorter segment: step by step */
                    moved = r;
                    for (uint32_t i = 0; i < len; i++)
                        moved = crc_step(moved, 0, t.crc_poly);
                }
                r = moved ^ seg_crc[g];
            }
            crc = r;
        }
        __syncthreads();
        for (uint32_t i = t.k_mother + threadIdx.x; i < t.K; i += blockDim.x)
            sys[i] = (crc >> (23 - (i - t.k_mother))) & 1u;
        __syncthreads();
    }
    /* each segment of each encoder from the zero state */
    for (uint32_t j = threadIdx.x; j < 2 * segs; j += blockDim.x) {
        const uint32_t second = j / segs, g = j % segs;
        uint32_t s = 0;
        for (uint32_t i = g * kSeg, end = min(i + kSeg, t.K); i < end; i++)
            s = turbo_next(s, sys[second ? __ldg(&t.perm[i]) : i]);
        seg_state[second][g + 1] = s;
    }
    __syncthreads();
    if (threadIdx.x < 2) { /* the true start of each segment (only the last can be shorter) */
        uint32_t* st = seg_state[threadIdx.x];
        st[0] = 0;
        for (uint32_t g = 0; g + 1 < segs; g++)
            st[g + 1] = t.rsc_skip[st[g]] ^ st[g + 1];
    }
    __syncthreads();
    for (uint32_t j = threadIdx.x; j < 2 * segs; j += blockDim.x) {
        const uint32_t second = j / segs, g = j % segs;
        uint32_t s = seg_state[second][g];
        for (uint32_t i = g * kSeg, end = min(i + kSeg, t.K); i < end; i++) {
            const uint32_t b = sys[second ? __ldg(&t.perm[i]) : i];
            if (!second)
                x[3 * i] = (uint8_t)b;
            x[3 * i + 1 + second] = (uint8_t)turbo_parity(s, b);
            s = turbo_next(s, b);
        }
        if (g + 1 == segs) { /* trellis termination, 36.212 5.1.3.2.2, as turbo_encode_bits */
            uint8_t* tail = x + 3 * t.K + 6 * second;
            for (int q = 0; q < 3; q++) {
                const uint32_t b = turbo_tail_input(s);
                tail[2 * q] = (uint8_t)b;
                tail[2 * q + 1] = (uint8_t)turbo_parity(s, b);
                s = turbo_next(s, b);
            }
        }
    }
    __syncthreads();
    uint8_t* o = out + (size_t)blockIdx.x * t.n_out;
    for (uint32_t i = threadIdx.x; i < t.n_out; i += blockDim.x)
        o[i] = x[__ldg(&t.out_src[i])];
}

struct turbo_enc_state {
    dev_encoder_base base;
    turbo_enc_dev dev;
    size_t smem;
};

cudaError_t turbo_launch(dev_encoder_base* b, const uint8_t* info, size_t nf, uint8_t* out, cudaStream_t stream)
{
    const turbo_enc_state* s = (const turbo_enc_state*)b;
    k_turbo_encode<<<(unsigned)nf, kThreads, s->smem, stream>>>(s->dev, info, out);
    return cudaGetLastError();
}

gpufec_status turbo_enc_create(const gpufec_code* code, int device, void** state, char* variant, size_t variant_len,
                               gpufec_diag* diag)
{
    const turbo_code* t = turbo_of(code);
    turbo_enc_state* s = (turbo_enc_state*)calloc(1, sizeof *s);
    if (!s)
        return GPUFEC_ERR_OUT_OF_MEMORY;
    const uint32_t n_out = code->tx.n_tx;
    gpufec_status st = denc_start(&s->base, device, code->k, n_out, diag);
    s->base.chunk = (size_t)1 << 30;
    s->base.launch = turbo_launch;
    turbo_enc_dev& v = s->dev;
    v.k = code->k;
    v.k_mother = t->K - t->crc;
    v.K = t->K;
    v.crc_poly = t->crc ? (t->crc_b ? TURBO_CRC24B : TURBO_CRC24A) : 0;
    v.n_out = n_out;
    for (uint32_t s0 = 0; s0 < 8; s0++) { /* kSeg zero-input steps from each state */
        uint32_t x = s0;
        for (uint32_t i = 0; i < kSeg; i++)
            x = turbo_next(x, 0);
        v.rsc_skip[s0] = x;
    }
    for (uint32_t b = 0; b < 24; b++) { /* kSeg zero bits from each register bit */
        uint32_t r = 1u << b;
        for (uint32_t i = 0; i < kSeg; i++) {
            const uint32_t top = (r >> 23) & 1u;
            r = (r << 1) & 0xFFFFFFu;
            if (top)
                r ^= v.crc_poly;
        }
        v.crc_skip[b] = r;
    }
    s->smem = (size_t)t->K + code->n_full + 16;
    uint32_t *perm = NULL, *out_src = NULL;
    cudaError_t e = cudaSuccess;
    if (!st)
        e = denc_upload(&s->base, &perm, t->perm, t->K);
    if (!st && e == cudaSuccess)
        e = denc_upload_tx_positions(&s->base, code, &out_src);
    if (!st && e != cudaSuccess)
        st = text_fail_as(denc_status(e), diag, 0, "device encoder: %s", cudaGetErrorString(e));
    if (st) {
        denc_destroy(s);
        return st;
    }
    v.perm = perm;
    v.out_src = out_src;
    snprintf(variant, variant_len, "%s", t->crc ? "rsc pair in segments, crc24" : "rsc pair in segments");
    *state = s;
    return GPUFEC_OK;
}

} // namespace

extern "C" const device_encoder_ops turbo_cuda_encoder_ops = {
    "cuda turbo", GPUFEC_FAMILY_TURBO, turbo_enc_create, denc_destroy, denc_encode, denc_encode_host,
};
