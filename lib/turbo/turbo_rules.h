/* The LTE turbo decoder's soft-in/soft-out rule (BCJR over the 8-state RSC trellis of 36.212,
 * g0 = 1 + D^2 + D^3 feedback, g1 = 1 + D + D^3 parity), written once for the CPU decoder and
 * (through nvcc) the CUDA kernel: the same operations in the same order, so Max-Log-MAP decodes
 * bit for bit alike on both; Log-MAP's correction term uses each side's expf/log1pf.
 *
 * Soft values are LLRs ln P(0)/P(1). A branch with input u and parity p has the metric
 * (u ? -lu : lu) + (p ? -lp : lp), lu = (systematic + a priori) / 2, lp = parity / 2. State
 * metrics are normalised by state 0 after every step. A half-decoder runs over sub-blocks
 * [b0, b1) of the K stages independently (seed 002, chapter 4): each starts its forward and
 * backward recursions from metrics its guard provides (turbo_guard). */
#ifndef GPUFEC_TURBO_RULES_H
#define GPUFEC_TURBO_RULES_H

#include "soft_value.h"

#define TURBO_STATES 8
#define TURBO_IMPOSSIBLE (-1.0e30f) /* finite: -inf - -inf would be NaN in the correction term */

#if defined(__CUDA_ARCH__)
#define TURBO_MUL(a, b) __fmul_rn(a, b) /* never fused into an add: the CPU rounds the product */
#else
#define TURBO_MUL(a, b) ((a) * (b))
#endif

typedef struct {
    float m[TURBO_STATES];
} turbo_metrics;

/* State s = s1 s2 s3 (s1 the newest register bit, s = 4 s1 + 2 s2 + s3). */
GPUFEC_HD uint32_t turbo_feedback(uint32_t s, uint32_t u) { return u ^ ((s >> 1) & 1u) ^ (s & 1u); }
GPUFEC_HD uint32_t turbo_next(uint32_t s, uint32_t u) { return (turbo_feedback(s, u) << 2) | (s >> 1); }
GPUFEC_HD uint32_t turbo_parity(uint32_t s, uint32_t u) { return turbo_feedback(s, u) ^ (s >> 2) ^ (s & 1u); }
/* The input that drives the register towards 0 (trellis termination: feedback 0). */
GPUFEC_HD uint32_t turbo_tail_input(uint32_t s) { return ((s >> 1) & 1u) ^ (s & 1u); }

/* max* of Log-MAP (with the correction term) or Max-Log-MAP. */
GPUFEC_HD float turbo_maxstar(float a, float b, int logmap)
{
    const float m = fmaxf(a, b);
    return logmap ? m + log1pf(expf(-fabsf(a - b))) : m;
}

GPUFEC_HD float turbo_branch(uint32_t u, uint32_t p, float lu, float lp) { return (u ? -lu : lu) + (p ? -lp : lp); }

GPUFEC_HD void turbo_equal(turbo_metrics* x)
{
    for (int s = 0; s < TURBO_STATES; s++)
        x->m[s] = 0.0f;
}

GPUFEC_HD void turbo_known_zero(turbo_metrics* x)
{
    for (int s = 0; s < TURBO_STATES; s++)
        x->m[s] = s ? TURBO_IMPOSSIBLE : 0.0f;
}

GPUFEC_HD void turbo_normalise(turbo_metrics* x)
{
    const float r = x->m[0];
    for (int s = 0; s < TURBO_STATES; s++)
        x->m[s] = x->m[s] - r;
}

/* alpha_{k+1} from alpha_k: the predecessors of state ns are s = 2 (ns & 3) and s + 1, each
 * with the input that makes the feedback bit ns >> 2. */
GPUFEC_HD void turbo_forward(const turbo_metrics* a, float lu, float lp, int logmap, turbo_metrics* out)
{
    for (uint32_t ns = 0; ns < TURBO_STATES; ns++) {
        const uint32_t s0 = 2 * (ns & 3u), s1 = s0 + 1;
        const uint32_t u0 = (ns >> 2) ^ turbo_tail_input(s0), u1 = (ns >> 2) ^ turbo_tail_input(s1);
        out->m[ns] = turbo_maxstar(a->m[s0] + turbo_branch(u0, turbo_parity(s0, u0), lu, lp),
                                   a->m[s1] + turbo_branch(u1, turbo_parity(s1, u1), lu, lp), logmap);
    }
    turbo_normalise(out);
}

