/* CPU reference decoder of LTE turbo codes: Log-MAP / Max-Log-MAP with P sub-blocks and the
 * guards of seed 002, one frame at a time. The sub-blocks of a half-iteration run one after the
 * other here and side by side on the GPU; both first compute every block's starting metrics
 * from the previous iteration, then run the blocks, so they give the same results. */
#include "decoder_internal.h"
#include "turbo_code.h"
#include "turbo_options.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
    const decoder_config* dec;
    const turbo_code* t;
    turbo_split split;
    float *mother, *sys, *par[2], *l12, *l21;
    turbo_metrics* ckpt; /* turbo_checkpoints(w) */
    turbo_metrics *store_a[2], *store_b[2], *init_a, *init_b; /* P each */
    uint8_t *hard, *prev;
} turbo_cpu;

static void turbo_cpu_free(turbo_cpu* s)
{
    if (!s)
        return;
    void* p[] = {s->mother, s->sys, s->par[0], s->par[1], s->l12, s->l21, s->ckpt, s->store_a[0],
                 s->store_a[1], s->store_b[0], s->store_b[1], s->init_a, s->init_b, s->hard, s->prev};
    for (size_t i = 0; i < sizeof p / sizeof *p; i++)
        free(p[i]);
    free(s);
}

static gpufec_status create(const decoder_config* dec, void** state, impl_caps* caps)
{
    (void)caps;
    turbo_cpu* s = calloc(1, sizeof *s);
    if (!s)
        return GPUFEC_ERR_OUT_OF_MEMORY;
    s->dec = dec;
    s->t = turbo_of(dec->code);
    const uint32_t K = s->t->K;
    const turbo_opts to = turbo_opts_of(&dec->opts);
    s->split = turbo_make_split(K, (uint32_t)to.subblocks, to.guard, (uint32_t)to.window);
    const size_t P = s->split.P;
    s->mother = malloc(dec->code->n_full * sizeof(float));
    s->sys = malloc(K * sizeof(float));
    s->par[0] = malloc(K * sizeof(float));
    s->par[1] = malloc(K * sizeof(float));
    s->l12 = malloc(K * sizeof(float));
    s->l21 = malloc(K * sizeof(float));
    s->ckpt = malloc(turbo_checkpoints(s->split.w) * sizeof(turbo_metrics));
    for (int h = 0; h < 2; h++) {
        s->store_a[h] = malloc(P * sizeof(turbo_metrics));
        s->store_b[h] = malloc(P * sizeof(turbo_metrics));
    }
    s->init_a = malloc(P * sizeof(turbo_metrics));
    s->init_b = malloc(P * sizeof(turbo_metrics));
    s->hard = malloc(K);
    s->prev = malloc(K);
    if (!s->mother || !s->sys || !s->par[0] || !s->par[1] || !s->l12 || !s->l21 || !s->ckpt || !s->store_a[0] ||
        !s->store_a[1] || !s->store_b[0] || !s->store_b[1] || !s->init_a || !s->init_b || !s->hard || !s->prev) {
        turbo_cpu_free(s);
        return GPUFEC_ERR_OUT_OF_MEMORY;
    }
    *state = s;
    return GPUFEC_OK;
}

static void destroy(void* state) { turbo_cpu_free(state); }

/* One half-iteration: every block's starting metrics first (from the previous iteration's
 * records), then the blocks, which leave records for the next iteration. */
static void half_iteration(turbo_cpu* s, const turbo_half* h, int half, const turbo_metrics* beta_K)
{
    const turbo_split* sp = &s->split;
    for (uint32_t j = 0; j < sp->P; j++)
        turbo_block_init(h, sp, j, &s->store_a[half][j], &s->store_b[half][j], beta_K, &s->init_a[j], &s->init_b[j]);
    for (uint32_t j = 0; j < sp->P; j++) {
        turbo_metrics rec_a, rec_b;
        const turbo_ckpt ckpt = {s->ckpt->m, 1};
        turbo_subblock(h, turbo_block_start(sp, j), turbo_block_end(sp, j), s->init_a[j], s->init_b[j], ckpt,
                       turbo_mark_alpha(sp, j), turbo_mark_beta(sp, j), &rec_a, &rec_b);
        if (j + 1 < sp->P)
            s->store_a[half][j + 1] = rec_a;
        if (j > 0)
            s->store_b[half][j - 1] = rec_b;
    }
}

