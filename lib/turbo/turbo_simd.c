/* The CPU's fast LTE turbo decoder: fixed-point Max-Log-MAP (P = 1) with one frame per vector
 * lane, so 16 to 64 frames run through the same trellis step in one instruction stream
 * (inter-frame SIMD: every frame of a code shares the interleaver, so the lanes never diverge).
 * Saturating 16- or 8-bit metrics; AVX-512BW where present, else AVX2. Chosen by
 * arithmetic=int16|int8; the float decoder (turbo_cpu.c) stays the reference.
 *
 * The recursions are turbo_rules.h's with fixed-point values, so this path is tested against
 * the float reference by error rate (tests/c/test_turbo_simd.c), not bit for bit. */
#include "decoder_internal.h"
#include "soft_value.h"
#include "turbo_code.h"
#include "turbo_options.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_LANES 64

typedef struct {
    uint32_t K;
    const uint32_t* perm;
    void *sys, *par[2], *l12, *l21, *ckpt, *tail; /* vectors: K, K, K, K, K, checkpoints, 12 */
    uint64_t *prev, *final;                        /* K lane masks of hard decisions */
    int32_t iterations[MAX_LANES];
    uint64_t ok, lanes;
    int max_iterations, early;
    uint32_t crc_poly;
    int scale_q15, ext_limit;
} turbo_simd_group;

/* CRC24 of every lane at once, bit-sliced: r[j] holds register bit j of all lanes; the register
 * is a ring (bit 0 at r[head]) so a shift moves the head instead of 24 words. Returns the lanes
 * whose remainder is not zero. */
static uint64_t turbo_simd_crc(const uint64_t* bits, uint32_t n, uint32_t poly)
{
    uint64_t r[24] = {0};
    int taps[24], nt = 0;
    for (int j = 1; j < 24; j++)
        if (poly >> j & 1u)
            taps[nt++] = j;
    int head = 0;
    for (uint32_t i = 0; i < n; i++) {
        const uint64_t top = r[(head + 23) % 24] ^ bits[i];
        head = (head + 23) % 24;
        r[head] = (poly & 1u) ? top : 0; /* the bit shifted in is 0, then the tap at 0 */
        for (int t = 0; t < nt; t++) {
            const int j = head + taps[t];
            r[j < 24 ? j : j - 24] ^= top;
        }
    }
    uint64_t nonzero = 0;
    for (int j = 0; j < 24; j++)
        nonzero |= r[j];
    return nonzero;
}

#if defined(__GNUC__) && defined(__x86_64__)
#include <immintrin.h>
#define TURBO_SIMD_X86 1

/* ---- AVX-512BW, 32 x int16 ---- */
#define SIMD_TARGET __attribute__((target("avx512f,avx512bw")))
#define SIMD_NAME(x) x##_avx512_i16
#define V __m512i
#define LANES 32
#define V_ADD _mm512_adds_epi16
#define V_SUB _mm512_subs_epi16
#define V_MAX _mm512_max_epi16
#define V_MIN _mm512_min_epi16
#define V_SET1(x) _mm512_set1_epi16((short)(x))
#define V_ZERO _mm512_setzero_si512()
#define V_SCALE(d, c) _mm512_mulhrs_epi16(d, _mm512_set1_epi16((short)(c)))
#define V_SIGNS(v) ((uint64_t)_mm512_movepi16_mask(v))
#define NORM_BY_MAX 0
#define IMPOSSIBLE (-16384)
#include "turbo_simd_body.h"

/* ---- AVX-512BW, 64 x int8 ---- */
SIMD_TARGET static inline __m512i scale_i8_512(__m512i d, int c)
{
    const __m512i q = _mm512_set1_epi16((short)c);
    const __m512i lo = _mm512_mulhrs_epi16(_mm512_cvtepi8_epi16(_mm512_castsi512_si256(d)), q);
    const __m512i hi = _mm512_mulhrs_epi16(_mm512_cvtepi8_epi16(_mm512_extracti64x4_epi64(d, 1)), q);
    return _mm512_inserti64x4(_mm512_castsi256_si512(_mm512_cvtsepi16_epi8(lo)), _mm512_cvtsepi16_epi8(hi), 1);
}
#define SIMD_NAME(x) x##_avx512_i8
#define LANES 64
#define V_ADD _mm512_adds_epi8
#define V_SUB _mm512_subs_epi8
#define V_MAX _mm512_max_epi8
#define V_MIN _mm512_min_epi8
#define V_SET1(x) _mm512_set1_epi8((char)(x))
#define V_SCALE(d, c) scale_i8_512(d, c)
#define V_SIGNS(v) ((uint64_t)_mm512_movepi8_mask(v))
#define NORM_BY_MAX 1
#define IMPOSSIBLE (-127)
#include "turbo_simd_body.h"
#undef SIMD_TARGET
#undef V
#undef V_ZERO

