/* Hard-decision decoders on the GPU (Gallager-A, Gallager-B, PGaB), 32 frames per 32-bit word.
 *
 * Every bit array is [index][word]: bit l of word w belongs to frame 32 w + l. A check pass is a
 * word XOR; the variable rules of ldpc_rules.h (majority of the channel vote and the other
 * checks, ties keep the channel bit; Gallager-A: flip when all others disagree) become
 * comparisons of bit-sliced vote counters with constants, evaluated for 32 frames at once. A
 * frame's output and iteration count are captured the first time its decision satisfies every
 * check, which is where the CPU decoder stops, so the results are identical; PGaB draws its
 * perturbations from the same counter-based hash (frame numbers continue across calls). */
#include "erasure.cuh"
#include "graph_dev.cuh"
#include "ldpc_plans.cuh"
#include "ldpc_rules.h"

#include <stdio.h>
#include <stdlib.h>

namespace {

constexpr int CBITS = 7; /* vote counters up to 127: variable degrees up to 126 */

struct hard_plan {
    const decoder_config* cfg;
    ldpc_graph_dev g;
};

/* One slot's words: every bit array is [index][W], W = B / 32. */
struct hard_state {
    uint32_t *w, *v2c, *c2v, *dec, *out_bits, *done, *bad;
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

__global__ void k_pack(const float* __restrict__ in, tx_map_view map, uint32_t* w,
                       uint32_t n, uint32_t n_tx, uint32_t W, uint32_t nf)
{
    size_t idx = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (idx >= (size_t)n * W)
        return;
    uint32_t j = (uint32_t)(idx / W), word = (uint32_t)(idx % W);
    uint32_t bits = 0;
    for (uint32_t l = 0; l < 32; l++) {
        uint32_t f = word * 32 + l;
        float v = f < nf ? tx_map_value(map, j, in + (size_t)f * n_tx) : 1.0f;
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

hard_state carve(const ldpc_code* c, void* base, uint32_t B, size_t* bytes)
{
    const size_t W = B / 32;
    workspace_cursor w = {(unsigned char*)base, 0};
    hard_state s;
    s.w = w.take<uint32_t>((size_t)c->n * W);
    s.v2c = w.take<uint32_t>((size_t)c->edges * W);
    s.c2v = w.take<uint32_t>((size_t)c->edges * W);
    s.dec = w.take<uint32_t>((size_t)c->n * W);
    s.out_bits = w.take<uint32_t>((size_t)c->n * W);
    s.done = w.take<uint32_t>(W);
    s.bad = w.take<uint32_t>(W);
    if (bytes)
        *bytes = w.used;
    return s;
}

size_t hard_state_bytes(const void* plan, uint32_t B)
{
    size_t bytes = 0;
    carve(ldpc_of(((const hard_plan*)plan)->cfg->code), nullptr, B, &bytes);
    return bytes;
}

cudaError_t hard_launch(const void* plan, const engine_chunk* ch, cudaStream_t st)
{
    const hard_plan* p = (const hard_plan*)plan;
    const decoder_config* cfg = p->cfg;
    const gpufec_decoder_opts* o = &cfg->opts;
    const ldpc_opts lo = ldpc_opts_of(o);
    const ldpc_code* c = ldpc_of(cfg->code);
    const hard_state s = carve(c, ch->state, ch->B, nullptr);
    const uint32_t out_len = cfg->out_len, T = 128, nf = ch->nf, W = (nf + 31) / 32, n_tx = cfg->code->tx.n_tx;
    const uint32_t p24 = (uint32_t)(lo.pgab_p * 16777216.0f);
    const size_t nW = (size_t)c->n * W, mW = (size_t)c->m * W;
    const unsigned gn = (unsigned)((nW + T - 1) / T), gm = (unsigned)((mW + T - 1) / T);
    k_pack<<<gn, T, 0, st>>>(ch->in, p->g.map.view(), s.w, c->n, n_tx, W, nf);
    cudaError_t e = cudaMemsetAsync(s.done, 0, W * 4, st);
    if (e == cudaSuccess)
        e = cudaMemsetAsync(s.bad, 0, W * 4, st);
    if (e == cudaSuccess)
        e = cudaMemsetAsync(s.c2v, 0, (size_t)c->edges * W * 4, st);
    if (e != cudaSuccess)
        return e;
    for (int it = 1; it <= o->max_iterations; it++) {
        const int last = it == o->max_iterations;
        k_var<<<gn, T, 0, st>>>(p->g.col_ptr, p->g.col_edge, s.w, s.c2v, s.v2c, c->n, W, it, (int)lo.algorithm,
                                lo.seed, ch->first_frame, p24, lo.pgab_start);
        k_check<<<gm, T, 0, st>>>(p->g.row_ptr, s.v2c, s.c2v, c->m, W);
        const int check = o->early_termination && it % lo.syndrome_interval == 0;
        if (!check && !last)
            continue; /* decisions only matter where the syndrome is tested */
        k_decide<<<gn, T, 0, st>>>(p->g.col_ptr, p->g.col_edge, s.w, s.c2v, s.dec, c->n, W);
        k_syndrome_words<<<gm, T, 0, st>>>(p->g.row_ptr, p->g.edge_var, s.dec, s.bad, c->m, W);
        k_capture<<<gn, T, 0, st>>>(s.dec, s.out_bits, s.done, s.bad, ch->iterations, c->n, W, it,
                                    !last ? 0 : o->early_termination ? 1 : 2);
        k_close_iteration<<<(W + 63) / 64, 64, 0, st>>>(s.done, s.bad, ch->converged, W, last);
    }
    clear_erased_frames(ch->in, n_tx, nf, ch->converged, st);
    k_unpack<<<(unsigned)(((size_t)out_len * nf + T - 1) / T), T, 0, st>>>(s.out_bits, p->g.out_pos, ch->out,
                                                                           out_len, W, nf);
    return cudaGetLastError();
}

const char* hard_describe(const void* plan)
{
    (void)plan;
    return "bit-sliced hard decision, 32 frames per word";
}

void hard_destroy(void* plan)
{
    hard_plan* p = (hard_plan*)plan;
    ldpc_graph_free(&p->g);
    free(p);
}

} // namespace

const engine_plan_ops hard_plan_ops = {hard_describe, hard_state_bytes, hard_launch, hard_destroy};

void* hard_plan_create(const decoder_config* cfg, char* why, size_t why_len, gpufec_status* st)
{
    *st = GPUFEC_OK;
    const ldpc_code* c = ldpc_of(cfg->code);
    if (c->max_var_degree >= (1u << CBITS) - 1) {
        snprintf(why, why_len, "variable degree %u over the bit-sliced counters' %u", c->max_var_degree,
                 (1u << CBITS) - 2);
        return NULL;
    }
    hard_plan* p = (hard_plan*)calloc(1, sizeof *p);
    if (!p) {
        *st = GPUFEC_ERR_OUT_OF_MEMORY;
        return NULL;
    }
    p->cfg = cfg;
    *st = engine_status(cfg, ldpc_graph_upload(cfg, 0, &p->g), "upload");
    if (*st != GPUFEC_OK) {
        hard_destroy(p);
        return NULL;
    }
    return p;
}
