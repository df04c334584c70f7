/* The LTE turbo device encoder: two threads per frame, one per constituent encoder (the second
 * reads the systematic bits through the QPP interleaver), writing the mother codeword into a
 * per-frame scratch; then the transmitted bits are gathered (rate matching as the code's
 * transmission map). The CRC, where the code has one, is computed by each of the two threads. */
#include "device_encoder.cuh"

extern "C" {
#include "text_reader.h"
#include "turbo_code.h"
}

#include <stdio.h>
#include <stdlib.h>

namespace {

struct turbo_enc_dev {
    uint32_t k;        /* information bits a frame carries */
    uint32_t k_mother; /* K - crc: those at k and beyond are filler (0) */
    uint32_t K, crc_poly; /* crc_poly 0: no CRC */
    const uint32_t* perm;
};

/* Systematic bit i of the K: an information bit, a filler 0 or a CRC bit. */
__device__ __forceinline__ uint32_t sys_bit(const turbo_enc_dev& t, const uint8_t* u, uint32_t crc, uint32_t i)
{
    if (i < t.k_mother)
        return i < t.k ? u[i] != 0 : 0u;
    return (crc >> (23 - (i - t.k_mother))) & 1u;
}

__global__ void k_turbo_encode(turbo_enc_dev t, const uint8_t* info, uint32_t frames, uint8_t* mother)
{
    const uint32_t g = blockIdx.x * blockDim.x + threadIdx.x, f = g >> 1, second = g & 1u;
    if (f >= frames)
        return;
    const uint8_t* u = info + (size_t)f * t.k;
    uint8_t* x = mother + (size_t)f * 3u * (t.K + 4u);
    uint32_t crc = 0;
    if (t.crc_poly) /* 36.212 5.1.1 over the information and filler bits */
        for (uint32_t i = 0; i < t.k_mother; i++) {
            const uint32_t top = ((crc >> 23) & 1u) ^ (i < t.k ? u[i] != 0 : 0u);
            crc = (crc << 1) & 0xFFFFFFu;
            if (top)
                crc ^= t.crc_poly;
        }
    uint32_t s = 0;
    for (uint32_t i = 0; i < t.K; i++) {
        const uint32_t b = sys_bit(t, u, crc, second ? __ldg(&t.perm[i]) : i);
        if (!second)
            x[3 * i] = (uint8_t)b;
        x[3 * i + 1 + second] = (uint8_t)turbo_parity(s, b);
        s = turbo_next(s, b);
    }
    uint8_t* tail = x + 3 * t.K + 6 * second; /* 36.212 5.1.3.2.2, as turbo_encode_bits */
    for (int j = 0; j < 3; j++) {
        const uint32_t b = turbo_tail_input(s);
        tail[2 * j] = (uint8_t)b;
        tail[2 * j + 1] = (uint8_t)turbo_parity(s, b);
        s = turbo_next(s, b);
    }
}

struct turbo_enc_state {
    dev_encoder_base base;
    turbo_enc_dev dev;
    uint32_t n_full;
    const uint32_t* out_src;
    uint8_t* scratch; /* chunk mother codewords */
};

cudaError_t turbo_launch(dev_encoder_base* b, const uint8_t* info, size_t nf, uint8_t* out, cudaStream_t stream)
{
    const turbo_enc_state* s = (const turbo_enc_state*)b;
    const size_t threads = 2 * nf;
    k_turbo_encode<<<(unsigned)((threads + 127) / 128), 128, 0, stream>>>(s->dev, info, (uint32_t)nf, s->scratch);
    cudaError_t e = cudaGetLastError();
    return e != cudaSuccess ? e : denc_gather(s->scratch, s->n_full, s->out_src, b->n_out, nf, out, stream);
}

void turbo_enc_destroy(void* p)
{
    turbo_enc_state* s = (turbo_enc_state*)p;
    if (!s)
        return;
    denc_release(&s->base);
    free(s);
}

gpufec_status turbo_enc_create(const gpufec_code* code, int device, void** state, char* variant, size_t variant_len,
                               gpufec_diag* diag)
{
    const turbo_code* t = turbo_of(code);
    turbo_enc_state* s = (turbo_enc_state*)calloc(1, sizeof *s);
    const uint32_t n_out = code->tx.tx_pos ? code->tx.n_tx : code->n_full;
    uint32_t* src = (uint32_t*)malloc(((size_t)n_out + 1) * sizeof *src);
    if (!s || !src) {
        free(s), free(src);
        return GPUFEC_ERR_OUT_OF_MEMORY;
    }
    for (uint32_t i = 0; i < n_out; i++)
        src[i] = code->tx.tx_pos ? code->tx.tx_pos[i] : i;
    gpufec_status st = denc_start(&s->base, device, code->k, n_out, diag);
    s->base.chunk = 8192; /* 150 MB of mother codewords at K = 6144 */
    s->base.launch = turbo_launch;
    s->n_full = code->n_full;
    s->dev.k = code->k;
    s->dev.k_mother = t->K - t->crc;
    s->dev.K = t->K;
    s->dev.crc_poly = t->crc ? (t->crc_b ? TURBO_CRC24B : TURBO_CRC24A) : 0;
    uint32_t *perm = NULL, *out_src = NULL;
    cudaError_t e = cudaSuccess;
    if (!st)
        e = denc_upload(&s->base, &perm, t->perm, t->K);
    if (!st && e == cudaSuccess)
        e = denc_upload(&s->base, &out_src, src, n_out);
    if (!st && e == cudaSuccess)
        e = denc_alloc(&s->base, (void**)&s->scratch, s->base.chunk * code->n_full);
    free(src);
    if (!st && e != cudaSuccess)
        st = text_fail_as(denc_status(e), diag, 0, "device encoder: %s", cudaGetErrorString(e));
    if (st) {
        turbo_enc_destroy(s);
        return st;
    }
    s->dev.perm = perm;
    s->out_src = out_src;
    snprintf(variant, variant_len, "%s", t->crc ? "rsc pair, crc24" : "rsc pair");
    *state = s;
    return GPUFEC_OK;
}

} // namespace

extern "C" const device_encoder_ops turbo_cuda_encoder_ops = {
    "cuda turbo", GPUFEC_FAMILY_TURBO, turbo_enc_create, turbo_enc_destroy, denc_encode, denc_encode_host,
};