/* ---- AVX2, 16 x int16 ---- */
#define SIMD_TARGET __attribute__((target("avx2,bmi2")))
#define SIMD_NAME(x) x##_avx2_i16
#define V __m256i
#define LANES 16
#define V_ADD _mm256_adds_epi16
#define V_SUB _mm256_subs_epi16
#define V_MAX _mm256_max_epi16
#define V_MIN _mm256_min_epi16
#define V_SET1(x) _mm256_set1_epi16((short)(x))
#define V_ZERO _mm256_setzero_si256()
#define V_SCALE(d, c) _mm256_mulhrs_epi16(d, _mm256_set1_epi16((short)(c)))
#define V_SIGNS(v) ((uint64_t)_pext_u32((uint32_t)_mm256_movemask_epi8(v), 0xAAAAAAAAu))
#define NORM_BY_MAX 0
#define IMPOSSIBLE (-16384)
#include "turbo_simd_body.h"

/* ---- AVX2, 32 x int8 ---- */
SIMD_TARGET static inline __m256i scale_i8_256(__m256i d, int c)
{
    const __m256i q = _mm256_set1_epi16((short)c);
    const __m256i lo = _mm256_mulhrs_epi16(_mm256_cvtepi8_epi16(_mm256_castsi256_si128(d)), q);
    const __m256i hi = _mm256_mulhrs_epi16(_mm256_cvtepi8_epi16(_mm256_extracti128_si256(d, 1)), q);
    return _mm256_permute4x64_epi64(_mm256_packs_epi16(lo, hi), 0xD8); /* packs works per 128-bit half */
}
#define SIMD_NAME(x) x##_avx2_i8
#define LANES 32
#define V_ADD _mm256_adds_epi8
#define V_SUB _mm256_subs_epi8
#define V_MAX _mm256_max_epi8
#define V_MIN _mm256_min_epi8
#define V_SET1(x) _mm256_set1_epi8((char)(x))
#define V_SCALE(d, c) scale_i8_256(d, c)
#define V_SIGNS(v) ((uint64_t)(uint32_t)_mm256_movemask_epi8(v))
#define NORM_BY_MAX 1
#define IMPOSSIBLE (-127)
#include "turbo_simd_body.h"
#undef SIMD_TARGET
#undef V
#undef V_ZERO
#endif

/* One instance: its lanes, element width, input quantisation and decoder. */
typedef struct {
    const char* name;
    int lanes, bytes;
    float mean_steps; /* a frame's mean soft-value magnitude, in steps (see frame_gain) */
    int in_limit, ext_limit;
    void (*decode_group)(turbo_simd_group*);
} simd_instance;

#ifdef TURBO_SIMD_X86
static const simd_instance INSTANCES[] = {
    {"AVX-512BW int16", 32, 2, 32.0f, 1024, 4096, decode_group_avx512_i16},
    {"AVX-512BW int8", 64, 1, 8.0f, 31, 63, decode_group_avx512_i8},
    {"AVX2 int16", 16, 2, 32.0f, 1024, 4096, decode_group_avx2_i16},
    {"AVX2 int8", 32, 1, 8.0f, 31, 63, decode_group_avx2_i8},
};

static const simd_instance* pick_instance(const gpufec_decoder_opts* o)
{
    const int wide = __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw");
    const int avx2 = __builtin_cpu_supports("avx2") && __builtin_cpu_supports("bmi2");
    const int i8 = turbo_opts_of(o).turbo_arithmetic == GPUFEC_TURBO_INT8;
    if (wide && turbo_opts_of(o).turbo_simd != GPUFEC_TURBO_SIMD_AVX2)
        return &INSTANCES[i8 ? 1 : 0];
    if (avx2 && turbo_opts_of(o).turbo_simd != GPUFEC_TURBO_SIMD_AVX512)
        return &INSTANCES[i8 ? 3 : 2];
    return NULL;
}
#else
static const simd_instance* pick_instance(const gpufec_decoder_opts* o)
{
    (void)o;
    return NULL;
}
#endif

