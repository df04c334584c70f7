/* The int8 layered min-sum decoder of cpu_simd_i8.c for one instruction set, written once and
 * included once per ISA (AVX2: 32 frames per register, AVX-512BW: 64). The includer defines:
 *   SIMD_NAME(x), SIMD_TARGET   this instance's function names and target attribute
 *   VB, LANES                   the byte vector type and its lanes (one frame per byte)
 *   LMASK                       a lane mask (AVX2: a byte vector of 0 / -1; AVX-512: __mmask64)
 *   VB_LOAD(p), VB_STORE(p, v), VB_ZERO, VB_SET1(x), VB_XOR, VB_OR, VB_ADD, VB_SUB (wrapping), VB_SUBS,
 *   VB_ADDS (saturating), VB_ABS, VB_MINU (unsigned), VB_MIN, VB_MAX (signed)
 *   VB_SEL_GT(a, b, x, y)       per lane a > b ? y : x (signed)
 *   VB_SEL_EQ(a, b, x, y)       per lane a == b ? y : x
 *   VB_NEG_WHERE(m, s)          m negated where s < 0 (two's complement, wrapping)
 *   VB_SEL_MASK(k, x, y)        per lane k ? y : x
 *   VB_SIGNS(v)                 uint64_t with bit f set where lane f is negative
 *   LMASK_OF(bits)              the lane mask of the lanes set in bits
 *   VB_AND, VB_SUBSU (unsigned saturating), VB_SHUFFLE8 (bytes within 128-bit blocks),
 *   VB_SET1_16(x), VB_UNPACKLO8 / VB_UNPACKHI8 (bytes to 16 bits within 128-bit blocks),
 *   VB_MULLO16, VB_ADD16, VB_SRLI16, VB_PACKUS16 (16 bits to bytes, unsigned saturating),
 *   VB_BCAST16B(p)              16 bytes at p in every 128-bit block
 * Every instance computes ldpc_rules.h's int8 rules, so all are bit-exact with the scalar
 * decoder and with each other. The body undefines these macros at its end, so the next
 * instance can define them afresh. */

#define ALL_LANES (LANES == 64 ? ~0ull : (1ull << LANES) - 1ull)

/* ms_magnitude at int8 for byte lanes holding 0..127, in the form mag_rule_init found. */
SIMD_TARGET static inline VB SIMD_NAME(magnitude)(VB m8, const mag_rule* r)
{
    switch (r->form) {
    case MAG_IDENTITY: return m8;
    case MAG_SUBTRACT: return VB_SUBSU(m8, VB_SET1(r->sub));
    case MAG_AFFINE: {
        const VB a = VB_SET1_16(r->a), b = VB_SET1_16(r->b);
        const VB ql = VB_SRLI16(VB_ADD16(VB_MULLO16(VB_UNPACKLO8(m8, VB_ZERO), a), b), 8);
        const VB qh = VB_SRLI16(VB_ADD16(VB_MULLO16(VB_UNPACKHI8(m8, VB_ZERO), a), b), 8);
        return VB_PACKUS16(ql, qh); /* unpack and pack stay within 128-bit blocks */
    }
    default: { /* the table, 16 entries per shuffle */
        VB q = VB_ZERO;
        const VB low = VB_AND(m8, VB_SET1(0x0f)), high = VB_AND(VB_SRLI16(m8, 4), VB_SET1(0x0f));
        for (int c = 0; c < 8; c++)
            q = VB_SEL_EQ(high, VB_SET1(c), q, VB_SHUFFLE8(VB_BCAST16B(r->tab + 16 * c), low));
        return q;
    }
    }
}

/* Lanes whose hard decisions satisfy every check, as a bit mask (the sign of a posterior is its
 * hard decision, so a row's parity is the sign of the XOR of its posteriors). */
SIMD_TARGET static uint64_t SIMD_NAME(lanes_converged)(const ldpc_code* c, const VB* app)
{
    VB bad = VB_ZERO;
    for (uint32_t i = 0; i < c->m; i++) {
        VB parity = VB_ZERO;
        for (uint32_t e = c->row_ptr[i]; e < c->row_ptr[i + 1]; e++)
            parity = VB_XOR(parity, VB_LOAD(app + c->edge_var[e]));
        bad = VB_OR(bad, parity);
    }
    return ~VB_SIGNS(bad);
}

/* Per row, as the scalar rule (ldpc_extrinsic, ms_push, ms_output_prec, ldpc_store): the
 * minimum and second minimum of min(|v|, 127), starting at LDPC_I8_MIN_MAX (min2 =
 * min(max(min1, m), min2) keeps the scalar's values), the position of the first minimum, the sign
 * parity; then each edge's message and posterior. All in saturating byte arithmetic, LANES
 * frames per instruction: v = app - old saturates, which changes neither its sign nor
 * min(|v|, 63), and the posterior is app + (new - old), the change exact in a byte (ldpc_i8_sat). */
