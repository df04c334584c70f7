/* Vectorised CPU path at int8 precision: row-layered MS / NMS / OMS with 32 frames per AVX2
 * register of stored values.
 *
 * The int8 rules of ldpc_rules.h (posteriors and messages in whole quantisation steps; sums
 * and differences saturating at the byte range, ldpc_i8_sat; an outgoing magnitude rounded half
 * up after the normalisation or offset) are what the saturating byte instructions compute, so
 * every edge update is a handful of AVX2 instructions for 32 frames; only the two magnitudes per
 * row go through float, with the same operations as the scalar rule. The results are bit-exact
 * with the scalar int8 decoder (and with the GPU's int8 kernels, tested against it), iteration
 * counts included. */
#include "cpu_simd.h"
#include "ldpc_rules.h"

#include <stdlib.h>
#include <string.h>

#if defined(__GNUC__) && (defined(__x86_64__) || defined(__i386__))

#include <immintrin.h>

#define LANES8 32
#define SIMD_FN __attribute__((target("avx2")))

/* Stored values: one byte per frame, 32 frames per __m256i. Arithmetic: the low and high 16
 * frames in two __m256i of int16. */
struct cpu_simd_i8_state {
    __m256i* app; /* n */
    __m256i* c2v; /* edges */
    __m256i* v;   /* max_check_degree: a check's inputs */
    float* mother; /* n + 8: one frame's channel values */
    int8_t* q;     /* 32 n: the group's quantised channel values, frame by frame */
    uint32_t* signs; /* n: the sign bits of the posteriors (hard decisions) of the 32 lanes */
    uint32_t *deg, *var; /* cpu_simd_visit_order: index reads sequential, posteriors prefetched */
};

#define PREFETCH_AHEAD 16

cpu_simd_i8_state* cpu_simd_i8_create(const ldpc_code* c)
{
    if (c->max_check_degree > 254) /* edge positions are compared as bytes */
        return NULL;
    cpu_simd_i8_state* s = calloc(1, sizeof *s);
    if (!s)
        return NULL;
    s->app = aligned_alloc(32, ((size_t)c->n + 1) * sizeof(__m256i));
    s->c2v = aligned_alloc(32, ((size_t)c->edges + 1) * sizeof(__m256i));
    s->v = aligned_alloc(32, ((size_t)c->max_check_degree + 1) * sizeof(__m256i));
    s->mother = malloc(((size_t)c->n + 8) * sizeof(float));
    s->q = malloc((size_t)c->n * LANES8 + 32);
    s->signs = malloc(((size_t)c->n + 1) * sizeof(uint32_t));
    if (!cpu_simd_visit_order(c, PREFETCH_AHEAD, 1, &s->deg, &s->var) || !s->app || !s->c2v || !s->v || !s->mother ||
        !s->q || !s->signs) {
        cpu_simd_i8_destroy(s);
        return NULL;
    }
    return s;
}

void cpu_simd_i8_destroy(cpu_simd_i8_state* s)
{
    if (!s)
        return;
    free(s->app);
    free(s->c2v);
    free(s->v);
    free(s->mother);
    free(s->q);
    free(s->signs);
    free(s->deg);
    free(s->var);
    free(s);
}

/* ms_magnitude at int8 for 32 byte lanes holding 0..127. The rule's function is tabulated on
 * the host for the 128 possible minima, and the table is matched against forms that take a few
 * byte or 16-bit instructions: the identity (MS), a saturating subtraction (OMS with a whole
 * number of steps after rounding), (a m + b) >> 8 (NMS: 0.75 is (192 m + 128) >> 8). Every form
 * is used only if it reproduces all 128 entries, so the result is the rule's, bit for bit; a
 * table that matches none goes through the lookup, 16 entries per shuffle. */
enum { MAG_IDENTITY, MAG_SUBTRACT, MAG_AFFINE, MAG_TABLE };

typedef struct {
    int form;
    uint8_t sub;     /* MAG_SUBTRACT */
    uint16_t a, b;   /* MAG_AFFINE */
    uint8_t tab[128];
} mag_rule;

