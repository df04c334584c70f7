/* CPU Viterbi decoder of convolutional codes: 16 frames side by side, one per vector lane (GCC
 * vector types; compiled for AVX-512, AVX2 and the baseline, chosen at run time). Each lane runs
 * the rules of conv_rules.h, so a frame's decisions do not depend on its neighbours or on the
 * vector width (a call with few frames takes 4 or 8 lanes), and equal the GPU's. Survivor decisions are packed eight states to a byte per
 * lane; the traceback then follows each lane alone. */
#include "conv_code.h"
#include "conv_options.h"
#include "decoder_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define W 16 /* the widest group; fewer waiting frames take 8 or 4 lanes (the same decisions) */
typedef int32_t vi16 __attribute__((vector_size(16 * sizeof(int32_t))));

typedef struct {
    const decoder_config* dec;
    const conv_code* cc;
    uint32_t groups;   /* bytes of decisions per step and lane: ceil(S / 8) */
    uint32_t w;        /* lanes of the group in progress: 4, 8 or 16 */
    float* llr;        /* steps * n values per lane, lane-minor */
    float* pm;         /* S metrics per lane, lane-minor */
    float* npm;
    uint8_t* survivors; /* steps * groups bytes per lane, lane-minor; states path: steps * S */
    vi16* idx;         /* states path (NULL: none): output words per group of 16 butterflies */
    int states;        /* the group in progress runs the states path */
    uint8_t* u;        /* W * k */
} conv_cpu;

/* Every step of one pass for LANES frames side by side: metrics pm (in and out) through the
 * trellis, survivor decisions into dec. One definition per width. */
#define CONV_FORWARD(LANES)                                                                              \
    typedef float vf##LANES __attribute__((vector_size(LANES * sizeof(float))));                       \
    typedef int32_t vi##LANES __attribute__((vector_size(LANES * sizeof(int32_t))));                   \
    typedef uint8_t vb##LANES __attribute__((vector_size(LANES)));                                     \
    __attribute__((target_clones("avx512f", "avx2", "default"))) void conv_cpu_forward##LANES(         \
        const conv_code* cc, const float* llr, uint32_t groups, float* pm_, float* npm_, uint8_t* dec_) \
    {                                                                                                  \
        typedef vf##LANES vf;                                                                          \
        typedef vi##LANES vi;                                                                          \
        typedef vb##LANES vb;                                                                          \
        vf* pm = (vf*)(void*)pm_;                                                                      \
        vb* dec = (vb*)(void*)dec_;                                                                    \
        const uint32_t n = cc->info.n, S = cc->S, half = S / 2, words = 1u << n;                       \
        vf bm[1 << GPUFEC_CONV_MAX_N];                                                                 \
        vi acc[(1 << (GPUFEC_CONV_MAX_K - 1)) / 8];                                                    \
        vf *a = pm, *b = (vf*)(void*)npm_;                                                             \
        for (uint32_t t = 0; t < cc->info.steps; t++) {                                                \
            const vf* L = (const vf*)(const void*)(llr + (size_t)t * n * LANES);                       \
            for (uint32_t c = 0; c < words; c++) { /* conv_branch_metric, a lane per frame */          \
                vf m = {0};                                                                            \
                for (uint32_t j = 0; j < n; j++)                                                       \
                    m = m + (((c >> j) & 1u) ? -L[j] : L[j]);                                          \
                bm[c] = m;                                                                             \
            }                                                                                          \
            const vf norm = a[0];                                                                      \
            for (uint32_t g = 0; g < groups; g++)                                                      \
                acc[g] = (vi){0};                                                                      \
            for (uint32_t i = 0; i < half; i++) /* predecessors 2i, 2i+1 -> states i, i + S/2 */       \
                for (uint32_t u = 0; u < 2; u++) {                                                     \
                    const uint32_t s = i + u * half;                                                   \
                    const vf m0 = a[2 * i] + bm[cc->out[4 * i + u]];                                   \
                    const vf m1 = a[2 * i + 1] + bm[cc->out[4 * i + 2 + u]];                           \
                    const vi take1 = m1 > m0; /* conv_acs */                                           \
                    b[s] = (vf)((take1 & (vi)m1) | (~take1 & (vi)m0)) - norm;                          \
                    acc[s >> 3] |= take1 & (int32_t)(1 << (s & 7));                                    \
                }                                                                                      \
            vb* d = dec + (size_t)t * groups;                                                          \
            for (uint32_t g = 0; g < groups; g++)                                                      \
                d[g] = __builtin_convertvector(acc[g], vb);                                            \
            vf* x = a;                                                                                 \
            a = b;                                                                                     \
            b = x;                                                                                     \
        }                                                                                              \
        if (a != pm)                                                                                   \
            memcpy(pm, a, S * sizeof *pm);                                                             \
    }

