/* The fixed-point Max-Log-MAP turbo decoder of turbo_simd.c for one instruction set and metric
 * width, written once and included once per (ISA, width). The includer defines:
 *   SIMD_NAME(x)  the function names of this instance
 *   SIMD_TARGET   the target attribute of its functions
 *   V, LANES      the vector type and its lanes (one frame per lane)
 *   V_ADD, V_SUB  saturating add / subtract;  V_MAX, V_MIN;  V_SET1(x);  V_ZERO
 *   V_SCALE(d, c) d * c / 32768 rounded (c: the extrinsic factor in Q15)
 *   V_SIGNS(v)    uint64_t with bit f set where lane f is negative
 *   NORM_BY_MAX   1: metrics normalised by their maximum (int8: keeps the best state exact when
 *                 the rest saturate), 0: by state 0 (int16 has the headroom)
 *   IMPOSSIBLE    metric of an unreachable state
 * It undefines the width's parameters at its end, so that the next width defines its own; the
 * ISA's (SIMD_TARGET, V, V_ZERO), which both widths share, stay for the includer to undefine.
 * The recursions are those of turbo_rules.h with the branch metric doubled (no halving of the
 * soft values), so the extrinsic difference is halved when it is scaled. */

/* Branch metrics of one stage, indexed u * 2 + p: (u ? -lu : lu) + (p ? -lp : lp). */
#define BRANCH(g, u, p) ((g)[((u) << 1) | (p)])

SIMD_TARGET static inline void SIMD_NAME(branches)(V lu, V lp, V* g)
{
    g[0] = V_ADD(lu, lp);
    g[1] = V_SUB(lu, lp);
    g[3] = V_SUB(V_ZERO, g[0]);
    g[2] = V_SUB(V_ZERO, g[1]);
}

SIMD_TARGET static inline void SIMD_NAME(normalise)(V* m)
{
#if NORM_BY_MAX
    V r = V_MAX(V_MAX(V_MAX(m[0], m[1]), V_MAX(m[2], m[3])), V_MAX(V_MAX(m[4], m[5]), V_MAX(m[6], m[7])));
#else
    V r = m[0];
#endif
    for (int s = 0; s < TURBO_STATES; s++)
        m[s] = V_SUB(m[s], r);
}

/* alpha_{k+1}[ns]: its two predecessors are s = 2 (ns & 3) + {0, 1}, with the input that makes
 * the feedback bit ns >> 2. */
SIMD_TARGET static inline void SIMD_NAME(forward)(const V* a, const V* g, V* out)
{
#pragma GCC unroll 8
    for (uint32_t ns = 0; ns < TURBO_STATES; ns++) {
        const uint32_t s0 = 2 * (ns & 3), s1 = s0 + 1;
        const uint32_t u0 = (ns >> 2) ^ ((s0 >> 1) & 1u) ^ (s0 & 1u), u1 = (ns >> 2) ^ ((s1 >> 1) & 1u) ^ (s1 & 1u);
        out[ns] = V_MAX(V_ADD(a[s0], BRANCH(g, u0, turbo_parity(s0, u0))),
                        V_ADD(a[s1], BRANCH(g, u1, turbo_parity(s1, u1))));
    }
    SIMD_NAME(normalise)(out);
}

SIMD_TARGET static inline void SIMD_NAME(backward)(const V* b, const V* g, V* out)
{
#pragma GCC unroll 8
    for (uint32_t s = 0; s < TURBO_STATES; s++)
        out[s] = V_MAX(V_ADD(b[turbo_next(s, 0)], BRANCH(g, 0, turbo_parity(s, 0))),
                       V_ADD(b[turbo_next(s, 1)], BRANCH(g, 1, turbo_parity(s, 1))));
    SIMD_NAME(normalise)(out);
}

/* Scaled extrinsic of a stage: the systematic and a priori parts cancel, so the candidates of
 * each input are grouped by their parity bit and lp is added once per group. */
SIMD_TARGET static inline V SIMD_NAME(extrinsic)(const V* a, const V* b, V lp, int c, V limit)
{
    V best[2][2]; /* [u][p] */
    int seen[2][2] = {{0, 0}, {0, 0}};
#pragma GCC unroll 8
    for (uint32_t s = 0; s < TURBO_STATES; s++)
#pragma GCC unroll 2
        for (uint32_t u = 0; u < 2; u++) {
            const uint32_t p = turbo_parity(s, u);
            const V v = V_ADD(a[s], b[turbo_next(s, u)]);
            best[u][p] = seen[u][p] ? V_MAX(best[u][p], v) : v;
            seen[u][p] = 1;
        }
    const V m0 = V_MAX(V_ADD(best[0][0], lp), V_SUB(best[0][1], lp));
    const V m1 = V_MAX(V_SUB(best[1][1], lp), V_ADD(best[1][0], lp));
    const V e = V_SCALE(V_SUB(m0, m1), c);
    return V_MAX(V_MIN(e, limit), V_SUB(V_ZERO, limit));
}

/* One half-decoder over the K stages (perm NULL: natural order). a priori `apr`, extrinsic to
 * `ext`, both at the stage's position. */