typedef struct {
    const decoder_config* dec;
    const turbo_code* t;
    const simd_instance* isa;
    turbo_simd_group g;
    float* mother;
    uint8_t *hard, *code_bits;
    void* qbuf; /* lanes x n_full quantised soft values */
} turbo_simd;

static void turbo_simd_free(turbo_simd* s)
{
    if (!s)
        return;
    void* p[] = {s->g.sys, s->g.par[0], s->g.par[1], s->g.l12, s->g.l21, s->g.ckpt, s->g.tail, s->g.prev, s->g.final,
                 s->mother, s->hard, s->code_bits, s->qbuf};
    for (size_t i = 0; i < sizeof p / sizeof *p; i++)
        free(p[i]);
    free(s);
}

static void* vectors(size_t count, size_t vec_bytes)
{
    const size_t bytes = (count * vec_bytes + 63) / 64 * 64;
    return aligned_alloc(64, bytes ? bytes : 64);
}

static int accepts(const decoder_config* cfg, char* why, size_t why_len)
{
    const turbo_opts to = turbo_opts_of(&cfg->opts);
    if (to.turbo_arithmetic == GPUFEC_TURBO_FLOAT) {
        snprintf(why, why_len, "arithmetic=float is the reference decoder's");
        return 0;
    }
    if (to.turbo_arithmetic == GPUFEC_TURBO_ARITH_AUTO &&
        (to.turbo_algorithm != GPUFEC_TURBO_MAX_LOG_MAP || to.subblocks != 1)) {
        snprintf(why, why_len, "arithmetic=auto: fixed point needs Max-Log-MAP and subblocks=1");
        return 0;
    }
    if (!pick_instance(&cfg->opts)) {
        snprintf(why, why_len, "the fixed-point turbo decoder with simd=%s needs an x86-64 CPU with %s",
                 gpufec_turbo_simd_name((gpufec_turbo_simd)to.turbo_simd),
                 to.turbo_simd == GPUFEC_TURBO_SIMD_AVX512 ? "AVX-512BW" : "AVX2 and BMI2");
        return 0;
    }
    return 1;
}

static gpufec_status create(const decoder_config* dec, void** state, impl_caps* caps)
{
    turbo_simd* s = calloc(1, sizeof *s);
    if (!s)
        return GPUFEC_ERR_OUT_OF_MEMORY;
    s->dec = dec;
    s->t = turbo_of(dec->code);
    s->isa = pick_instance(&dec->opts);
    const uint32_t K = s->t->K;
    const size_t vb = (size_t)s->isa->lanes * (size_t)s->isa->bytes;
    turbo_simd_group* g = &s->g;
    g->K = K;
    g->perm = s->t->perm;
    g->sys = vectors(K, vb);
    g->par[0] = vectors(K, vb);
    g->par[1] = vectors(K, vb);
    g->l12 = vectors(K, vb);
    g->l21 = vectors(K, vb);
    g->ckpt = vectors(((size_t)K / TURBO_WINDOW + 1) * TURBO_STATES, vb);
    g->tail = vectors(12, vb);
    g->prev = malloc(K * sizeof(uint64_t));
    g->final = malloc(K * sizeof(uint64_t));
    s->mother = malloc(dec->code->n_full * sizeof(float));
    s->hard = malloc(K);
    s->code_bits = malloc(dec->code->n_full);
    s->qbuf = malloc((size_t)s->isa->lanes * dec->code->n_full * (size_t)s->isa->bytes);
    if (!g->sys || !g->par[0] || !g->par[1] || !g->l12 || !g->l21 || !g->ckpt || !g->tail || !g->prev || !g->final ||
        !s->mother || !s->hard || !s->code_bits || !s->qbuf) {
        turbo_simd_free(s);
        return GPUFEC_ERR_OUT_OF_MEMORY;
    }
    g->early = dec->opts.early_termination;
    g->crc_poly = s->t->crc ? (s->t->crc_b ? TURBO_CRC24B : TURBO_CRC24A) : 0;
    g->scale_q15 = (int)lrintf(turbo_opts_of(&dec->opts).extrinsic_scale * 0.5f * 32768.0f); /* halved: see the body */
    g->ext_limit = s->isa->ext_limit;
    caps->preferred_batch = (size_t)s->isa->lanes;
    caps->writes_output = 1;
    caps->asymmetric = 1; /* int16 and int8 saturate in two's complement */
    snprintf(caps->variant, sizeof caps->variant, "%s", s->isa->name);
    decoder_log(dec, GPUFEC_LOG_INFO, "CPU turbo decoder: fixed-point Max-Log-MAP, %s, %d frames per vector",
                s->isa->name, s->isa->lanes);
    *state = s;
    return GPUFEC_OK;
}