CONV_FORWARD(4)
CONV_FORWARD(8)
CONV_FORWARD(16)

/* One frame, its states side by side (K >= 6, n <= 4): metrics in S/16 vectors; a step takes
 * the even and the odd predecessors of 16 butterflies apart with two shuffles, their branch
 * metrics from the step's 2^n values with one shuffle each (idx: the output words, four vectors
 * per group of 16 butterflies: even predecessor input 0 and 1, odd predecessor input 0 and 1), and
 * leaves a byte per state. The same float operations per state as the lanes above and the GPU. */
__attribute__((target_clones("avx512f", "avx2", "default"))) void
conv_cpu_forward_states(const conv_code* cc, const vi16* idx, const float* llr, float* pm_, uint8_t* dec)
{
    const uint32_t n = cc->info.n, S = cc->S, G = S / 32;
    vi16 sign[4]; /* lane c: bit j of c as the float sign bit */
    for (uint32_t j = 0; j < 4; j++)
        for (uint32_t c = 0; c < 16; c++)
            sign[j][c] = (int32_t)(((c >> j) & 1u) << 31);
    const vi16 even_of = {0, 2, 4, 6, 8, 10, 12, 14, 16, 18, 20, 22, 24, 26, 28, 30};
    const vi16 odd_of = even_of + 1;
    vf16* V = (vf16*)(void*)pm_;
    vf16 NV[(1 << (GPUFEC_CONV_MAX_K - 1)) / 16];
    for (uint32_t t = 0; t < cc->info.steps; t++) {
        /* conv_branch_metric of every output word c (lane c): +-L_j added in j order, the sign
         * flipped (exactly) where bit j of c is 1 */
        vf16 BMV = {0};
        for (uint32_t j = 0; j < n; j++)
            BMV = BMV + (vf16)((vi16)((vf16){0} + llr[(size_t)t * n + j]) ^ sign[j]);
        const vf16 norm = (vf16){0} + pm_[0];
        uint8_t* d = dec + (size_t)t * S;
        for (uint32_t g = 0; g < G; g++) {
            const vf16 even = __builtin_shuffle(V[2 * g], V[2 * g + 1], even_of);
            const vf16 odd = __builtin_shuffle(V[2 * g], V[2 * g + 1], odd_of);
            for (uint32_t u = 0; u < 2; u++) {
                const vf16 m0 = even + __builtin_shuffle(BMV, idx[4 * g + u]);
                const vf16 m1 = odd + __builtin_shuffle(BMV, idx[4 * g + 2 + u]);
                const vi16 take1 = m1 > m0; /* conv_acs */
                NV[g + u * G] = (vf16)((take1 & (vi16)m1) | (~take1 & (vi16)m0)) - norm;
                const vb16 db = __builtin_convertvector(take1 & 1, vb16);
                memcpy(d + 16 * (g + u * G), &db, sizeof db);
            }
        }
        memcpy(V, NV, S * sizeof(float));
    }
}

/* Follows every lane's survivors back from its state end[l] together, a step at a time (the
 * lanes' chains of dependent loads then overlap); writes the information bits of the lanes not
 * yet done and leaves each path's first state in end[l]. */