static void mag_rule_init(mag_rule* r, const gpufec_decoder_opts* o)
{
    const int mode = ldpc_ms_mode(o->algorithm);
    const float offset = decoder_offset_steps(o);
    for (int m = 0; m < 128; m++)
        r->tab[m] = (uint8_t)ms_magnitude((float)m, mode, o->normalization, offset, LDPC_PREC_I8);
    int ident = 1, sub_ok = 1;
    const int k = 127 - r->tab[127]; /* the subtraction the largest entry implies */
    for (int m = 0; m < 128; m++) {
        ident &= r->tab[m] == m;
        sub_ok &= k >= 0 && r->tab[m] == (m > k ? m - k : 0);
    }
    if (ident) {
        r->form = MAG_IDENTITY;
        return;
    }
    if (sub_ok) {
        r->form = MAG_SUBTRACT;
        r->sub = (uint8_t)k;
        return;
    }
    const int a0 = (r->tab[127] * 256 + 63) / 127; /* the slope the largest entry implies */
    for (int a = a0 > 3 ? a0 - 3 : 0; a <= a0 + 3 && a <= 256; a++)
        for (int bi = 0; bi < 256; bi++) { /* b = 128 (rounding half up) first */
            const int b = (bi + 128) & 255;
            int ok = 1;
            for (int m = 0; m < 128 && ok; m++)
                ok = r->tab[m] == ((a * m + b) >> 8);
            if (ok) {
                r->form = MAG_AFFINE;
                r->a = (uint16_t)a;
                r->b = (uint16_t)b;
                return;
            }
        }
    r->form = MAG_TABLE;
}

SIMD_FN static inline __m256i magnitude_bytes(__m256i m8, const mag_rule* r)
{
    switch (r->form) {
    case MAG_IDENTITY: return m8;
    case MAG_SUBTRACT: return _mm256_subs_epu8(m8, _mm256_set1_epi8((char)r->sub));
    case MAG_AFFINE: {
        const __m256i a = _mm256_set1_epi16((short)r->a), b = _mm256_set1_epi16((short)r->b);
        const __m256i lo = _mm256_unpacklo_epi8(m8, _mm256_setzero_si256());
        const __m256i hi = _mm256_unpackhi_epi8(m8, _mm256_setzero_si256());
        const __m256i ql = _mm256_srli_epi16(_mm256_add_epi16(_mm256_mullo_epi16(lo, a), b), 8);
        const __m256i qh = _mm256_srli_epi16(_mm256_add_epi16(_mm256_mullo_epi16(hi, a), b), 8);
        return _mm256_packus_epi16(ql, qh); /* unpack and pack stay within 128-bit halves */
    }
    default: {
        __m256i q = _mm256_setzero_si256();
        const __m256i low = _mm256_and_si256(m8, _mm256_set1_epi8(0x0f));
        const __m256i high = _mm256_and_si256(_mm256_srli_epi16(m8, 4), _mm256_set1_epi8(0x0f));
        for (int c = 0; c < 8; c++) {
            const __m256i t = _mm256_broadcastsi128_si256(_mm_loadu_si128((const __m128i*)(r->tab + 16 * c)));
            q = _mm256_blendv_epi8(q, _mm256_shuffle_epi8(t, low), _mm256_cmpeq_epi8(high, _mm256_set1_epi8((char)c)));
        }
        return q;
    }
    }
}

/* Lanes whose hard decisions satisfy every check, as a bit mask (the sign of a posterior is its
 * hard decision, so a row's parity is the sign of the XOR of its posteriors). */
SIMD_FN static uint32_t lanes_converged(const ldpc_code* c, const __m256i* app)
{
    __m256i bad = _mm256_setzero_si256();
    for (uint32_t i = 0; i < c->m; i++) {
        __m256i parity = _mm256_setzero_si256();
        for (uint32_t e = c->row_ptr[i]; e < c->row_ptr[i + 1]; e++)
            parity = _mm256_xor_si256(parity, _mm256_load_si256(app + c->edge_var[e]));
        bad = _mm256_or_si256(bad, parity);
    }
    return ~(uint32_t)_mm256_movemask_epi8(bad);
}