static void destroy(void* state) { turbo_simd_free(state); }

/* Soft values to steps: x * gain rounded to the nearest, NaN to 0, clamped to the instance's input
 * range; written branch-free so that the compiler vectorises it. */
#define QUANTISE_ROW(type, real)                                                                    \
    do {                                                                                            \
        type* q = (type*)row;                                                                       \
        const real g = (real)gain, lim = (real)limit;                                               \
        for (uint32_t j = 0; j < n; j++) {                                                          \
            real x = (real)m[j] * g;                                                                \
            x = x == x ? x : (real)0;                                                               \
            x = x > lim ? lim : x;                                                                  \
            x = x < -lim ? -lim : x;                                                                \
            q[j] = (type)(int)(x + (x >= (real)0 ? (real)0.5 : (real)-0.5));                        \
        }                                                                                           \
    } while (0)

/* Steps per unit of soft value for one frame. Max-Log-MAP's decisions do not depend on the scale
 * of its inputs, so the fixed-point decoder follows the input: the frame's mean magnitude (of
 * the values that carry information, the few far outliers left out) maps to mean_steps, which
 * at the waterfall of rate 1/3 (mean |LLR| about 2) is the resolution of 16 steps per LLR unit
 * (int16) or 4 (int8). A fixed scale turned soft bits scaled by 0.01 into zeros (an all-zero
 * "codeword" that passed its CRC) and saturated large ones. 0: the frame carries nothing. */
static double frame_gain(const simd_instance* isa, const float* m, uint32_t n)
{
    double sum = 0;
    uint32_t count = 0;
    for (uint32_t j = 0; j < n; j++) {
        const float a = fabsf(soft_sanitize(m[j]));
        sum += a;
        count += a > 0.0f;
    }
    if (!count || !(sum > 0))
        return 0;
    const double cap = 8.0 * sum / count; /* a few huge values (Inf clamped) must not set the scale */
    sum = 0;
    for (uint32_t j = 0; j < n; j++) {
        const double a = fabsf(soft_sanitize(m[j]));
        sum += a < cap ? a : cap;
    }
    return isa->mean_steps * (double)count / sum;
}

/* One frame's soft values into steps. A frame with any soft value not zero has a step not zero
 * (its largest magnitude maps to mean_steps or more), so the front's erased-frame rule, judged on
 * the soft values, is the one the decoder sees. */
static void quantise_row(const simd_instance* isa, const float* m, uint32_t n, void* row)
{
    const double gain = frame_gain(isa, m, n), limit = isa->in_limit;
    if (gain == 0) {
        memset(row, 0, (size_t)n * (size_t)isa->bytes);
        return;
    }
    if (gain < 1e30) { /* float suffices (and vectorises); tiny subnormal inputs need double */
        if (isa->bytes == 2)
            QUANTISE_ROW(int16_t, float);
        else
            QUANTISE_ROW(int8_t, float);
    } else {
        if (isa->bytes == 2)
            QUANTISE_ROW(int16_t, double);
        else
            QUANTISE_ROW(int8_t, double);
    }
}

/* Lane `lane`'s quantised mother frame (float32 LLRs) into its row of s->qbuf (NULL: an empty
 * lane, all erasures). */
static void load_lane(turbo_simd* s, const float* frame, int lane)
{
    const decoder_config* dec = s->dec;
    const uint32_t n_full = dec->code->n_full;
    const tx_map_view map = tx_map_host_view(&dec->code->tx);
    const float* m = s->mother;
    if (!frame)
        memset(s->mother, 0, n_full * sizeof(float));
    else if (!map.src && !map.rep_ptr) /* the mother code as sent: read in place */
        m = frame;
    else
        for (uint32_t j = 0; j < n_full; j++)
            s->mother[j] = tx_map_value(map, j, frame);
    quantise_row(s->isa, m, n_full, (char*)s->qbuf + (size_t)lane * n_full * (size_t)s->isa->bytes);
}