static void traceback(const conv_cpu* s, uint32_t nf, uint32_t done, uint32_t* end)
{
    const conv_code* cc = s->cc;
    const uint32_t k = cc->info.k, K = cc->info.K, w = s->w;
    for (uint32_t t = cc->info.steps; t-- > 0;) {
        const uint8_t* row = s->survivors + (size_t)t * (s->states ? cc->S : s->groups * w);
        for (uint32_t l = 0; l < nf; l++) {
            const uint32_t st = end[l];
            if (t < k && !(done >> l & 1u))
                s->u[(size_t)l * k + t] = (uint8_t)conv_input_of(st, K);
            const uint32_t d = s->states ? row[st] & 1u : (row[(st >> 3) * w + l] >> (st & 7)) & 1u;
            end[l] = conv_prev_state(st, d, cc->S);
        }
    }
}

/* The state of lane l with the best metric (the lowest such state on ties). */
static uint32_t best_state(const conv_cpu* s, uint32_t l)
{
    uint32_t best = 0;
    for (uint32_t st = 1; st < s->cc->S; st++)
        if (s->pm[st * s->w + l] > s->pm[best * s->w + l])
            best = st;
    return best;
}

/* Up to W frames (nf) of mother-domain LLRs are in s->llr; decodes them into `out`. */
static void decode_group(conv_cpu* s, uint32_t nf, uint8_t* out, int32_t* iterations,
                         uint8_t* converged)
{
    const conv_code* cc = s->cc;
    const gpufec_conv_info* ci = &cc->info;
    const int tb = ci->termination == GPUFEC_CONV_TERM_TAIL_BITING;
    const int passes = tb ? s->dec->opts.max_iterations : 1;
    for (uint32_t st = 0; st < cc->S; st++)
        for (uint32_t l = 0; l < s->w; l++)
            s->pm[st * s->w + l] = tb || st == 0 ? 0.0f : CONV_UNREACHED;
    uint32_t done = 0; /* lanes with their final decisions */
    int ok[W] = {0}, used[W] = {0};
    for (int p = 1; p <= passes && done != (1u << nf) - 1; p++) {
        if (s->states)
            conv_cpu_forward_states(cc, s->idx, s->llr, s->pm, s->survivors);
        else
            (s->w == 4 ? conv_cpu_forward4 : s->w == 8 ? conv_cpu_forward8 : conv_cpu_forward16)(
                cc, s->llr, s->groups, s->pm, s->npm, s->survivors);
        uint32_t end[W], start[W];
        for (uint32_t l = 0; l < nf; l++)
            start[l] = end[l] = ci->termination == GPUFEC_CONV_TERM_ZERO ? 0 : best_state(s, l);
        traceback(s, nf, done, start);
        for (uint32_t l = 0; l < nf; l++) {
            if (done >> l & 1u)
                continue;
            ok[l] = !tb || start[l] == end[l];
            used[l] = p;
            if (ok[l] || p == passes)
                done |= 1u << l;
        }
    }
    const decoder_config* cfg = s->dec;
    for (uint32_t l = 0; l < nf; l++) {
        const uint8_t* u = s->u + (size_t)l * ci->k;
        uint8_t* o = out + (size_t)l * cfg->out_len;
        for (uint32_t t = 0; t < cfg->out_len; t++)
            o[t] = (uint8_t)conv_mother_bit(u, ci->k, ci->n, ci->K, ci->generators, tb,
                                            cfg->out_pos ? cfg->out_pos[t] : t);
        if (iterations)
            iterations[l] = used[l];
        if (converged)
            converged[l] = (uint8_t)ok[l];
    }
}