static void decode_frame(turbo_cpu* s, const float* frame, uint8_t* out, int32_t* iterations, uint8_t* converged)
{
    const decoder_config* dec = s->dec;
    const turbo_code* t = s->t;
    const uint32_t K = t->K;
    const int logmap = turbo_opts_of(&dec->opts).turbo_algorithm == GPUFEC_TURBO_LOG_MAP;
    const int last = dec->opts.max_iterations - 1;
    const tx_map_view map = tx_map_host_view(&dec->code->tx);
    for (uint32_t j = 0; j < dec->code->n_full; j++)
        s->mother[j] = tx_map_value(map, j, frame);
    for (uint32_t i = 0; i < K; i++) {
        s->sys[i] = s->mother[3 * i];
        s->par[0][i] = s->mother[3 * i + 1];
        s->par[1][i] = s->mother[3 * i + 2];
    }
    turbo_metrics beta_K[2];
    turbo_tail_beta(s->mother + 3 * (size_t)K, &beta_K[0]);
    turbo_tail_beta(s->mother + 3 * (size_t)K + 6, &beta_K[1]);
    memset(s->l12, 0, K * sizeof(float));
    memset(s->l21, 0, K * sizeof(float));
    for (int h = 0; h < 2; h++)
        for (uint32_t j = 0; j < s->split.P; j++) {
            turbo_equal(&s->store_a[h][j]);
            turbo_equal(&s->store_b[h][j]);
        }
    int it = 0, ok = 0;
    while (it <= last) {
        const float scale = turbo_iteration_scale(logmap, turbo_opts_of(&dec->opts).extrinsic_scale, it, last);
        const turbo_half d1 = {s->sys, s->par[0], s->l21, s->l12, NULL, K, K, 1, scale, logmap};
        const turbo_half d2 = {s->sys, s->par[1], s->l12, s->l21, t->perm, K, K, 1, scale, logmap};
        half_iteration(s, &d1, 0, &beta_K[0]);
        half_iteration(s, &d2, 1, &beta_K[1]);
        for (uint32_t i = 0; i < K; i++)
            s->hard[i] = (uint8_t)(s->sys[i] + s->l12[i] + s->l21[i] < 0.0f);
        ok = t->crc ? turbo_crc_ok(t, s->hard) : it > 0 && memcmp(s->hard, s->prev, K) == 0;
        it++;
        if (ok && dec->opts.early_termination)
            break;
        memcpy(s->prev, s->hard, K);
    }
    turbo_encode_bits(t, s->hard, out); /* the codeword of the decided bits */
    if (iterations)
        *iterations = it;
    if (converged)
        *converged = (uint8_t)ok;
}

/* Float32 LLRs (the front widens narrow input types and applies the erased-frame rule). */
static gpufec_status decode(void* state, const void* soft, size_t n_frames, uint8_t* out, int32_t* iterations,
                            uint8_t* converged)
{
    turbo_cpu* s = state;
    const uint32_t n_tx = s->dec->code->tx.n_tx, n_full = s->dec->code->n_full;
    for (size_t f = 0; f < n_frames; f++)
        decode_frame(s, (const float*)soft + f * n_tx, out + f * n_full, iterations ? iterations + f : NULL,
                     converged ? converged + f : NULL);
    return GPUFEC_OK;
}

static int accepts(const decoder_config* cfg, char* why, size_t why_len)
{
    const int arithmetic = turbo_opts_of(&cfg->opts).turbo_arithmetic;
    if (arithmetic == GPUFEC_TURBO_INT16 || arithmetic == GPUFEC_TURBO_INT8) {
        snprintf(why, why_len, "arithmetic=%s is the fixed-point decoder's",
                 gpufec_turbo_arithmetic_name((gpufec_turbo_arithmetic)arithmetic));
        return 0;
    }
    return 1;
}

const backend_ops turbo_cpu_ops = {
    .name = "cpu",
    .family = GPUFEC_FAMILY_TURBO,
    .backend = GPUFEC_BACKEND_CPU,
    .accepts = accepts,
    .create = create,
    .destroy = destroy,
    .decode = decode,
};