/* The rows of s->qbuf (one frame each) into the group's vectors (one position each), a tile
 * of positions at a time so that the vectors being filled stay in the L1 cache. */
#define TRANSPOSE(type)                                                                             \
    do {                                                                                            \
        const type* q = s->qbuf;                                                                    \
        type *sys = g->sys, *p0 = g->par[0], *p1 = g->par[1], *tail = g->tail;                      \
        for (uint32_t i0 = 0; i0 < K; i0 += TILE) {                                                 \
            const uint32_t i1 = K - i0 < TILE ? K : i0 + TILE;                                      \
            for (size_t l = 0; l < L; l++) {                                                        \
                const type* r = q + l * n_full;                                                     \
                for (uint32_t i = i0; i < i1; i++) {                                                \
                    sys[i * L + l] = r[3 * i];                                                      \
                    p0[i * L + l] = r[3 * i + 1];                                                   \
                    p1[i * L + l] = r[3 * i + 2];                                                   \
                }                                                                                   \
            }                                                                                       \
        }                                                                                           \
        for (size_t l = 0; l < L; l++)                                                              \
            for (uint32_t t = 0; t < 12; t++)                                                       \
                tail[t * L + l] = q[l * n_full + 3 * (size_t)K + t];                                \
    } while (0)
#define TILE 96u

static void transpose_group(turbo_simd* s)
{
    turbo_simd_group* g = &s->g;
    const uint32_t K = s->t->K;
    const size_t L = (size_t)s->isa->lanes, n_full = s->dec->code->n_full;
    if (s->isa->bytes == 2)
        TRANSPOSE(int16_t);
    else
        TRANSPOSE(int8_t);
}

/* Lane l's output row: information bits straight from the decisions, else the codeword of the
 * decisions (the mother codeword, or its transmitted positions through out_pos). */
static void write_frame(turbo_simd* s, int l, uint8_t* o)
{
    const decoder_config* dec = s->dec;
    const uint32_t K = s->t->K;
    for (uint32_t i = 0; i < K; i++)
        s->hard[i] = (uint8_t)(s->g.final[i] >> l & 1u);
    if (dec->opts.output == GPUFEC_OUTPUT_INFO) {
        for (uint32_t t = 0; t < dec->out_len; t++)
            o[t] = s->hard[dec->out_pos[t] / 3];
        return;
    }
    if (!dec->out_pos) {
        turbo_encode_bits(s->t, s->hard, o);
        return;
    }
    turbo_encode_bits(s->t, s->hard, s->code_bits);
    for (uint32_t t = 0; t < dec->out_len; t++)
        o[t] = s->code_bits[dec->out_pos[t]];
}

static gpufec_status decode(void* state, const void* soft, size_t n_frames, uint8_t* out, int32_t* iterations,
                            uint8_t* converged)
{
    turbo_simd* s = state;
    const decoder_config* dec = s->dec;
    const size_t n_tx = dec->code->tx.n_tx;
    const int L = s->isa->lanes;
    turbo_simd_group* g = &s->g;
    g->max_iterations = dec->opts.max_iterations; /* a per-call setting: the front may change it */
    for (size_t f0 = 0; f0 < n_frames; f0 += (size_t)L) {
        const int n = n_frames - f0 < (size_t)L ? (int)(n_frames - f0) : L;
        for (int l = 0; l < L; l++)
            load_lane(s, l < n ? (const float*)soft + (f0 + (size_t)l) * n_tx : NULL, l);
        transpose_group(s);
        g->lanes = n == 64 ? ~0ull : (1ull << n) - 1;
        s->isa->decode_group(g);
        for (int l = 0; l < n; l++) {
            const size_t f = f0 + (size_t)l;
            write_frame(s, l, out + f * dec->out_len);
            if (iterations)
                iterations[f] = g->iterations[l];
            if (converged)
                converged[f] = (uint8_t)(g->ok >> l & 1u);
        }
    }
    return GPUFEC_OK;
}

const backend_ops turbo_simd_ops = {
    .name = "cpu-simd",
    .family = GPUFEC_FAMILY_TURBO,
    .backend = GPUFEC_BACKEND_CPU,
    .accepts = accepts,
    .create = create,
    .destroy = destroy,
    .decode = decode,
};