static gpufec_status decode(void* state, const void* soft, size_t n_frames, uint8_t* out, int32_t* iterations,
                            uint8_t* converged)
{
    conv_cpu* s = state;
    const decoder_config* dec = s->dec;
    const gpufec_conv_info* ci = &s->cc->info;
    const size_t n_tx = dec->code->tx.n_tx, coded = (size_t)ci->steps * ci->n;
    const tx_map_view map = tx_map_host_view(&dec->code->tx);
    for (size_t f0 = 0; f0 < n_frames;) {
        /* 16 frames or more waiting: a frame per lane; fewer: one frame at a time with its states
         * side by side where the code allows, else the fewest lanes that hold them */
        s->states = s->idx && n_frames - f0 < W;
        const uint32_t nf = s->states ? 1 : (uint32_t)(n_frames - f0 < W ? n_frames - f0 : W);
        s->w = s->states ? 1 : nf <= 4 ? 4 : nf <= 8 ? 8 : W;
        for (uint32_t l = 0; l < s->w; l++) {
            if (l >= nf) { /* an idle lane: zeros, decisions ignored */
                for (size_t q = 0; q < coded; q++)
                    s->llr[q * s->w + l] = 0.0f;
                continue;
            }
            const float* in = (const float*)soft + (f0 + l) * n_tx;
            for (size_t q = 0; q < coded; q++)
                s->llr[q * s->w + l] = tx_map_value(map, (uint32_t)(ci->k + q), in);
        }
        decode_group(s, nf, out + f0 * dec->out_len, iterations ? iterations + f0 : NULL,
                     converged ? converged + f0 : NULL);
        f0 += nf;
    }
    return GPUFEC_OK;
}

static void conv_cpu_free(conv_cpu* s)
{
    if (!s)
        return;
    free(s->llr), free(s->pm), free(s->npm), free(s->survivors), free(s->u), free(s->idx);
    free(s);
}

static gpufec_status create(const decoder_config* dec, void** state, impl_caps* caps)
{
    conv_cpu* s = calloc(1, sizeof *s);
    if (!s)
        return GPUFEC_ERR_OUT_OF_MEMORY;
    s->dec = dec;
    s->cc = conv_of(dec->code);
    const gpufec_conv_info* ci = &s->cc->info;
    s->groups = (s->cc->S + 7) / 8;
#define ROUND64(b) (((b) + 63) / 64 * 64) /* aligned_alloc wants whole alignments */
    s->llr = aligned_alloc(64, (size_t)ci->steps * ci->n * W * sizeof(float));
    s->pm = aligned_alloc(64, s->cc->S * W * sizeof(float));
    s->npm = aligned_alloc(64, s->cc->S * W * sizeof(float));
    s->survivors = aligned_alloc(64, ROUND64((size_t)ci->steps * s->groups * W));
    s->u = malloc((size_t)W * ci->k);
    if (!s->llr || !s->pm || !s->npm || !s->survivors || !s->u) {
        conv_cpu_free(s);
        return GPUFEC_ERR_OUT_OF_MEMORY;
    }
    if (s->cc->S >= 32 && ci->n <= 4) { /* the states side by side, a frame at a time */
        const uint32_t G = s->cc->S / 32;
        s->idx = aligned_alloc(64, G * 4 * sizeof(vi16));
        if (!s->idx) {
            conv_cpu_free(s);
            return GPUFEC_ERR_OUT_OF_MEMORY;
        }
        for (uint32_t g = 0; g < G; g++)
            for (uint32_t e = 0; e < 2; e++)
                for (uint32_t u = 0; u < 2; u++)
                    for (uint32_t l = 0; l < 16; l++)
                        s->idx[4 * g + 2 * e + u][l] = s->cc->out[4 * (16 * g + l) + 2 * e + u];
    }
    __builtin_cpu_init();
    snprintf(caps->variant, sizeof caps->variant, s->idx ? "Viterbi, 16 lanes: frames or states (%s)"
                                                         : "Viterbi, 4-16 frames per vector (%s)",
             __builtin_cpu_supports("avx512f") ? "AVX-512" : __builtin_cpu_supports("avx2") ? "AVX2" : "baseline");
    caps->preferred_batch = W * 16;
    caps->writes_output = 1; /* the output positions, re-encoded from the decisions one by one */
    *state = s;
    return GPUFEC_OK;
}

static void destroy(void* state) { conv_cpu_free(state); }

static int accepts(const decoder_config* cfg, char* why, size_t why_len)
{
    (void)cfg, (void)why, (void)why_len;
    return 1;
}

const backend_ops conv_cpu_ops = {
    .name = "cpu",
    .family = GPUFEC_FAMILY_CONV,
    .backend = GPUFEC_BACKEND_CPU,
    .accepts = accepts,
    .create = create,
    .destroy = destroy,
    .decode = decode,
};