/* beta_k from beta_{k+1}. */
GPUFEC_HD void turbo_backward(const turbo_metrics* b, float lu, float lp, int logmap, turbo_metrics* out)
{
    for (uint32_t s = 0; s < TURBO_STATES; s++) {
        const float v0 = b->m[turbo_next(s, 0)] + turbo_branch(0, turbo_parity(s, 0), lu, lp);
        const float v1 = b->m[turbo_next(s, 1)] + turbo_branch(1, turbo_parity(s, 1), lu, lp);
        out->m[s] = turbo_maxstar(v0, v1, logmap);
    }
    turbo_normalise(out);
}

/* beta through one termination step: the input is forced (feedback 0), one branch per state. */
GPUFEC_HD void turbo_tail_backward(const turbo_metrics* b, float lu, float lp, turbo_metrics* out)
{
    for (uint32_t s = 0; s < TURBO_STATES; s++) {
        const uint32_t u = turbo_tail_input(s);
        out->m[s] = b->m[turbo_next(s, u)] + turbo_branch(u, turbo_parity(s, u), lu, lp);
    }
    turbo_normalise(out);
}

/* Extrinsic LLR of stage k from alpha_k and beta_{k+1}: the systematic and a priori terms
 * cancel, so only the parity part of each branch enters. */
GPUFEC_HD float turbo_extrinsic(const turbo_metrics* a, const turbo_metrics* b, float lp, int logmap)
{
    float m0 = 0.0f, m1 = 0.0f;
    for (uint32_t s = 0; s < TURBO_STATES; s++) {
        const uint32_t p0 = turbo_parity(s, 0), p1 = turbo_parity(s, 1);
        const float v0 = a->m[s] + (p0 ? -lp : lp) + b->m[turbo_next(s, 0)];
        const float v1 = a->m[s] + (p1 ? -lp : lp) + b->m[turbo_next(s, 1)];
        m0 = s ? turbo_maxstar(m0, v0, logmap) : v0;
        m1 = s ? turbo_maxstar(m1, v1, logmap) : v1;
    }
    return m0 - m1;
}

/* One half-decoder's view of a frame: its systematic, parity and a priori values at stage k
 * (perm NULL: natural order; else the interleaved order, stage k reads position perm[k]). The
 * a priori array is read only; extrinsic values go to `ext` at the same positions. */
typedef struct {
    const float* sys;
    const float* par; /* stage order */
    const float* apr;
    float* ext;
    const uint32_t* perm;
    const uint32_t* stage_addr; /* where stage k's parity is stored (NULL: at k); the GPU keeps
                                   its arrays sub-block-interleaved, so perm carries the same
                                   layout there */
    uint32_t K;
    float scale;
    int logmap;
} turbo_half;

GPUFEC_HD uint32_t turbo_pos(const turbo_half* h, uint32_t k) { return h->perm ? h->perm[k] : k; }
GPUFEC_HD float turbo_lp(const turbo_half* h, uint32_t k)
{
    return TURBO_MUL(0.5f, h->par[h->stage_addr ? h->stage_addr[k] : k]);
}

GPUFEC_HD float turbo_lu(const turbo_half* h, uint32_t k)
{
    const uint32_t p = turbo_pos(h, k);
    return TURBO_MUL(0.5f, h->sys[p] + h->apr[p]);
}

/* Forward recursion from alpha_{k0} over stages [k0, k1): alpha_{k1} in *a. */
GPUFEC_HD void turbo_train_forward(const turbo_half* h, uint32_t k0, uint32_t k1, turbo_metrics* a)
{
    turbo_metrics t;
    for (uint32_t k = k0; k < k1; k++) {
        turbo_forward(a, turbo_lu(h, k), turbo_lp(h, k), h->logmap, &t);
        *a = t;
    }
}

/* Backward recursion from beta_{k1} over stages [k0, k1) downwards: beta_{k0} in *b. */
GPUFEC_HD void turbo_train_backward(const turbo_half* h, uint32_t k0, uint32_t k1, turbo_metrics* b)
{
    turbo_metrics t;
    for (uint32_t k = k1; k > k0; k--) {
        turbo_backward(b, turbo_lu(h, k - 1), turbo_lp(h, k - 1), h->logmap, &t);
        *b = t;
    }
}

/* Stages per window of the backward pass: the forward pass keeps alpha only at window starts
 * (checkpoints) and the backward pass recomputes one window's alphas at a time, so a sub-block
 * needs one checkpoint per window instead of a metric per stage; the window itself is a local
 * array with constant indices (registers on the GPU). The recomputed alphas are the same
 * operations on the same values: results do not depend on the window. */
#define TURBO_WINDOW 8u

#if defined(__CUDA_ARCH__)
#define TURBO_UNROLL _Pragma("unroll")
#else
#define TURBO_UNROLL
#endif

GPUFEC_HD uint32_t turbo_checkpoints(uint32_t stages) { return (stages + TURBO_WINDOW - 1) / TURBO_WINDOW + 1; }

