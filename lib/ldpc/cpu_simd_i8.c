/* Vectorised CPU path at int8 precision: row-layered MS / NMS / OMS with one frame per byte
 * lane, 64 frames per AVX-512BW register or 32 per AVX2 register (the widest the CPU has, or
 * AVX2 when cpu_simd = 2 asks for it). The decoder is written once (cpu_simd_i8_body.h) and
 * instantiated per instruction set.
 *
 * The int8 rules of ldpc_rules.h (posteriors and messages in whole quantisation steps; the
 * posterior update saturating at the byte range once, ldpc_i8_sat; an outgoing magnitude rounded
 * half up after the normalisation or offset) are what the saturating byte instructions compute, so
 * every edge update is a handful of byte instructions for 32 or 64 frames; only the two magnitudes per
 * row go through float, with the same operations as the scalar rule. The results are bit-exact
 * with the scalar int8 decoder (and with the GPU's int8 kernels, tested against it), iteration
 * counts included. */
#include "cpu_simd.h"
#include "ldpc_rules.h"

#include <stdlib.h>
#include <string.h>

#if defined(__GNUC__) && (defined(__x86_64__) || defined(__i386__))

#include <immintrin.h>

#define SIMD_FN __attribute__((target("avx2")))

struct mag_rule;
typedef void (*i8_group_fn)(const ldpc_code* c, const tx_map* map, const gpufec_decoder_opts* o,
                            const struct mag_rule* mag, cpu_simd_i8_state* s, const float* llr, size_t nf,
                            uint8_t* hard, int32_t* iterations, uint8_t* converged);

/* Stored values: one byte per frame, `lanes` frames per vector (64-byte aligned). */
struct cpu_simd_i8_state {
    int lanes;
    i8_group_fn decode_group;
    void* app;   /* n vectors */
    void* c2v;   /* edges vectors */
    float* mother; /* n + 8: one frame's channel values */
    int8_t* q;     /* lanes n: the group's quantised channel values, frame by frame */
    uint64_t* signs; /* n: the sign bits of the posteriors (hard decisions) of the lanes */
    uint32_t *deg, *var; /* cpu_simd_visit_order: index reads sequential, posteriors prefetched */
};

#define PREFETCH_AHEAD 16

/* ms_magnitude at int8 for byte lanes holding 0..127. The rule's function is tabulated on
 * the host for the 128 possible minima, and the table is matched against forms that take a few
 * byte or 16-bit instructions: the identity (MS), a saturating subtraction (OMS with a whole
 * number of steps after rounding), (a m + b) >> 8 (NMS: 0.75 is (192 m + 128) >> 8). Every form
 * is used only if it reproduces all 128 entries, so the result is the rule's, bit for bit; a
 * table that matches none goes through the lookup, 16 entries per shuffle. */
enum { MAG_IDENTITY, MAG_SUBTRACT, MAG_AFFINE, MAG_TABLE };

typedef struct mag_rule {
    int form;
    uint8_t sub;     /* MAG_SUBTRACT */
    uint16_t a, b;   /* MAG_AFFINE */
    uint8_t tab[128];
} mag_rule;

