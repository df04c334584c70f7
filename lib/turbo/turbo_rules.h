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

#include "crc24.h"
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

/* One stage of the recursions, not normalised: the callers normalise once per window (the
 * metrics grow by at most a few branch metrics per stage, far from float's limits), which saves
 * most of the subtractions. */

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
}

/* beta_k from beta_{k+1}. */
GPUFEC_HD void turbo_backward(const turbo_metrics* b, float lu, float lp, int logmap, turbo_metrics* out)
{
    for (uint32_t s = 0; s < TURBO_STATES; s++) {
        const float v0 = b->m[turbo_next(s, 0)] + turbo_branch(0, turbo_parity(s, 0), lu, lp);
        const float v1 = b->m[turbo_next(s, 1)] + turbo_branch(1, turbo_parity(s, 1), lu, lp);
        out->m[s] = turbo_maxstar(v0, v1, logmap);
    }
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
 * cancel, so only the parity part of each branch enters; the candidates of each input are
 * grouped by their parity bit, so lp is added once per group. */
GPUFEC_HD float turbo_extrinsic(const turbo_metrics* a, const turbo_metrics* b, float lp, int logmap)
{
    float g[2][2] = {{0.0f, 0.0f}, {0.0f, 0.0f}}; /* [u][parity] */
    int seen[2][2] = {{0, 0}, {0, 0}};
    for (uint32_t s = 0; s < TURBO_STATES; s++)
        for (uint32_t u = 0; u < 2; u++) {
            const uint32_t p = turbo_parity(s, u);
            const float v = a->m[s] + b->m[turbo_next(s, u)];
            g[u][p] = seen[u][p] ? turbo_maxstar(g[u][p], v, logmap) : v;
            seen[u][p] = 1;
        }
    return turbo_maxstar(g[0][0] + lp, g[0][1] - lp, logmap) - turbo_maxstar(g[1][0] + lp, g[1][1] - lp, logmap);
}

/* One half-decoder's view of a frame. Stage k's values are stored at address addr(k) = (k %
 * lw) * lp + k / lw: the CPU keeps natural order (lw = K, lp = 1: addr(k) = k), the GPU keeps
 * its arrays sub-block-interleaved (lw = w, lp = P), so that a warp's sub-blocks read
 * consecutive words. At addr(k): the parity `par`; perm NULL: also the stage's systematic and a
 * priori values, else they (and the extrinsic written back) are at perm[addr(k)] (the interleaved
 * half: position pi(k)). */
typedef struct {
    const float* sys;
    const float* par;
    const float* apr;
    float* ext;
    const uint32_t* perm;
    uint32_t K, lw, lp;
    float scale;
    int logmap;
} turbo_half;

GPUFEC_HD uint32_t turbo_addr(const turbo_half* h, uint32_t k) { return (k % h->lw) * h->lp + k / h->lw; }
GPUFEC_HD uint32_t turbo_pos_at(const turbo_half* h, uint32_t a) { return h->perm ? h->perm[a] : a; }
GPUFEC_HD float turbo_lp_at(const turbo_half* h, uint32_t a) { return TURBO_MUL(0.5f, h->par[a]); }
GPUFEC_HD float turbo_lu_at(const turbo_half* h, uint32_t a)
{
    const uint32_t p = turbo_pos_at(h, a);
    return TURBO_MUL(0.5f, h->sys[p] + h->apr[p]);
}

/* Forward recursion from alpha_{k0} over stages [k0, k1): alpha_{k1} in *a (training runs). */
GPUFEC_HD void turbo_train_forward(const turbo_half* h, uint32_t k0, uint32_t k1, turbo_metrics* a)
{
    turbo_metrics t;
    for (uint32_t k = k0; k < k1; k++) {
        const uint32_t ad = turbo_addr(h, k);
        turbo_forward(a, turbo_lu_at(h, ad), turbo_lp_at(h, ad), h->logmap, &t);
        turbo_normalise(&t);
        *a = t;
    }
}

/* Backward recursion from beta_{k1} over stages [k0, k1) downwards: beta_{k0} in *b. */
GPUFEC_HD void turbo_train_backward(const turbo_half* h, uint32_t k0, uint32_t k1, turbo_metrics* b)
{
    turbo_metrics t;
    for (uint32_t k = k1; k > k0; k--) {
        const uint32_t ad = turbo_addr(h, k - 1);
        turbo_backward(b, turbo_lu_at(h, ad), turbo_lp_at(h, ad), h->logmap, &t);
        turbo_normalise(&t);
        *b = t;
    }
}

/* Stages per window of the backward pass: the forward pass keeps alpha only at window starts
 * (checkpoints) and the backward pass recomputes one window's alphas at a time, so a sub-block
 * needs one checkpoint per window instead of a metric per stage; the window itself is a local
 * array with constant indices (registers on the GPU). The recomputed alphas are the same
 * operations on the same values: results do not depend on the window. */
#ifndef TURBO_WINDOW /* a build option for measurements: results do not depend on it */
#define TURBO_WINDOW 8u
#endif

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

/* The inputs of one window of stages: its branch values and where its extrinsic values go. */
typedef struct {
    float lu[TURBO_WINDOW], lp[TURBO_WINDOW];
    uint32_t pos[TURBO_WINDOW];
} turbo_window;

/* Loads window w of the sub-block [b0, b1) whose first address is a_b0 (one sub-block stays
 * within a row of the layout, so its addresses step by lp). The loads depend neither on each
 * other nor on the metrics: the sub-block loop issues them one window ahead of the recursion
 * that consumes them, so memory latency hides behind a window of arithmetic. */
GPUFEC_HD void turbo_load_window(const turbo_half* h, uint32_t b0, uint32_t b1, uint32_t a_b0, uint32_t w,
                                 turbo_window* x)
{
    const uint32_t s0 = b0 + w * TURBO_WINDOW, n = b1 - s0 < TURBO_WINDOW ? b1 - s0 : TURBO_WINDOW;
    TURBO_UNROLL
    for (uint32_t i = 0; i < TURBO_WINDOW; i++)
        if (i < n) {
            const uint32_t a = a_b0 + (w * TURBO_WINDOW + i) * h->lp;
            x->pos[i] = turbo_pos_at(h, a);
            x->lu[i] = TURBO_MUL(0.5f, h->sys[x->pos[i]] + h->apr[x->pos[i]]);
            x->lp[i] = turbo_lp_at(h, a);
        }
}

/* Sub-block [b0, b1): forward from alpha (= alpha_{b0}), then backward from beta (= beta_{b1})
 * writing the scaled extrinsic of every stage. ckpt: turbo_checkpoints(b1 - b0) metrics.
 * Metrics are normalised at window starts. Records for the guards of the next iteration: alpha
 * at stage `mark_a` and beta at stage `mark_b` (both in [b0, b1]); a window holding a mark runs
 * a copy of the loop that looks for it, the others do not pay for the test. */
GPUFEC_HD void turbo_subblock(const turbo_half* h, uint32_t b0, uint32_t b1, turbo_metrics alpha, turbo_metrics beta,
                              turbo_ckpt ckpt, uint32_t mark_a, uint32_t mark_b, turbo_metrics* at_mark_a,
                              turbo_metrics* at_mark_b)
{
    const uint32_t windows = (b1 - b0 + TURBO_WINDOW - 1) / TURBO_WINDOW, a_b0 = turbo_addr(h, b0);
    turbo_window cur, next;
    turbo_load_window(h, b0, b1, a_b0, 0, &next);
    for (uint32_t w = 0; w < windows; w++) {
        const uint32_t s0 = b0 + w * TURBO_WINDOW, n = b1 - s0 < TURBO_WINDOW ? b1 - s0 : TURBO_WINDOW;
        cur = next;
        if (w + 1 < windows)
            turbo_load_window(h, b0, b1, a_b0, w + 1, &next);
        turbo_normalise(&alpha);
        turbo_ckpt_put(ckpt, w, &alpha);
        if (mark_a - s0 < n) {
            TURBO_UNROLL
            for (uint32_t i = 0; i < TURBO_WINDOW; i++)
                if (i < n) {
                    turbo_metrics t;
                    if (s0 + i == mark_a)
                        *at_mark_a = alpha;
                    turbo_forward(&alpha, cur.lu[i], cur.lp[i], h->logmap, &t);
                    alpha = t;
                }
        } else {
            TURBO_UNROLL
            for (uint32_t i = 0; i < TURBO_WINDOW; i++)
                if (i < n) {
                    turbo_metrics t;
                    turbo_forward(&alpha, cur.lu[i], cur.lp[i], h->logmap, &t);
                    alpha = t;
                }
        }
    }
    if (mark_a == b1)
        *at_mark_a = alpha;
    if (mark_b == b1)
        *at_mark_b = beta;
    turbo_metrics start;
    turbo_load_window(h, b0, b1, a_b0, windows - 1, &next);
    turbo_ckpt_get(ckpt, windows - 1, &start);
    for (uint32_t w = windows; w-- > 0;) {
        const uint32_t s0 = b0 + w * TURBO_WINDOW, n = b1 - s0 < TURBO_WINDOW ? b1 - s0 : TURBO_WINDOW;
        turbo_metrics win[TURBO_WINDOW + 1];
        cur = next;
        win[0] = start;
        if (w > 0) {
            turbo_load_window(h, b0, b1, a_b0, w - 1, &next);
            turbo_ckpt_get(ckpt, w - 1, &start);
        }
        TURBO_UNROLL
        for (uint32_t i = 0; i < TURBO_WINDOW; i++)
            if (i < n)
                turbo_forward(&win[i], cur.lu[i], cur.lp[i], h->logmap, &win[i + 1]);
        turbo_normalise(&beta);
        const int marked = mark_b - s0 < n;
        TURBO_UNROLL
        for (uint32_t i = TURBO_WINDOW; i-- > 0;)
            if (i < n) {
                turbo_metrics t;
                h->ext[cur.pos[i]] = TURBO_MUL(h->scale, turbo_extrinsic(&win[i], &beta, cur.lp[i], h->logmap));
                turbo_backward(&beta, cur.lu[i], cur.lp[i], h->logmap, &t);
                beta = t;
                if (marked && s0 + i == mark_b)
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
/* The turbo codes' CRCs are 3GPP's CRC24A / CRC24B (lib/core/crc24.h). */
#define turbo_crc24_register crc24_register
#define TURBO_CRC24A CRC24A_POLY
#define TURBO_CRC24B CRC24B_POLY

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