/* Where a sub-block keeps its checkpoints: metric s of checkpoint c at base[(c * 8 + s) *
 * stride]. The CPU packs them (stride 1); the GPU interleaves its threads' checkpoints (stride
 * = threads), so a warp touches consecutive shared-memory words. */
typedef struct {
    float* base;
    uint32_t stride;
} turbo_ckpt;

GPUFEC_HD void turbo_ckpt_put(turbo_ckpt c, uint32_t i, const turbo_metrics* m)
{
    for (uint32_t s = 0; s < TURBO_STATES; s++)
        c.base[(i * TURBO_STATES + s) * c.stride] = m->m[s];
}

GPUFEC_HD void turbo_ckpt_get(turbo_ckpt c, uint32_t i, turbo_metrics* m)
{
    for (uint32_t s = 0; s < TURBO_STATES; s++)
        m->m[s] = c.base[(i * TURBO_STATES + s) * c.stride];
}

/* The branch inputs of stages [s0, s0 + n), n <= TURBO_WINDOW, loaded before the recursion
 * that consumes them: the loads are independent of each other and of the metrics, so a window
 * waits for memory once rather than at every stage. */
GPUFEC_HD void turbo_load_window(const turbo_half* h, uint32_t s0, uint32_t n, float* lu, float* lp)
{
    TURBO_UNROLL
    for (uint32_t i = 0; i < TURBO_WINDOW; i++)
        if (i < n) {
            lu[i] = turbo_lu(h, s0 + i);
            lp[i] = turbo_lp(h, s0 + i);
        }
}

/* Sub-block [b0, b1): forward from alpha (= alpha_{b0}), then backward from beta (= beta_{b1})
 * writing the scaled extrinsic of every stage. ckpt: turbo_checkpoints(b1 - b0) metrics.
 * Records for the guards of the next iteration: alpha at stage `mark_a` and beta at stage
 * `mark_b` (both in [b0, b1]). */
GPUFEC_HD void turbo_subblock(const turbo_half* h, uint32_t b0, uint32_t b1, turbo_metrics alpha, turbo_metrics beta,
                              turbo_ckpt ckpt, uint32_t mark_a, uint32_t mark_b, turbo_metrics* at_mark_a,
                              turbo_metrics* at_mark_b)
{
    const uint32_t windows = (b1 - b0 + TURBO_WINDOW - 1) / TURBO_WINDOW;
    float lu[TURBO_WINDOW], lp[TURBO_WINDOW];
    for (uint32_t w = 0; w < windows; w++) {
        const uint32_t s0 = b0 + w * TURBO_WINDOW, n = b1 - s0 < TURBO_WINDOW ? b1 - s0 : TURBO_WINDOW;
        turbo_load_window(h, s0, n, lu, lp);
        turbo_ckpt_put(ckpt, w, &alpha);
        TURBO_UNROLL
        for (uint32_t i = 0; i < TURBO_WINDOW; i++)
            if (i < n) {
                turbo_metrics t;
                if (s0 + i == mark_a)
                    *at_mark_a = alpha;
                turbo_forward(&alpha, lu[i], lp[i], h->logmap, &t);
                alpha = t;
            }
    }
    if (mark_a == b1)
        *at_mark_a = alpha;
    if (mark_b == b1)
        *at_mark_b = beta;
    for (uint32_t w = windows; w-- > 0;) {
        const uint32_t s0 = b0 + w * TURBO_WINDOW, n = b1 - s0 < TURBO_WINDOW ? b1 - s0 : TURBO_WINDOW;
        turbo_metrics win[TURBO_WINDOW + 1];
        turbo_load_window(h, s0, n, lu, lp);
        turbo_ckpt_get(ckpt, w, &win[0]);
        TURBO_UNROLL
        for (uint32_t i = 0; i < TURBO_WINDOW; i++)
            if (i < n)
                turbo_forward(&win[i], lu[i], lp[i], h->logmap, &win[i + 1]);
        TURBO_UNROLL
        for (uint32_t i = TURBO_WINDOW; i-- > 0;)
            if (i < n) {
                turbo_metrics t;
                const uint32_t j = s0 + i;
                h->ext[turbo_pos(h, j)] = TURBO_MUL(h->scale, turbo_extrinsic(&win[i], &beta, lp[i], h->logmap));
                turbo_backward(&beta, lu[i], lp[i], h->logmap, &t);
                beta = t;
                if (j == mark_b)
                    *at_mark_b = beta;
            }
    }
}

/* beta_K of one constituent code: back from state 0 at K + 3 through its three tail steps (six
 * values from `tail`: x, z per step). */