static void mag_rule_init(mag_rule* r, const gpufec_decoder_opts* o)
{
    const ldpc_opts lo = ldpc_opts_of(o);
    const int mode = ldpc_rule_mode(&lo);
    const float offset = ldpc_rule_offset(&lo);
    for (int m = 0; m < 128; m++)
        r->tab[m] = (uint8_t)ms_magnitude((float)m, mode, lo.normalization, offset, LDPC_PREC_I8);
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

/* ldpc_channel at int8 for each frame of the group into its own row of s->q, 8 values at a
 * time: rintf (round to nearest even, the default mode), then clamped at +-LDPC_I8_CHANNEL_MAX,
 * and +-127 where the value is at the sanitiser's limit (a known bit); the values are sanitised,
 * never NaN. */
SIMD_FN static void quantise_frames(const tx_map* map, const gpufec_decoder_opts* o, cpu_simd_i8_state* s,
                                    const float* llr, size_t nf, uint32_t n)
{
    const ldpc_opts l = ldpc_opts_of(o);
    const __m256 inv_step = _mm256_set1_ps(decoder_inv_step(&l)), hi = _mm256_set1_ps(LDPC_I8_CHANNEL_MAX),
                 lo = _mm256_set1_ps(-LDPC_I8_CHANNEL_MAX), limit = _mm256_set1_ps(GPUFEC_LLR_LIMIT),
                 known = _mm256_set1_ps(LDPC_I8_MAX), sign = _mm256_set1_ps(-0.0f);
    for (size_t f = 0; f < nf; f++) {
        tx_map_expand(map, llr + f * map->n_tx, s->mother);
        int8_t* row = s->q + f * n;
        for (uint32_t j = 0; j < n; j += 8) {
            const __m256 m = _mm256_loadu_ps(s->mother + j),
                         x = _mm256_round_ps(_mm256_mul_ps(m, inv_step), _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC),
                         at_limit = _mm256_cmp_ps(_mm256_andnot_ps(sign, m), limit, _CMP_GE_OQ),
                         v = _mm256_blendv_ps(_mm256_min_ps(_mm256_max_ps(x, lo), hi),
                                              _mm256_or_ps(known, _mm256_and_ps(m, sign)), at_limit);
            int32_t q[8];
            _mm256_storeu_si256((__m256i*)q, _mm256_cvtps_epi32(v));
            for (uint32_t k = 0; k < 8 && j + k < n; k++)
                row[j + k] = (int8_t)q[k];
        }
    }
}

/* ---- AVX-512BW: 64 frames per register ---- */
#define SIMD_TARGET __attribute__((target("avx512f,avx512bw")))
#define SIMD_NAME(x) x##_avx512

#define VB __m512i
#define LANES 64
#define LMASK __mmask64
#define VB_LOAD(p) _mm512_load_si512(p)
#define VB_STORE(p, v) _mm512_store_si512(p, v)
#define VB_ZERO _mm512_setzero_si512()
#define VB_SET1(x) _mm512_set1_epi8((char)(x))
#define VB_XOR _mm512_xor_si512
#define VB_OR _mm512_or_si512
#define VB_ADD _mm512_add_epi8
#define VB_SUB _mm512_sub_epi8
#define VB_SUBS _mm512_subs_epi8
#define VB_ADDS _mm512_adds_epi8
#define VB_ABS _mm512_abs_epi8
#define VB_MINU _mm512_min_epu8
#define VB_MIN _mm512_min_epi8
#define VB_MAX _mm512_max_epi8
#define VB_SEL_GT(a, b, x, y) _mm512_mask_blend_epi8(_mm512_cmpgt_epi8_mask(a, b), x, y)
#define VB_SEL_EQ(a, b, x, y) _mm512_mask_blend_epi8(_mm512_cmpeq_epi8_mask(a, b), x, y)
#define VB_NEG_WHERE(m, s) _mm512_mask_sub_epi8(m, _mm512_movepi8_mask(s), _mm512_setzero_si512(), m)
#define VB_SEL_MASK(k, x, y) _mm512_mask_blend_epi8(k, x, y)
#define VB_SIGNS(v) ((uint64_t)_mm512_movepi8_mask(v))
#define LMASK_OF(bits) ((__mmask64)(bits))
#define VB_AND _mm512_and_si512
#define VB_SUBSU _mm512_subs_epu8
#define VB_SET1_16(x) _mm512_set1_epi16((short)(x))
#define VB_UNPACKLO8 _mm512_unpacklo_epi8
#define VB_UNPACKHI8 _mm512_unpackhi_epi8
#define VB_MULLO16 _mm512_mullo_epi16
#define VB_ADD16 _mm512_add_epi16
#define VB_SRLI16 _mm512_srli_epi16
#define VB_PACKUS16 _mm512_packus_epi16
#define VB_SHUFFLE8 _mm512_shuffle_epi8
#define VB_BCAST16B(p) _mm512_broadcast_i32x4(_mm_loadu_si128((const __m128i*)(p)))
#include "cpu_simd_i8_body.h" /* it undefines the macros above */

/* ---- AVX2: 32 frames per register ---- */
#define SIMD_TARGET SIMD_FN
#define SIMD_NAME(x) x##_avx2

/* The byte mask of the lanes in `bits`. */
SIMD_FN static __m256i lane_mask_avx2(uint64_t bits)
{
    int8_t m[32] __attribute__((aligned(32)));
    for (int f = 0; f < 32; f++)
        m[f] = (int8_t)((bits >> f) & 1u ? -1 : 0);
    return _mm256_load_si256((const __m256i*)m);
}

SIMD_FN static inline __m256i neg_where_avx2(__m256i m, __m256i s)
{
    const __m256i neg = _mm256_cmpgt_epi8(_mm256_setzero_si256(), s);
    return _mm256_sub_epi8(_mm256_xor_si256(m, neg), neg);
}

#define VB __m256i
#define LANES 32
#define LMASK __m256i
#define VB_LOAD(p) _mm256_load_si256(p)
#define VB_STORE(p, v) _mm256_store_si256(p, v)
#define VB_ZERO _mm256_setzero_si256()
#define VB_SET1(x) _mm256_set1_epi8((char)(x))
#define VB_XOR _mm256_xor_si256
#define VB_OR _mm256_or_si256
#define VB_ADD _mm256_add_epi8
#define VB_SUB _mm256_sub_epi8
#define VB_SUBS _mm256_subs_epi8
#define VB_ADDS _mm256_adds_epi8
#define VB_ABS _mm256_abs_epi8
#define VB_MINU _mm256_min_epu8
#define VB_MIN _mm256_min_epi8
#define VB_MAX _mm256_max_epi8
#define VB_SEL_GT(a, b, x, y) _mm256_blendv_epi8(x, y, _mm256_cmpgt_epi8(a, b))
#define VB_SEL_EQ(a, b, x, y) _mm256_blendv_epi8(x, y, _mm256_cmpeq_epi8(a, b))
#define VB_NEG_WHERE(m, s) neg_where_avx2(m, s)
#define VB_SEL_MASK(k, x, y) _mm256_blendv_epi8(x, y, k)
#define VB_SIGNS(v) ((uint64_t)(uint32_t)_mm256_movemask_epi8(v))
#define LMASK_OF(bits) lane_mask_avx2(bits)
#define VB_AND _mm256_and_si256
#define VB_SUBSU _mm256_subs_epu8
#define VB_SET1_16(x) _mm256_set1_epi16((short)(x))
#define VB_UNPACKLO8 _mm256_unpacklo_epi8
#define VB_UNPACKHI8 _mm256_unpackhi_epi8
#define VB_MULLO16 _mm256_mullo_epi16
#define VB_ADD16 _mm256_add_epi16
#define VB_SRLI16 _mm256_srli_epi16
#define VB_PACKUS16 _mm256_packus_epi16
#define VB_SHUFFLE8 _mm256_shuffle_epi8
#define VB_BCAST16B(p) _mm256_broadcastsi128_si256(_mm_loadu_si128((const __m128i*)(p)))
#include "cpu_simd_i8_body.h" /* it undefines the macros above */

/* 64-byte aligned memory for vectors of either width; aligned_alloc wants the size to be a
 * multiple of the alignment. */
static void* vectors_alloc(size_t bytes) { return aligned_alloc(64, (bytes + 63) & ~(size_t)63); }

/* 1 when this CPU has AVX-512BW. */
static int wide_available(void)
{
    return __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw");
}

cpu_simd_i8_state* cpu_simd_i8_create(const ldpc_code* c, int wide)
{
    if (c->max_check_degree > 254) /* edge positions are compared as bytes */
        return NULL;
    cpu_simd_i8_state* s = calloc(1, sizeof *s);
    if (!s)
        return NULL;
    wide = wide && wide_available();
    s->lanes = wide ? 64 : 32;
    s->decode_group = wide ? decode_group_avx512 : decode_group_avx2;
    const size_t lanes = (size_t)s->lanes;
    s->app = vectors_alloc(((size_t)c->n + 1) * lanes);
    s->c2v = vectors_alloc(((size_t)c->edges + 1) * lanes);
    s->mother = malloc(((size_t)c->n + 8) * sizeof(float));
    s->q = malloc((size_t)c->n * lanes + 32);
    s->signs = malloc(((size_t)c->n + 1) * sizeof(uint64_t));
    if (!cpu_simd_visit_order(c, PREFETCH_AHEAD, 1, &s->deg, &s->var) || !s->app || !s->c2v || !s->mother ||
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
    free(s->mother);
    free(s->q);
    free(s->signs);
    free(s->deg);
    free(s->var);
    free(s);
}

int cpu_simd_i8_lanes(const cpu_simd_i8_state* s) { return s->lanes; }

void cpu_simd_i8_decode(const ldpc_code* c, const tx_map* map, const gpufec_decoder_opts* o, cpu_simd_i8_state* s,
                        const float* llr, size_t n_frames, uint8_t* hard, int32_t* iterations, uint8_t* converged)
{
    mag_rule mag;
    mag_rule_init(&mag, o);
    const size_t lanes = (size_t)s->lanes;
    for (size_t f = 0; f < n_frames; f += lanes) {
        const size_t nf = n_frames - f < lanes ? n_frames - f : lanes;
        s->decode_group(c, map, o, &mag, s, llr + f * map->n_tx, nf, hard + f * c->n,
                        iterations ? iterations + f : NULL, converged ? converged + f : NULL);
    }
}

#else /* no x86 SIMD: the scalar decoder is used */

cpu_simd_i8_state* cpu_simd_i8_create(const ldpc_code* c, int wide)
{
    (void)c, (void)wide;
    return NULL;
}
void cpu_simd_i8_destroy(cpu_simd_i8_state* s) { (void)s; }
int cpu_simd_i8_lanes(const cpu_simd_i8_state* s)
{
    (void)s;
    return 0;
}
void cpu_simd_i8_decode(const ldpc_code* c, const tx_map* map, const gpufec_decoder_opts* o, cpu_simd_i8_state* s,
                        const float* llr, size_t n_frames, uint8_t* hard, int32_t* iterations, uint8_t* converged)
{
    (void)c, (void)map, (void)o, (void)s, (void)llr, (void)n_frames, (void)hard, (void)iterations, (void)converged;
}

#endif