SIMD_TARGET static void SIMD_NAME(layered_pass)(const ldpc_code* c, const mag_rule* mag, cpu_simd_i8_state* s,
                                                LMASK active, int all_active)
{
    const VB max127 = VB_SET1(127), start = VB_SET1((int)LDPC_I8_MIN_MAX), zero = VB_ZERO, one = VB_SET1(1);
    VB* const app = (VB*)s->app;
    /* The messages are kept in the order the rows are visited (layer order), not by edge
     * number: a pass then streams through them instead of jumping between rows (DVB-S2's layer
     * order visits rows 360 apart; by edge number that cost a cache miss per row). */
    VB* c2v = (VB*)s->c2v;
    const uint32_t* var = s->var;
    for (uint32_t r = 0, d = 0; r < c->m; r++, c2v += d, var += d) {
        d = s->deg[r];
        VB min1 = start, min2 = start, arg1 = VB_SET1(-1), parity = zero;
        VB tv = zero; /* the edge index t in every lane */
        for (uint32_t t = 0; t < d; t++, tv = VB_ADD(tv, one)) {
            _mm_prefetch((const char*)(app + var[t + PREFETCH_AHEAD]), _MM_HINT_T0);
            const VB v = VB_SUBS(VB_LOAD(app + var[t]), VB_LOAD(c2v + t));
            const VB m = VB_MINU(VB_ABS(v), max127); /* |-128| is 0x80 */
            parity = VB_XOR(parity, v);
            arg1 = VB_SEL_GT(min1, m, arg1, tv);
            min2 = VB_MIN(VB_MAX(min1, m), min2);
            min1 = VB_MIN(min1, m);
        }
        const VB m1 = SIMD_NAME(magnitude)(min1, mag), m2 = SIMD_NAME(magnitude)(min2, mag);
        tv = zero;
        for (uint32_t t = 0; t < d; t++, tv = VB_ADD(tv, one)) {
            VB* ap = app + var[t];
            const VB a = VB_LOAD(ap), old = VB_LOAD(c2v + t);
            const VB out = VB_NEG_WHERE(VB_SEL_EQ(arg1, tv, m1, m2), VB_XOR(parity, VB_SUBS(a, old)));
            const VB post = VB_ADDS(a, VB_SUB(out, old)); /* out - old within +-126 */
            if (all_active) { /* the common case: no frame of the group has stopped */
                VB_STORE(c2v + t, out);
                VB_STORE(ap, post);
            } else {
                VB_STORE(c2v + t, VB_SEL_MASK(active, old, out));
                VB_STORE(ap, VB_SEL_MASK(active, a, post));
            }
        }
    }
}

/* One group of up to LANES frames: quantise, decode, hard decisions. */
SIMD_TARGET static void SIMD_NAME(decode_group)(const ldpc_code* c, const tx_map* map, const gpufec_decoder_opts* o,
                                                const mag_rule* mag, cpu_simd_i8_state* s, const float* llr, size_t nf,
                                                uint8_t* hard, int32_t* iterations, uint8_t* converged)
{
    const ldpc_opts lo = ldpc_opts_of(o);
    const uint32_t n = c->n;
    VB* const app = (VB*)s->app;
    quantise_frames(map, o, s, llr, nf, n);
    /* Rows to lanes, 64 positions at a time: the scattered byte stores stay within a few KB
     * (the frame-by-frame order scattered them over the whole LANES n bytes, once per frame). */
    int8_t* a8 = (int8_t*)s->app;
    memset(a8, 0, (size_t)n * LANES);
    for (uint32_t j0 = 0; j0 < n; j0 += 64) {
        const uint32_t j1 = j0 + 64 < n ? j0 + 64 : n;
        for (size_t f = 0; f < nf; f++) {
            const int8_t* row = s->q + f * n;
            for (uint32_t j = j0; j < j1; j++)
                a8[(size_t)j * LANES + f] = row[j];
        }
    }
    memset(s->c2v, 0, (size_t)c->edges * sizeof(VB));
    uint64_t active = nf == LANES ? ALL_LANES : (1ull << nf) - 1ull, done_ok = 0;
    int32_t iters[LANES] = {0};
    for (int it = 0; it < o->max_iterations; it++) {
        SIMD_NAME(layered_pass)(c, mag, s, LMASK_OF(active), active == ALL_LANES);
        for (size_t f = 0; f < nf; f++)
            iters[f] += (int32_t)((active >> f) & 1u);
        if (o->early_termination && (it + 1) % lo.syndrome_interval == 0) {
            const uint64_t ok = SIMD_NAME(lanes_converged)(c, app) & active;
            done_ok |= ok;
            active &= ~ok;
            if (!active)
                break;
        }
    }
    done_ok |= SIMD_NAME(lanes_converged)(c, app) & active;
    for (uint32_t j = 0; j < n; j++) /* a posterior's sign is its hard decision */
        s->signs[j] = VB_SIGNS(VB_LOAD(app + j));
    for (size_t f = 0; f < nf; f++) /* frame by frame: the stores run along each frame */
        for (uint32_t j = 0; j < n; j++)
            hard[f * n + j] = (uint8_t)((s->signs[j] >> f) & 1u);
    for (size_t f = 0; f < nf; f++) {
        if (iterations)
            iterations[f] = iters[f];
        if (converged)
            converged[f] = (uint8_t)((done_ok >> f) & 1u);
    }
}

#undef ALL_LANES
#undef SIMD_TARGET
#undef SIMD_NAME
#undef VB
#undef LANES
#undef LMASK
#undef VB_LOAD
#undef VB_STORE
#undef VB_ZERO
#undef VB_SET1
#undef VB_XOR
#undef VB_OR
#undef VB_ADD
#undef VB_SUB
#undef VB_SUBS
#undef VB_ADDS
#undef VB_ABS
#undef VB_MINU
#undef VB_MIN
#undef VB_MAX
#undef VB_SEL_GT
#undef VB_SEL_EQ
#undef VB_NEG_WHERE
#undef VB_SEL_MASK
#undef VB_SIGNS
#undef LMASK_OF
#undef VB_AND
#undef VB_SUBSU
#undef VB_SET1_16
#undef VB_UNPACKLO8
#undef VB_UNPACKHI8
#undef VB_MULLO16
#undef VB_ADD16
#undef VB_SRLI16
#undef VB_PACKUS16
#undef VB_SHUFFLE8
#undef VB_BCAST16B