GPUFEC_HD void turbo_tail_beta(const float* tail, turbo_metrics* b)
{
    turbo_metrics t;
    turbo_known_zero(b);
    for (int k = 2; k >= 0; k--) {
        turbo_tail_backward(b, TURBO_MUL(0.5f, tail[2 * k]), TURBO_MUL(0.5f, tail[2 * k + 1]), &t);
        *b = t;
    }
}

/* CRC24 register after n bits (36.212 5.1.1; poly without the D^24 term): the parity bits p0..p23
 * are its bits 23..0. A word with its CRC appended leaves 0. */
GPUFEC_HD uint32_t turbo_crc24_register(const uint8_t* bits, uint32_t n, uint32_t poly)
{
    uint32_t r = 0;
    for (uint32_t i = 0; i < n; i++) {
        const uint32_t top = ((r >> 23) & 1u) ^ (bits[i] != 0);
        r = (r << 1) & 0xFFFFFFu;
        if (top)
            r ^= poly;
    }
    return r;
}
#define TURBO_CRC24A 0x864CFBu
#define TURBO_CRC24B 0x800063u

/* How a half-decoder splits the K stages: P sub-blocks of w stages (the last may be shorter),
 * guard 0..3 (gpufec_turbo_guard), training window g (at most w). */
typedef struct {
    uint32_t K, P, w, g;
    int guard;
} turbo_split;

GPUFEC_HD turbo_split turbo_make_split(uint32_t K, uint32_t P, int guard, uint32_t window)
{
    turbo_split s;
    s.K = K;
    s.w = (K + P - 1) / P;
    s.P = (K + s.w - 1) / s.w;
    s.guard = guard;
    s.g = window < s.w ? window : s.w;
    return s;
}

GPUFEC_HD uint32_t turbo_block_start(const turbo_split* s, uint32_t j) { return j * s->w; }
GPUFEC_HD uint32_t turbo_block_end(const turbo_split* s, uint32_t j)
{
    const uint32_t e = (j + 1) * s->w;
    return e < s->K ? e : s->K;
}

/* Stage at which block j records the alpha that block j + 1 starts from next iteration (PIVI:
 * its end; PIVIDSTW: the start of j + 1's training window), and the beta for block j - 1. */
GPUFEC_HD uint32_t turbo_mark_alpha(const turbo_split* s, uint32_t j)
{
    const uint32_t b1 = turbo_block_end(s, j);
    return s->guard == 3 && b1 - s->g >= turbo_block_start(s, j) ? b1 - s->g : b1;
}
GPUFEC_HD uint32_t turbo_mark_beta(const turbo_split* s, uint32_t j)
{
    const uint32_t b0 = turbo_block_start(s, j), b1 = turbo_block_end(s, j);
    return s->guard == 3 ? (b0 + s->g < b1 ? b0 + s->g : b1) : b0;
}

/* The metrics block j starts from: alpha at its start and beta at its end. stored_a / stored_b:
 * what the neighbours recorded for it in the previous iteration (equal metrics before the
 * first); beta_K: the exact beta after the termination tail. */
GPUFEC_HD void turbo_block_init(const turbo_half* h, const turbo_split* s, uint32_t j, const turbo_metrics* stored_a,
                                const turbo_metrics* stored_b, const turbo_metrics* beta_K, turbo_metrics* alpha,
                                turbo_metrics* beta)
{
    const uint32_t b0 = turbo_block_start(s, j), b1 = turbo_block_end(s, j);
    if (j == 0) {
        turbo_known_zero(alpha);
    } else if (s->guard == 1 || s->guard == 3) {
        *alpha = *stored_a;
    } else {
        turbo_equal(alpha);
    }
    if (j > 0 && s->guard >= 2)
        turbo_train_forward(h, b0 - s->g, b0, alpha);
    if (b1 == s->K) {
        *beta = *beta_K;
        return;
    }
    if (s->guard < 2) {
        if (s->guard == 1)
            *beta = *stored_b;
        else
            turbo_equal(beta);
        return;
    }
    const uint32_t t1 = b1 + s->g < s->K ? b1 + s->g : s->K;
    if (t1 == s->K)
        *beta = *beta_K;
    else if (s->guard == 3)
        *beta = *stored_b;
    else
        turbo_equal(beta);
    turbo_train_backward(h, b1, t1, beta);
}

/* The extrinsic scaling of full iteration `it` of `last + 1`: Max-Log-MAP scales every
 * half-iteration's extrinsic by `scale`, Log-MAP never. Leaving the first and the last iteration
 * unscaled (a common variant) was measured against the AFF3CT reference (K = 2048, rate 1/2, 8
 * iterations): FER 1.3-1.6 times the reference's, against 1.0-1.3 scaling every iteration. */
GPUFEC_HD float turbo_iteration_scale(int logmap, float scale, int it, int last)
{
    (void)it, (void)last;
    return logmap ? 1.0f : scale;
}

#endif