/* Per row, as the scalar rule (ldpc_extrinsic, ms_push, ms_output_prec, ldpc_store): the
 * minimum and second minimum of min(|v|, 127) (min2 = min(max(min1, m), min2) keeps the
 * scalar's values), the position of the first minimum, the sign parity; then each edge's
 * message and posterior. All in saturating byte arithmetic, 32 frames per instruction. */
SIMD_FN static void layered_pass(const ldpc_code* c, const mag_rule* mag, cpu_simd_i8_state* s,
                                 __m256i active, int all_active)
{
    const __m256i max127 = _mm256_set1_epi8(127), zero = _mm256_setzero_si256(), one = _mm256_set1_epi8(1);
    /* The messages are kept in the order the rows are visited (layer order), not by edge
     * number: a pass then streams through them instead of jumping between rows (DVB-S2's layer
     * order visits rows 360 apart; by edge number that cost a cache miss per row). */
    __m256i* c2v = s->c2v;
    const uint32_t* var = s->var;
    for (uint32_t r = 0, d = 0; r < c->m; r++, c2v += d, var += d) {
        d = s->deg[r];
        __m256i min1 = max127, min2 = max127, arg1 = _mm256_set1_epi8(-1), parity = zero;
        __m256i tv = zero; /* the edge index t in every lane */
        for (uint32_t t = 0; t < d; t++, tv = _mm256_add_epi8(tv, one)) {
            _mm_prefetch((const char*)(s->app + var[t + PREFETCH_AHEAD]), _MM_HINT_T0);
            const __m256i v = _mm256_subs_epi8(_mm256_load_si256(s->app + var[t]), _mm256_load_si256(c2v + t));
            _mm256_store_si256(s->v + t, v);
            const __m256i m = _mm256_min_epu8(_mm256_abs_epi8(v), max127); /* |-128| is 0x80 */
            parity = _mm256_xor_si256(parity, v);
            arg1 = _mm256_blendv_epi8(arg1, tv, _mm256_cmpgt_epi8(min1, m));
            min2 = _mm256_min_epi8(_mm256_max_epi8(min1, m), min2);
            min1 = _mm256_min_epi8(min1, m);
        }
        const __m256i m1 = magnitude_bytes(min1, mag), m2 = magnitude_bytes(min2, mag);
        tv = zero;
        for (uint32_t t = 0; t < d; t++, tv = _mm256_add_epi8(tv, one)) {
            const __m256i v = _mm256_load_si256(s->v + t);
            const __m256i m = _mm256_blendv_epi8(m1, m2, _mm256_cmpeq_epi8(arg1, tv));
            const __m256i neg = _mm256_cmpgt_epi8(zero, _mm256_xor_si256(parity, v));
            const __m256i out = _mm256_sub_epi8(_mm256_xor_si256(m, neg), neg);
            const __m256i post = _mm256_adds_epi8(v, out);
            __m256i* ap = s->app + var[t];
            if (all_active) { /* the common case: no frame of the group has stopped */
                _mm256_store_si256(c2v + t, out);
                _mm256_store_si256(ap, post);
            } else {
                _mm256_store_si256(c2v + t, _mm256_blendv_epi8(_mm256_load_si256(c2v + t), out, active));
                _mm256_store_si256(ap, _mm256_blendv_epi8(_mm256_load_si256(ap), post, active));
            }
        }
    }
}

/* The byte mask of the lanes in `bits`. */
SIMD_FN static __m256i lane_mask(uint32_t bits)
{
    int8_t m[LANES8] __attribute__((aligned(32)));
    for (int f = 0; f < LANES8; f++)
        m[f] = (int8_t)((bits >> f) & 1u ? -1 : 0);
    return _mm256_load_si256((const __m256i*)m);
}