SIMD_TARGET static void SIMD_NAME(half)(const turbo_simd_group* gr, const uint32_t* perm, const V* par, const V* apr,
                                        V* ext, const V* beta_end, int c, V limit)
{
    const V* sys = (const V*)gr->sys;
    V* ckpt = (V*)gr->ckpt;
    const uint32_t K = gr->K;
    V alpha[TURBO_STATES], t[TURBO_STATES], g[4];
    alpha[0] = V_ZERO;
    for (int s = 1; s < TURBO_STATES; s++)
        alpha[s] = V_SET1(IMPOSSIBLE);
    for (uint32_t k = 0; k < K; k++) {
        if (k % TURBO_WINDOW == 0)
            memcpy(ckpt + (k / TURBO_WINDOW) * TURBO_STATES, alpha, sizeof alpha);
        const uint32_t p = perm ? perm[k] : k;
        SIMD_NAME(branches)(V_ADD(sys[p], apr[p]), par[k], g);
        SIMD_NAME(forward)(alpha, g, t);
        memcpy(alpha, t, sizeof t);
    }
    V beta[TURBO_STATES];
    memcpy(beta, beta_end, sizeof beta);
    for (uint32_t w = (K + TURBO_WINDOW - 1) / TURBO_WINDOW; w-- > 0;) {
        const uint32_t s0 = w * TURBO_WINDOW, n = K - s0 < TURBO_WINDOW ? K - s0 : TURBO_WINDOW;
        V win[TURBO_WINDOW + 1][TURBO_STATES], gw[TURBO_WINDOW][4];
        memcpy(win[0], ckpt + w * TURBO_STATES, sizeof win[0]);
        for (uint32_t i = 0; i < n; i++) {
            const uint32_t p = perm ? perm[s0 + i] : s0 + i;
            SIMD_NAME(branches)(V_ADD(sys[p], apr[p]), par[s0 + i], gw[i]);
            SIMD_NAME(forward)(win[i], gw[i], win[i + 1]);
        }
        for (uint32_t i = n; i-- > 0;) {
            const uint32_t j = s0 + i, p = perm ? perm[j] : j;
            ext[p] = SIMD_NAME(extrinsic)(win[i], beta, par[j], c, limit);
            SIMD_NAME(backward)(beta, gw[i], t);
            memcpy(beta, t, sizeof t);
        }
    }
}

/* beta_K of one constituent code from its tail (x, z per step, three steps back from state 0). */
SIMD_TARGET static void SIMD_NAME(tail_beta)(const V* tail, V* b)
{
    V t[TURBO_STATES], g[4];
    b[0] = V_ZERO;
    for (int s = 1; s < TURBO_STATES; s++)
        b[s] = V_SET1(IMPOSSIBLE);
    for (int k = 2; k >= 0; k--) {
        SIMD_NAME(branches)(tail[2 * k], tail[2 * k + 1], g);
        for (uint32_t s = 0; s < TURBO_STATES; s++) {
            const uint32_t u = turbo_tail_input(s);
            t[s] = V_ADD(b[turbo_next(s, u)], BRANCH(g, u, turbo_parity(s, u)));
        }
        SIMD_NAME(normalise)(t);
        memcpy(b, t, sizeof t);
    }
}

/* Decodes the group's frames (already loaded): iterations, hard decisions as lane masks in
 * gr->final, per-lane iterations and CRC / stability verdicts. */
SIMD_TARGET static void SIMD_NAME(decode_group)(turbo_simd_group* gr)
{
    const uint32_t K = gr->K;
    const V* sys = (const V*)gr->sys;
    V *l12 = (V*)gr->l12, *l21 = (V*)gr->l21;
    const int c = gr->scale_q15;
    const V limit = V_SET1(gr->ext_limit);
    V beta_K[2][TURBO_STATES];
    SIMD_NAME(tail_beta)((const V*)gr->tail, beta_K[0]);
    SIMD_NAME(tail_beta)((const V*)gr->tail + 6, beta_K[1]);
    memset(l12, 0, K * sizeof(V));
    memset(l21, 0, K * sizeof(V));
    uint64_t done = 0, ok = 0;
    int it = 0;
    while (it < gr->max_iterations) {
        SIMD_NAME(half)(gr, NULL, (const V*)gr->par[0], l21, l12, beta_K[0], c, limit);
        SIMD_NAME(half)(gr, gr->perm, (const V*)gr->par[1], l12, l21, beta_K[1], c, limit);
        uint64_t differs = 0;
        for (uint32_t i = 0; i < K; i++) {
            const uint64_t h = V_SIGNS(V_ADD(V_ADD(sys[i], l12[i]), l21[i]));
            differs |= h ^ gr->prev[i];
            gr->prev[i] = h;
        }
        if (gr->early || it + 1 == gr->max_iterations) /* otherwise only the last verdict counts */
            ok = gr->crc_poly ? ~turbo_simd_crc(gr->prev, K, gr->crc_poly) : it > 0 ? ~differs : 0;
        it++;
        const uint64_t now = gr->early ? ok & ~done & gr->lanes : 0;
        if (now) {
            for (uint32_t i = 0; i < K; i++)
                gr->final[i] = (gr->final[i] & ~now) | (gr->prev[i] & now);
            for (int f = 0; f < LANES; f++)
                if (now >> f & 1u)
                    gr->iterations[f] = it;
            done |= now;
        }
        if (gr->early && (done & gr->lanes) == gr->lanes)
            break;
    }
    for (uint32_t i = 0; i < K; i++)
        gr->final[i] = (gr->final[i] & done) | (gr->prev[i] & ~done);
    for (int f = 0; f < LANES; f++)
        if (!(done >> f & 1u))
            gr->iterations[f] = it;
    gr->ok = ok | done;
}

#undef BRANCH
#undef SIMD_NAME
#undef LANES
#undef V_ADD
#undef V_SUB
#undef V_MAX
#undef V_MIN
#undef V_SET1
#undef V_SCALE
#undef V_SIGNS
#undef NORM_BY_MAX
#undef IMPOSSIBLE
