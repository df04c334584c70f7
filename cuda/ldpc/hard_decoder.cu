/* Hard-decision decoders on the GPU (Gallager-A, Gallager-B, PGaB), 32 frames per 32-bit word.
 *
 * Every bit array is [index][word]: bit l of word w belongs to frame 32 w + l. A check pass is a
 * word XOR; the variable rules of ldpc_rules.h (majority of the channel vote and the other
 * checks, ties keep the channel bit; Gallager-A: flip when all others disagree) become
 * comparisons of bit-sliced vote counters with constants, evaluated for 32 frames at once. A
 * frame's output and iteration count are captured the first time its decision satisfies every
 * check, which is where the CPU decoder stops, so the results are identical; PGaB draws its
 * perturbations from the same counter-based hash (frame numbers continue across calls). */
extern "C" {
#include "decoder_internal.h"
}
#include "erasure.cuh"

#include <stdio.h>
#include "soft_input.cuh"
#include "ldpc_rules.h"

#include <cuda_runtime.h>

#include <stdlib.h>

namespace {

constexpr int CBITS = 7; /* vote counters up to 127: variable degrees up to 126 */

struct hard_state {
    uint32_t B;      /* frames per chunk, multiple of 32 */
    uint32_t *row_ptr, *edge_var, *col_ptr, *col_edge, *out_pos;
    int32_t* full_src;
    float* in;        /* n_tx * B */
    void* raw;        /* narrow input types: n_tx * B soft bits as copied in, widened into in */
    uint32_t *w, *v2c, *c2v, *dec, *out_bits, *done, *bad; /* [index][W] words */
    int32_t* iters;   /* B */
    uint8_t *out, *conv;
    uint64_t frames_done;
    cudaEvent_t k0, k1; /* around each chunk's kernels */
    float kernel_ms;    /* last decode call, all chunks */
};

/* cnt (bit-sliced, CBITS planes) >= T, per lane. */
__device__ __forceinline__ uint32_t bs_ge(const uint32_t* cnt, uint32_t T)
{
    if (T == 0)
        return 0xffffffffu;
    if (T >= (1u << CBITS))
        return 0;
    uint32_t gt = 0, eq = 0xffffffffu;
    for (int b = CBITS - 1; b >= 0; b--) {
        if ((T >> b) & 1u)
            eq &= cnt[b];
        else {
            gt |= eq & cnt[b];
            eq &= ~cnt[b];
        }
    }
    return gt | eq;
}

__device__ __forceinline__ uint32_t bs_eq(const uint32_t* cnt, uint32_t T)
{
    uint32_t eq = 0xffffffffu;
    for (int b = 0; b < CBITS; b++)
        eq &= ((T >> b) & 1u) ? cnt[b] : ~cnt[b];
    return eq;
}

/* cnt += bits (bit-sliced increment of the lanes set in bits). */
__device__ __forceinline__ void bs_add(uint32_t* cnt, uint32_t bits)
{
    for (int b = 0; b < CBITS && bits; b++) {
        uint32_t carry = cnt[b] & bits;
        cnt[b] ^= bits;
        bits = carry;
    }
}

/* cnt -= bits, for lanes where cnt >= bits. */
__device__ __forceinline__ void bs_sub(uint32_t* cnt, uint32_t bits)
{
    for (int b = 0; b < CBITS && bits; b++) {
        uint32_t borrow = ~cnt[b] & bits;
        cnt[b] ^= bits;
        bits = borrow;
    }
}

/* Majority of (channel vote v, `others` check bits of which cnt are ones), ties to the received
 * bit w (v differs from w only where PGaB perturbed it): see galb_v2c.
 * total = (1 - 2v) + others - 2 ones; 1 where total < 0, w where total == 0.
 * v = 0: negative iff ones >= (others + 3) / 2, zero iff 2 ones == others + 1;
 * v = 1: negative iff ones >= (others + 1) / 2, zero iff 2 ones == others - 1 (integer division;
 * zero totals need an odd number of others). */
__device__ __forceinline__ uint32_t majority(const uint32_t* cnt, uint32_t others, uint32_t v, uint32_t w)
{
    uint32_t neg = (~v & bs_ge(cnt, (others + 3) / 2)) | (v & bs_ge(cnt, (others + 1) / 2));
    if (!(others & 1u))
        return neg;
    uint32_t tie = (~v & bs_eq(cnt, (others + 1) / 2)) | (v & bs_eq(cnt, (others - 1) / 2));
    return neg | (tie & w);
}

__global__ void k_pack(const float* __restrict__ in, const int32_t* __restrict__ full_src, uint32_t* w,
                       uint32_t n, uint32_t n_tx, uint32_t W, uint32_t nf)
{
    size_t idx = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (idx >= (size_t)n * W)
        return;
    uint32_t j = (uint32_t)(idx / W), word = (uint32_t)(idx % W);
    uint32_t bits = 0;
    for (uint32_t l = 0; l < 32; l++) {
        uint32_t f = word * 32 + l;
        float v = f < nf ? code_mother_value(full_src, j, in + (size_t)f * n_tx) : 1.0f;
        bits |= (uint32_t)ldpc_hard_bit(v) << l;
    }
    w[idx] = bits;
}

__global__ void k_var(const uint32_t* __restrict__ col_ptr, const uint32_t* __restrict__ col_edge,
                      const uint32_t* __restrict__ w, const uint32_t* __restrict__ c2v, uint32_t* v2c,
                      uint32_t n, uint32_t W, int it, int alg, uint64_t seed, uint64_t frame0,
                      uint32_t p24, int pgab_start)
{
    size_t idx = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (idx >= (size_t)n * W)
        return;
    uint32_t j = (uint32_t)(idx / W), word = (uint32_t)(idx % W);
    const uint32_t b = col_ptr[j], deg = col_ptr[j + 1] - b;
    const uint32_t rx = w[idx];
    uint32_t ch = rx;
    if (it == 1) {
        for (uint32_t t = 0; t < deg; t++)
            v2c[(size_t)col_edge[b + t] * W + word] = ch;
        return;
    }
    if (alg == GPUFEC_ALG_PGAB && it >= pgab_start)
        for (uint32_t l = 0; l < 32; l++)
            ch ^= pgab_flip(seed, frame0 + word * 32 + l, (uint32_t)it, j, p24) << l;
    /* Count, per lane, the checks whose bit disagrees with the (perturbed) channel bit... for
     * Gallager-B it is simpler to count ones and compare with channel-dependent thresholds. */
    uint32_t cnt[CBITS] = {0};
    for (uint32_t t = 0; t < deg; t++)
        bs_add(cnt, c2v[(size_t)col_edge[b + t] * W + word]);
    if (alg == GPUFEC_ALG_GALLAGER_A) {
        /* flip iff all others disagree: w=0 -> others all 1 (ones_others == deg-1);
         * w=1 -> others all 0 (ones_others == 0). */
        for (uint32_t t = 0; t < deg; t++) {
            uint32_t own = c2v[(size_t)col_edge[b + t] * W + word];
            uint32_t c[CBITS];
            for (int k = 0; k < CBITS; k++)
                c[k] = cnt[k];
            bs_sub(c, own);
            uint32_t flip = deg > 1 ? ((~ch & bs_eq(c, deg - 1)) | (ch & bs_eq(c, 0))) : 0;
            v2c[(size_t)col_edge[b + t] * W + word] = ch ^ flip;
        }
        return;
    }
    for (uint32_t t = 0; t < deg; t++) {
        uint32_t own = c2v[(size_t)col_edge[b + t] * W + word];
        uint32_t c[CBITS];
        for (int k = 0; k < CBITS; k++)
            c[k] = cnt[k];
        bs_sub(c, own);
        v2c[(size_t)col_edge[b + t] * W + word] = majority(c, deg - 1, ch, rx);
    }
}

__global__ void k_check(const uint32_t* __restrict__ row_ptr, const uint32_t* __restrict__ v2c, uint32_t* c2v,
                        uint32_t m, uint32_t W)
{
    size_t idx = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (idx >= (size_t)m * W)
        return;
    uint32_t i = (uint32_t)(idx / W), word = (uint32_t)(idx % W);
    uint32_t parity = 0;
    for (uint32_t e = row_ptr[i]; e < row_ptr[i + 1]; e++)
        parity ^= v2c[(size_t)e * W + word];
    for (uint32_t e = row_ptr[i]; e < row_ptr[i + 1]; e++)
        c2v[(size_t)e * W + word] = parity ^ v2c[(size_t)e * W + word];
}

/* Decision: majority of the unperturbed channel bit and all checks, ties: channel. */
__global__ void k_decide(const uint32_t* __restrict__ col_ptr, const uint32_t* __restrict__ col_edge,
                         const uint32_t* __restrict__ w, const uint32_t* __restrict__ c2v, uint32_t* dec,
                         uint32_t n, uint32_t W)
{
    size_t idx = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (idx >= (size_t)n * W)
        return;
    uint32_t j = (uint32_t)(idx / W), word = (uint32_t)(idx % W);
    const uint32_t b = col_ptr[j], deg = col_ptr[j + 1] - b;
    uint32_t cnt[CBITS] = {0};
    for (uint32_t t = 0; t < deg; t++)
        bs_add(cnt, c2v[(size_t)col_edge[b + t] * W + word]);
    dec[idx] = majority(cnt, deg, w[idx], w[idx]);
}

__global__ void k_syndrome_words(const uint32_t* __restrict__ row_ptr, const uint32_t* __restrict__ edge_var,
                                 const uint32_t* __restrict__ dec, uint32_t* bad, uint32_t m, uint32_t W)
{
    size_t idx = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (idx >= (size_t)m * W)
        return;
    uint32_t i = (uint32_t)(idx / W), word = (uint32_t)(idx % W);
    uint32_t parity = 0;
    for (uint32_t e = row_ptr[i]; e < row_ptr[i + 1]; e++)
        parity ^= dec[(size_t)edge_var[e] * W + word];
    if (parity)
        atomicOr(&bad[word], parity);
}

/* Captures decisions and iteration counts. mode 0: frames converging now (first time);
 * 1: last iteration with early stopping: every frame not yet captured; 2: last iteration
 * without early stopping: every frame. */
__global__ void k_capture(const uint32_t* __restrict__ dec, uint32_t* out_bits, const uint32_t* done,
                          const uint32_t* bad, int32_t* iters, uint32_t n, uint32_t W, int it, int mode)
{
    size_t idx = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (idx >= (size_t)n * W)
        return;
    uint32_t word = (uint32_t)(idx % W);
    uint32_t fresh = mode == 0 ? ~bad[word] & ~done[word] : mode == 1 ? ~done[word] : 0xffffffffu;
    out_bits[idx] = (out_bits[idx] & ~fresh) | (dec[idx] & fresh);
    if (idx / W == 0) { /* one thread per word updates the frame state */
        for (uint32_t l = 0; l < 32; l++)
            if ((fresh >> l) & 1u)
                iters[word * 32 + l] = it;
    }
}

/* Marks converged frames done and clears the syndrome flags; at the last iteration writes the
 * success flags (converged now, or earlier with early stopping). */
__global__ void k_close_iteration(uint32_t* done, uint32_t* bad, uint8_t* conv, uint32_t W, int last)
{
    uint32_t word = blockIdx.x * blockDim.x + threadIdx.x;
    if (word >= W)
        return;
    uint32_t ok = ~bad[word];
    if (last)
        for (uint32_t l = 0; l < 32; l++)
            conv[word * 32 + l] = (uint8_t)(((done[word] | ok) >> l) & 1u);
    done[word] |= ok;
    bad[word] = 0;
}

__global__ void k_unpack(const uint32_t* __restrict__ out_bits, const uint32_t* __restrict__ out_pos,
                         uint8_t* out, uint32_t len, uint32_t W, uint32_t nf)
{
    size_t idx = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (idx >= (size_t)len * nf)
        return;
    uint32_t f = (uint32_t)(idx / len), t = (uint32_t)(idx % len);
    uint32_t j = out_pos ? out_pos[t] : t;
    out[idx] = (uint8_t)((out_bits[(size_t)j * W + f / 32] >> (f % 32)) & 1u);
}

gpufec_status fail(const gpufec_decoder* dec, cudaError_t e, const char* what)
{
    if (e == cudaSuccess)
        return GPUFEC_OK;
    decoder_log(dec, GPUFEC_LOG_ERROR, "CUDA %s failed: %s", what, cudaGetErrorString(e));
    (void)cudaGetLastError();
    return e == cudaErrorMemoryAllocation ? GPUFEC_ERR_DEVICE_OUT_OF_MEMORY : GPUFEC_ERR_DEVICE;
}

#define HU(call, what)                                                                          \
    do {                                                                                        \
        gpufec_status st_ = fail(dec, (call), what);                                            \
        if (st_ != GPUFEC_OK)                                                                   \
            return st_;                                                                         \
    } while (0)

template <typename T> cudaError_t alloc(T** p, size_t count) { return cudaMalloc((void**)p, (count ? count : 1) * sizeof(T)); }

void hard_free(hard_state* s)
{
    if (!s)
        return;
    void* p[] = {s->row_ptr, s->edge_var, s->col_ptr, s->col_edge, s->out_pos, s->full_src, s->in, s->raw, s->w,
                 s->v2c, s->c2v, s->dec, s->out_bits, s->done, s->bad, s->iters, s->out, s->conv};
    for (void* x : p)
        if (x)
            cudaFree(x);
    if (s->k0)
        cudaEventDestroy(s->k0);
    if (s->k1)
        cudaEventDestroy(s->k1);
    free(s);
}

gpufec_status hard_create_impl(gpufec_decoder* dec, hard_state* s)
{
    const gpufec_code* c = dec->code;
    HU(cudaSetDevice(dec->opts.device), "cudaSetDevice");
    const size_t W = s->B / 32, n = c->n, m = c->m, E = c->edges;
    HU(alloc(&s->row_ptr, m + 1), "cudaMalloc");
    HU(cudaMemcpy(s->row_ptr, c->row_ptr, (m + 1) * 4, cudaMemcpyHostToDevice), "upload");
    HU(alloc(&s->edge_var, E), "cudaMalloc");
    HU(cudaMemcpy(s->edge_var, c->edge_var, E * 4, cudaMemcpyHostToDevice), "upload");
    HU(alloc(&s->col_ptr, n + 1), "cudaMalloc");
    HU(cudaMemcpy(s->col_ptr, c->col_ptr, (n + 1) * 4, cudaMemcpyHostToDevice), "upload");
    HU(alloc(&s->col_edge, E), "cudaMalloc");
    HU(cudaMemcpy(s->col_edge, c->col_edge, E * 4, cudaMemcpyHostToDevice), "upload");
    if (dec->out_pos) {
        HU(alloc(&s->out_pos, dec->out_len), "cudaMalloc");
        HU(cudaMemcpy(s->out_pos, dec->out_pos, (size_t)dec->out_len * 4, cudaMemcpyHostToDevice), "upload");
    }
    if (c->full_src) {
        HU(alloc(&s->full_src, n), "cudaMalloc");
        HU(cudaMemcpy(s->full_src, c->full_src, n * 4, cudaMemcpyHostToDevice), "upload");
    }
    HU(alloc(&s->in, (size_t)c->n_tx * s->B), "cudaMalloc");
    if (dec->opts.input_type != GPUFEC_INPUT_FLOAT32)
        HU(cudaMalloc(&s->raw, (size_t)c->n_tx * s->B * soft_input_bytes(dec->opts.input_type)), "cudaMalloc");
    HU(alloc(&s->w, n * W), "cudaMalloc");
    HU(alloc(&s->v2c, E * W), "cudaMalloc");
    HU(alloc(&s->c2v, E * W), "cudaMalloc");
    HU(alloc(&s->dec, n * W), "cudaMalloc");
    HU(alloc(&s->out_bits, n * W), "cudaMalloc");
    HU(alloc(&s->done, W), "cudaMalloc");
    HU(alloc(&s->bad, W), "cudaMalloc");
    HU(alloc(&s->iters, s->B), "cudaMalloc");
    HU(alloc(&s->out, n * s->B), "cudaMalloc");
    HU(alloc(&s->conv, s->B), "cudaMalloc");
    HU(cudaEventCreate(&s->k0), "cudaEventCreate");
    HU(cudaEventCreate(&s->k1), "cudaEventCreate");
    return GPUFEC_OK;
}

gpufec_status hard_create(gpufec_decoder* dec)
{
    if (dec->code->max_var_degree >= (1u << CBITS) - 1)
        return GPUFEC_ERR_UNSUPPORTED;
    hard_state* s = (hard_state*)calloc(1, sizeof *s);
    if (!s)
        return GPUFEC_ERR_OUT_OF_MEMORY;
    s->B = dec->opts.max_batch ? ((dec->opts.max_batch + 31) / 32) * 32 : 4096;
    gpufec_status st = hard_create_impl(dec, s);
    if (st) {
        hard_free(s);
        return st;
    }
    dec->impl = s;
    dec->preferred_batch = s->B;
    dec->backend_writes_output = 1;
    decoder_log(dec, GPUFEC_LOG_INFO, "CUDA %s decoder: 32 frames per word, chunks of %u frames",
                gpufec_algorithm_name(dec->opts.algorithm), s->B);
    return GPUFEC_OK;
}

void hard_destroy(gpufec_decoder* dec)
{
    hard_free((hard_state*)dec->impl);
    dec->impl = NULL;
}

gpufec_status hard_decode(gpufec_decoder* dec, const void* soft, size_t n_frames, uint8_t* bits,
                          int32_t* iterations, uint8_t* converged)
{
    hard_state* s = (hard_state*)dec->impl;
    const gpufec_code* c = dec->code;
    const gpufec_decoder_opts* o = &dec->opts;
    const uint32_t out_len = dec->out_len, T = 128;
    const uint32_t p24 = (uint32_t)(o->pgab_p * 16777216.0f);
    HU(cudaSetDevice(o->device), "cudaSetDevice");
    s->kernel_ms = 0.0f;
    for (size_t f0 = 0; f0 < n_frames; f0 += s->B) {
        const uint32_t nf = (uint32_t)(n_frames - f0 < s->B ? n_frames - f0 : s->B), W = (nf + 31) / 32;
        const size_t nW = (size_t)c->n * W, mW = (size_t)c->m * W;
        const unsigned gn = (unsigned)((nW + T - 1) / T), gm = (unsigned)((mW + T - 1) / T);
        const size_t count = (size_t)c->n_tx * nf, width = soft_input_bytes(o->input_type);
        const char* in = (const char*)soft + f0 * c->n_tx * width;
        const bool narrow = o->input_type != GPUFEC_INPUT_FLOAT32;
        HU(cudaMemcpy(narrow ? s->raw : (void*)s->in, in, count * width, cudaMemcpyDefault), "copy in");
        HU(cudaEventRecord(s->k0, 0), "event");
        if (narrow)
            HU(widen_soft_input(s->raw, o->input_type, o->input_scale, s->in, count, 0), "kernel launch");
        k_pack<<<gn, T>>>(s->in, s->full_src, s->w, c->n, c->n_tx, W, nf);
        HU(cudaMemset(s->done, 0, W * 4), "memset");
        HU(cudaMemset(s->bad, 0, W * 4), "memset");
        HU(cudaMemset(s->c2v, 0, (size_t)c->edges * W * 4), "memset");
        for (int it = 1; it <= o->max_iterations; it++) {
            const int last = it == o->max_iterations;
            k_var<<<gn, T>>>(s->col_ptr, s->col_edge, s->w, s->c2v, s->v2c, c->n, W, it, (int)o->algorithm,
                             o->seed, s->frames_done + f0, p24, o->pgab_start);
            k_check<<<gm, T>>>(s->row_ptr, s->v2c, s->c2v, c->m, W);
            const int check = o->early_termination && it % o->syndrome_interval == 0;
            if (!check && !last)
                continue; /* decisions only matter where the syndrome is tested */
            k_decide<<<gn, T>>>(s->col_ptr, s->col_edge, s->w, s->c2v, s->dec, c->n, W);
            k_syndrome_words<<<gm, T>>>(s->row_ptr, s->edge_var, s->dec, s->bad, c->m, W);
            k_capture<<<gn, T>>>(s->dec, s->out_bits, s->done, s->bad, s->iters, c->n, W, it,
                                 !last ? 0 : o->early_termination ? 1 : 2);
            (void)check;
            k_close_iteration<<<(W + 63) / 64, 64>>>(s->done, s->bad, s->conv, W, last);
        }
        clear_erased_frames(s->in, c->n_tx, nf, s->conv, 0);
        HU(cudaGetLastError(), "kernel launch");
        k_unpack<<<(unsigned)(((size_t)out_len * nf + T - 1) / T), T>>>(s->out_bits, s->out_pos,
                                                                       s->out, out_len, W, nf);
        HU(cudaEventRecord(s->k1, 0), "event");
        HU(cudaMemcpy(bits + f0 * out_len, s->out, (size_t)out_len * nf, cudaMemcpyDefault), "copy out");
        if (iterations)
            HU(cudaMemcpy(iterations + f0, s->iters, nf * sizeof(int32_t), cudaMemcpyDefault), "copy out");
        if (converged)
            HU(cudaMemcpy(converged + f0, s->conv, nf, cudaMemcpyDefault), "copy out");
        float ms = 0.0f; /* the copies above waited for the kernels, so k1 has been reached */
        HU(cudaEventElapsedTime(&ms, s->k0, s->k1), "event time");
        s->kernel_ms += ms;
    }
    s->frames_done += n_frames;
    return GPUFEC_OK;
}

double hard_kernel_seconds(const gpufec_decoder* dec) { return ((const hard_state*)dec->impl)->kernel_ms * 1e-3; }

} // namespace

extern "C" int cuda_backend_probe(int device, char* why, size_t why_len); /* cuda_backend.cu */

static int hard_accepts(const gpufec_code* code, const gpufec_decoder_opts* opts, char* why, size_t why_len)
{
    (void)code;
    if (opts->algorithm < GPUFEC_ALG_GALLAGER_A) {
        snprintf(why, why_len, "hard-decision algorithms only");
        return 0;
    }
    return cuda_backend_probe(opts->device, why, why_len);
}

extern "C" const backend_ops cuda_hard_backend_ops = {"cuda-hard",  GPUFEC_BACKEND_CUDA, hard_accepts, hard_create,
                                                      hard_destroy, hard_decode,         NULL,         NULL,
                                                      hard_kernel_seconds};
