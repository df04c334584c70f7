/* CPU Viterbi decoder of convolutional codes: 16 frames side by side, one per vector lane (GCC
 * vector types; compiled for AVX-512, AVX2 and the baseline, chosen at run time). Each lane runs
 * the rules of conv_rules.h, so a frame's decisions do not depend on its neighbours or on the
 * vector width (a call with few frames takes 4 or 8 lanes), and equal the GPU's. Survivor decisions are packed eight states to a byte per
 * lane; the traceback then follows each lane alone. */
#include "conv_code.h"
#include "conv_options.h"
#include "decoder_internal.h"
#include "soft_input.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define W 16 /* the widest group; fewer waiting frames take 8 or 4 lanes (the same decisions) */

typedef struct {
    const decoder_config* dec;
    const conv_code* cc;
    uint32_t groups;   /* bytes of decisions per step and lane: ceil(S / 8) */
    uint32_t w;        /* lanes of the group in progress: 4, 8 or 16 */
    float* llr;        /* steps * n values per lane, lane-minor */
    float* pm;         /* S metrics per lane, lane-minor */
    float* npm;
    uint8_t* survivors; /* steps * groups bytes per lane, lane-minor */
    uint8_t* u;        /* W * k */
    float* in_f;       /* one frame's soft values as float */
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

/* Follows lane l's survivors back from state s_end; writes its information bits; returns the
 * state the path starts in. */
static uint32_t traceback(const conv_cpu* s, uint32_t l, uint32_t s_end, uint8_t* u)
{
    const conv_code* cc = s->cc;
    uint32_t st = s_end;
    for (uint32_t t = cc->info.steps; t-- > 0;) {
        if (t < cc->info.k)
            u[t] = (uint8_t)conv_input_of(st, cc->info.K);
        const uint32_t d = (s->survivors[((size_t)t * s->groups + (st >> 3)) * s->w + l] >> (st & 7)) & 1u;
        st = conv_prev_state(st, d, cc->S);
    }
    return st;
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
static void decode_group(conv_cpu* s, uint32_t nf, const int* carries, uint8_t* out, int32_t* iterations,
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
        (s->w == 4 ? conv_cpu_forward4 : s->w == 8 ? conv_cpu_forward8 : conv_cpu_forward16)(
            cc, s->llr, s->groups, s->pm, s->npm, s->survivors);
        for (uint32_t l = 0; l < nf; l++) {
            if (done >> l & 1u)
                continue;
            const uint32_t end = ci->termination == GPUFEC_CONV_TERM_ZERO ? 0 : best_state(s, l);
            const uint32_t start = traceback(s, l, end, s->u + (size_t)l * ci->k);
            ok[l] = !tb || start == end;
            used[l] = p;
            if (ok[l] || p == passes)
                done |= 1u << l;
        }
    }
    const size_t n_full = s->dec->code->n_full;
    for (uint32_t l = 0; l < nf; l++) {
        conv_encode_bits(cc, s->u + (size_t)l * ci->k, out + l * n_full);
        if (iterations)
            iterations[l] = used[l];
        if (converged)
            converged[l] = (uint8_t)(ok[l] && carries[l]);
    }
}

static gpufec_status decode(void* state, const void* soft, size_t n_frames, uint8_t* out, int32_t* iterations,
                            uint8_t* converged)
{
    conv_cpu* s = state;
    const decoder_config* dec = s->dec;
    const gpufec_conv_info* ci = &s->cc->info;
    const size_t n_tx = dec->code->tx.n_tx, n_full = dec->code->n_full, coded = (size_t)ci->steps * ci->n;
    const gpufec_input_type type = dec->opts.input_type;
    const size_t width = soft_input_bytes(type);
    const tx_map_view map = tx_map_host_view(&dec->code->tx);
    for (size_t f0 = 0; f0 < n_frames; f0 += W) {
        const uint32_t nf = (uint32_t)(n_frames - f0 < W ? n_frames - f0 : W);
        s->w = nf <= 4 ? 4 : nf <= 8 ? 8 : W; /* the fewest lanes that hold them */
        int carries[W] = {0};
        for (uint32_t l = 0; l < s->w; l++) {
            if (l >= nf) { /* an idle lane: zeros, decisions ignored */
                for (size_t q = 0; q < coded; q++)
                    s->llr[q * s->w + l] = 0.0f;
                continue;
            }
            const char* in = (const char*)soft + (f0 + l) * n_tx * width;
            for (size_t i = 0; i < n_tx; i++)
                s->in_f[i] = soft_input_value(in, i, type, dec->opts.input_scale);
            for (size_t q = 0; q < coded; q++)
                s->llr[q * s->w + l] = tx_map_load(map, (uint32_t)(ci->k + q), s->in_f, &carries[l]);
        }
        decode_group(s, nf, carries, out + f0 * n_full, iterations ? iterations + f0 : NULL,
                     converged ? converged + f0 : NULL);
    }
    return GPUFEC_OK;
}

static void conv_cpu_free(conv_cpu* s)
{
    if (!s)
        return;
    free(s->llr), free(s->pm), free(s->npm), free(s->survivors), free(s->u), free(s->in_f);
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
    s->in_f = malloc((size_t)dec->code->tx.n_tx * sizeof(float));
    if (!s->llr || !s->pm || !s->npm || !s->survivors || !s->u || !s->in_f) {
        conv_cpu_free(s);
        return GPUFEC_ERR_OUT_OF_MEMORY;
    }
    __builtin_cpu_init();
    snprintf(caps->variant, sizeof caps->variant, "Viterbi, 4 to %d frames per vector (%s)", W,
             __builtin_cpu_supports("avx512f") ? "AVX-512" : __builtin_cpu_supports("avx2") ? "AVX2" : "baseline");
    caps->preferred_batch = W * 16;
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
