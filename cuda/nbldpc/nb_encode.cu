/* The GF(q) LDPC device encoder: a thread block per frame. The information symbols are assembled
 * from their bits in shared memory, each parity symbol is the product of a row of the code's
 * systematic encoder (lib/nbldpc: stored transposed here, so a warp reads consecutive rows) with
 * them, through the field's tables copied to shared memory; then the transmitted bits are taken
 * from the symbols. */
#include "device_encoder.cuh"

extern "C" {
#include "nb_code.h"
#include "text_reader.h"
}

#include <stdio.h>
#include <stdlib.h>

namespace {

const unsigned kThreads = 256;

struct nb_enc_dev {
    uint32_t k, p, n_sym, k_sym, rank, n_out;
    const uint32_t* in_src;   /* k_sym * p: information byte of bit i of information symbol t (~0: filler) */
    const uint32_t* info_sym; /* k_sym */
    const uint32_t* par_sym;  /* rank */
    const uint8_t* enc_t;     /* k_sym x rank: coefficient of information symbol t in parity r at t * rank + r */
    const uint32_t* out_src;  /* n_out mother bit positions */
    const nb_gf* gf;
};

__global__ void __launch_bounds__(kThreads) k_nb_encode(nb_enc_dev d, const uint8_t* info, uint8_t* out)
{
    extern __shared__ uint32_t smem[];
    nb_gf* gf = (nb_gf*)smem;
    uint8_t* isym = (uint8_t*)(gf + 1);
    uint8_t* sym = isym + d.k_sym;
    for (uint32_t i = threadIdx.x; i < sizeof(nb_gf) / 4; i += blockDim.x)
        smem[i] = ((const uint32_t*)d.gf)[i];
    const uint8_t* u = info + (size_t)blockIdx.x * d.k;
    for (uint32_t t = threadIdx.x; t < d.k_sym; t += blockDim.x) {
        uint32_t v = 0;
        for (uint32_t i = 0; i < d.p; i++) {
            const uint32_t src = __ldg(&d.in_src[t * d.p + i]);
            v |= (src != ~0u && u[src] != 0) << i;
        }
        isym[t] = (uint8_t)v;
        sym[__ldg(&d.info_sym[t])] = (uint8_t)v;
    }
    __syncthreads();
    for (uint32_t r = threadIdx.x; r < d.rank; r += blockDim.x) {
        uint32_t s = 0;
        for (uint32_t t = 0; t < d.k_sym; t++)
            s ^= nb_gf_mul(gf, __ldg(&d.enc_t[(size_t)t * d.rank + r]), isym[t]);
        sym[__ldg(&d.par_sym[r])] = (uint8_t)s;
    }
    __syncthreads();
    uint8_t* o = out + (size_t)blockIdx.x * d.n_out;
    for (uint32_t t = threadIdx.x; t < d.n_out; t += blockDim.x) {
        const uint32_t pos = __ldg(&d.out_src[t]);
        o[t] = (uint8_t)((sym[pos / d.p] >> (pos % d.p)) & 1u);
    }
}

struct nb_enc_state {
    dev_encoder_base base;
    nb_enc_dev dev;
    size_t smem;
};

cudaError_t nb_launch(dev_encoder_base* b, const uint8_t* info, size_t nf, uint8_t* out, cudaStream_t stream)
{
    const nb_enc_state* s = (const nb_enc_state*)b;
    k_nb_encode<<<(unsigned)nf, kThreads, s->smem, stream>>>(s->dev, info, out);
    return cudaGetLastError();
}

void nb_enc_destroy(void* p)
{
    nb_enc_state* s = (nb_enc_state*)p;
    if (!s)
        return;
    denc_release(&s->base);
    free(s);
}

gpufec_status nb_enc_create(const gpufec_code* code, int device, void** state, char* variant, size_t variant_len,
                            gpufec_diag* diag)
{
    const nb_code* c = nb_of(code);
    if (!c->enc)
        return text_fail_as(GPUFEC_ERR_UNSUPPORTED, diag, 0,
                            "device encoder: this code's H is too large for the dense systematic encoder");
    const uint32_t p = c->gf.p, n_out = code->tx.n_tx;
    nb_enc_state* s = (nb_enc_state*)calloc(1, sizeof *s);
    uint32_t* in_src = (uint32_t*)malloc(((size_t)c->k * p + 1) * sizeof *in_src);
    uint32_t* info_of = (uint32_t*)malloc(((size_t)code->n_full + 1) * sizeof *info_of);
    uint32_t* out_src = (uint32_t*)malloc(((size_t)n_out + 1) * sizeof *out_src);
    uint8_t* enc_t = (uint8_t*)malloc((size_t)c->k * c->rank + 1);
    if (!s || !in_src || !info_of || !out_src || !enc_t) {
        free(s), free(in_src), free(info_of), free(out_src), free(enc_t);
        return GPUFEC_ERR_OUT_OF_MEMORY;
    }
    for (uint32_t j = 0; j < code->n_full; j++)
        info_of[j] = ~0u;
    for (uint32_t j = 0; j < code->k_mother; j++) /* the information byte at each position; filler: none */
        info_of[code->mother_info_pos[j]] = j < code->k ? j : ~0u;
    for (uint32_t t = 0; t < c->k; t++)
        for (uint32_t i = 0; i < p; i++)
            in_src[(size_t)t * p + i] = info_of[c->info_sym[t] * p + i];
    for (uint32_t i = 0; i < n_out; i++)
        out_src[i] = tx_map_position(&code->tx, i);
    for (uint32_t r = 0; r < c->rank; r++)
        for (uint32_t t = 0; t < c->k; t++)
            enc_t[(size_t)t * c->rank + r] = c->enc[(size_t)r * c->k + t];
    gpufec_status st = denc_start(&s->base, device, code->k, n_out, diag);
    s->base.chunk = (size_t)1 << 30;
    s->base.launch = nb_launch;
    s->smem = sizeof(nb_gf) + c->k + c->n + 16;
    nb_enc_dev& v = s->dev;
    v.k = code->k, v.p = p, v.n_sym = c->n, v.k_sym = c->k, v.rank = c->rank, v.n_out = n_out;
    uint32_t *d_in = NULL, *d_info = NULL, *d_par = NULL, *d_out = NULL;
    uint8_t* d_enc = NULL;
    nb_gf* d_gf = NULL;
    cudaError_t e = cudaSuccess;
    if (!st)
        e = denc_upload(&s->base, &d_in, in_src, (size_t)c->k * p);
    if (!st && e == cudaSuccess)
        e = denc_upload(&s->base, &d_info, c->info_sym, c->k);
    if (!st && e == cudaSuccess)
        e = denc_upload(&s->base, &d_par, c->par_sym, c->rank);
    if (!st && e == cudaSuccess)
        e = denc_upload(&s->base, &d_out, out_src, n_out);
    if (!st && e == cudaSuccess)
        e = denc_upload(&s->base, &d_enc, enc_t, (size_t)c->k * c->rank);
    if (!st && e == cudaSuccess)
        e = denc_upload(&s->base, &d_gf, &c->gf, 1);
    if (!st && e == cudaSuccess && s->smem > 48 * 1024)
        e = cuda_allow_shared((const void*)k_nb_encode, s->smem);
    free(in_src), free(info_of), free(out_src), free(enc_t);
    if (!st && e != cudaSuccess)
        st = text_fail_as(denc_status(e), diag, 0, "device encoder: %s", cudaGetErrorString(e));
    if (st) {
        nb_enc_destroy(s);
        return st;
    }
    v.in_src = d_in, v.info_sym = d_info, v.par_sym = d_par, v.out_src = d_out, v.enc_t = d_enc, v.gf = d_gf;
    snprintf(variant, variant_len, "GF(%u) dense systematic", c->gf.q);
    *state = s;
    return GPUFEC_OK;
}

} // namespace

extern "C" const device_encoder_ops nbldpc_cuda_encoder_ops = {
    "cuda nbldpc", GPUFEC_FAMILY_NBLDPC, nb_enc_create, nb_enc_destroy, denc_encode, denc_encode_host,
};