SIMD_FN static void decode_group(const ldpc_code* c, const tx_map* map, const gpufec_decoder_opts* o, const mag_rule* mag,
                                 cpu_simd_i8_state* s, const float* llr, size_t nf, uint8_t* hard,
                                 int32_t* iterations, uint8_t* converged)
{
    const uint32_t n_tx = map->n_tx;
    int8_t* app = (int8_t*)s->app;
    memset(app, 0, (size_t)c->n * LANES8);
    /* ldpc_channel at int8, 8 values at a time: rintf (round to nearest even, the default
     * mode), then clamped at +-127; the values are sanitised, never NaN. */
    const __m256 inv_step = _mm256_set1_ps(decoder_inv_step(o)), hi = _mm256_set1_ps(LDPC_I8_MAX),
                 lo = _mm256_set1_ps(-LDPC_I8_MAX);
    const uint32_t n = c->n;
    for (size_t f = 0; f < nf; f++) { /* each frame quantised into its own row of q */
        tx_map_expand(map, llr + f * n_tx, s->mother);
        int8_t* row = s->q + f * n;
        for (uint32_t j = 0; j < n; j += 8) {
            const __m256 x = _mm256_round_ps(_mm256_mul_ps(_mm256_loadu_ps(s->mother + j), inv_step),
                                             _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC);
            int32_t q[8];
            _mm256_storeu_si256((__m256i*)q, _mm256_cvtps_epi32(_mm256_min_ps(_mm256_max_ps(x, lo), hi)));
            for (uint32_t k = 0; k < 8 && j + k < n; k++)
                row[j + k] = (int8_t)q[k];
        }
    }
    /* Rows to lanes, 64 positions at a time: the scattered byte stores stay within 2 KB (the
     * frame-by-frame order scattered them over the whole 32 n bytes, once per frame). */
    for (uint32_t j0 = 0; j0 < n; j0 += 64) {
        const uint32_t j1 = j0 + 64 < n ? j0 + 64 : n;
        for (size_t f = 0; f < nf; f++) {
            const int8_t* row = s->q + f * n;
            for (uint32_t j = j0; j < j1; j++)
                app[(size_t)j * LANES8 + f] = row[j];
        }
    }
    memset(s->c2v, 0, (size_t)c->edges * sizeof(__m256i));
    uint32_t active = nf == LANES8 ? 0xffffffffu : (1u << nf) - 1u, done_ok = 0;
    int32_t iters[LANES8] = {0};
    for (int it = 0; it < o->max_iterations; it++) {
        layered_pass(c, mag, s, lane_mask(active), active == 0xffffffffu);
        for (size_t f = 0; f < nf; f++)
            iters[f] += (int32_t)((active >> f) & 1u);
        if (o->early_termination && (it + 1) % o->syndrome_interval == 0) {
            const uint32_t ok = lanes_converged(c, s->app) & active;
            done_ok |= ok;
            active &= ~ok;
            if (!active)
                break;
        }
    }
    done_ok |= lanes_converged(c, s->app) & active;
    for (uint32_t j = 0; j < n; j++) /* a posterior's sign is its hard decision */
        s->signs[j] = (uint32_t)_mm256_movemask_epi8(_mm256_load_si256(s->app + j));
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

void cpu_simd_i8_decode(const ldpc_code* c, const tx_map* map, const gpufec_decoder_opts* o, cpu_simd_i8_state* s,
                        const float* llr, size_t n_frames, uint8_t* hard, int32_t* iterations, uint8_t* converged)
{
    mag_rule mag;
    mag_rule_init(&mag, o);
    for (size_t f = 0; f < n_frames; f += LANES8) {
        const size_t nf = n_frames - f < LANES8 ? n_frames - f : LANES8;
        decode_group(c, map, o, &mag, s, llr + f * map->n_tx, nf, hard + f * c->n, iterations ? iterations + f : NULL,
                     converged ? converged + f : NULL);
    }
}

#else /* no x86 SIMD: the scalar decoder is used */

cpu_simd_i8_state* cpu_simd_i8_create(const ldpc_code* c)
{
    (void)c;
    return NULL;
}
void cpu_simd_i8_destroy(cpu_simd_i8_state* s) { (void)s; }
void cpu_simd_i8_decode(const ldpc_code* c, const tx_map* map, const gpufec_decoder_opts* o, cpu_simd_i8_state* s,
                        const float* llr, size_t n_frames, uint8_t* hard, int32_t* iterations, uint8_t* converged)
{
    (void)c, (void)map, (void)o, (void)s, (void)llr, (void)n_frames, (void)hard, (void)iterations, (void)converged;
}

#endif
