/* CPU reference backend for any H: flooding and row-layered belief propagation (SPA, MS, NMS,
 * OMS) and the hard-decision decoders (Gallager-A, Gallager-B, PGaB), one frame at a time.
 *
 * Soft state per frame: channel LLRs, posteriors app[j] and one check-to-variable message per
 * edge. Flooding updates every check from the previous iteration's posteriors (v2c = app - c2v),
 * then recomputes every posterior. Layered updates the posteriors of a check's variables as soon
 * as that check is done, so later checks of the same iteration see fresher information. */
#include "cpu_simd.h"
#include "decoder_internal.h"
#include "ldpc_code.h"
#include "ldpc_rules.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
    const decoder_config* dec;
    float* llr;     /* n_full sanitised channel values */
    float* app;     /* n_full posteriors */
    float* c2v;     /* edges check-to-variable messages */
    float* v2c;     /* max_check_degree scratch: the check's incoming messages */
    float* term;    /* max_check_degree scratch: their SPA tanh terms */
    uint8_t* w;     /* hard decoders: channel bits */
    uint8_t* hv2c;  /* hard decoders: variable-to-check bits, per edge */
    uint8_t* hc2v;  /* hard decoders: check-to-variable bits, per edge */
    uint64_t frames_done; /* numbers the frames for the PGaB random source */
    cpu_simd_state* simd; /* vector path, when it applies */
    cpu_simd_i8_state* simd8; /* its int8-precision form */
} cpu_state;

static void cpu_free(cpu_state* s)
{
    if (!s)
        return;
    free(s->llr);
    free(s->app);
    free(s->c2v);
    free(s->v2c);
    free(s->term);
    free(s->w);
    free(s->hv2c);
    free(s->hc2v);
    cpu_simd_destroy(s->simd);
    cpu_simd_i8_destroy(s->simd8);
    free(s);
}

static gpufec_status cpu_create(const decoder_config* dec, void** state, impl_caps* caps)
{
    const ldpc_code* c = ldpc_of(dec->code);
    cpu_state* s = calloc(1, sizeof *s);
    if (!s)
        return GPUFEC_ERR_OUT_OF_MEMORY;
    s->dec = dec;
    const size_t n = c->n, e = (size_t)c->edges + 1;
    s->llr = malloc(n * sizeof *s->llr);
    s->app = malloc(n * sizeof *s->app);
    s->c2v = malloc(e * sizeof *s->c2v);
    s->v2c = malloc(((size_t)c->max_check_degree + 1) * sizeof *s->v2c);
    s->term = malloc(((size_t)c->max_check_degree + 1) * sizeof *s->term);
    s->w = malloc(n);
    s->hv2c = malloc(e);
    s->hc2v = malloc(e);
    if (!s->llr || !s->app || !s->c2v || !s->v2c || !s->term || !s->w || !s->hv2c || !s->hc2v) {
        cpu_free(s);
        return GPUFEC_ERR_OUT_OF_MEMORY;
    }
    const gpufec_decoder_opts* o = &dec->opts;
    const ldpc_opts lo = ldpc_opts_of(o);
    /* The vector paths (NULL if out of memory: the scalar path still works): float32 for SPA and
     * the min-sum family, int8 for the min-sum family. */
    const int ms = ldpc_is_min_sum(lo.algorithm), spa = lo.algorithm == GPUFEC_ALG_SPA;
    const int layered = o->schedule == GPUFEC_SCHEDULE_LAYERED;
    if (lo.cpu_simd && cpu_simd_available()) {
        if (lo.precision == GPUFEC_PRECISION_FLOAT32 && (ms || spa))
            s->simd = cpu_simd_create(c, layered);
        else if (lo.precision == GPUFEC_PRECISION_INT8 && ms && layered)
            s->simd8 = cpu_simd_i8_create(c, lo.cpu_simd == 1);
    }
    /* The erased-frame rule (the front applies it) at fixed point: values below half a step
     * round to nothing (ldpc_channel_says_nothing). */
    caps->erasure_inv_step = ldpc_precision_fixed(lo.precision) ? decoder_inv_step(&lo) : 0.0f;
    caps->asymmetric = ldpc_precision_asymmetric(lo.precision);
    if (s->simd8)
        snprintf(caps->variant, sizeof caps->variant, "%s int8, %d lanes",
                 cpu_simd_i8_lanes(s->simd8) == 64 ? "AVX-512BW" : "AVX2", cpu_simd_i8_lanes(s->simd8));
    else
        snprintf(caps->variant, sizeof caps->variant, "%s", s->simd ? "AVX2 float32, 8 lanes" : "scalar");
    *state = s;
    return GPUFEC_OK;
}

static void cpu_destroy(void* state) { cpu_free(state); }
static void cpu_set_frame_index(void* state, uint64_t next) { ((cpu_state*)state)->frames_done = next; }


/* One check row: reads v2c = app - c2v for its edges, writes new c2v; with `layered` also
 * writes the posteriors back at once. */
static void update_check(const ldpc_code* c, const gpufec_decoder_opts* o, cpu_state* s,
                         uint32_t i, int layered)
{
    const ldpc_opts lo = ldpc_opts_of(o);
    const uint32_t b = c->row_ptr[i], d = c->row_ptr[i + 1] - b;
    float* c2v = s->c2v + b;
    float* v = s->v2c;
    const uint32_t* var = c->edge_var + b;
    const int prec = (int)lo.precision;
    for (uint32_t t = 0; t < d; t++)
        v[t] = ldpc_extrinsic(s->app[var[t]], c2v[t], prec);
    if (lo.algorithm == GPUFEC_ALG_SPA) {
        spa_acc acc;
        spa_init(&acc);
        float* term = s->term;
        for (uint32_t t = 0; t < d; t++) {
            term[t] = spa_term(v[t]);
            spa_push(&acc, term[t]);
        }
        for (uint32_t t = 0; t < d; t++)
            c2v[t] = spa_output(&acc, term[t]);
    } else {
        const int mode = ldpc_rule_mode(&lo);
        const float offset = ldpc_rule_offset(&lo);
        ms_acc acc;
        ms_init_prec(&acc, prec);
        for (uint32_t t = 0; t < d; t++) /* int8: a magnitude beyond the minima's start moves nothing */
            ms_push(&acc, v[t], t);
        for (uint32_t t = 0; t < d; t++)
            c2v[t] = ms_output_prec(&acc, v[t], t, mode, lo.normalization, offset, prec);
    }
    if (layered)
        for (uint32_t t = 0; t < d; t++)
            s->app[var[t]] = ldpc_store(v[t] + c2v[t], prec);
}

static void update_variables(const ldpc_code* c, cpu_state* s)
{
    for (uint32_t j = 0; j < c->n; j++) {
        float sum = s->llr[j];
        for (uint32_t t = c->col_ptr[j]; t < c->col_ptr[j + 1]; t++)
            sum += s->c2v[c->col_edge[t]];
        s->app[j] = sum;
    }
}

static int syndrome_zero(const ldpc_code* c, const uint8_t* hard)
{
    for (uint32_t i = 0; i < c->m; i++) {
        unsigned parity = 0;
        for (uint32_t e = c->row_ptr[i]; e < c->row_ptr[i + 1]; e++)
            parity ^= hard[c->edge_var[e]];
        if (parity)
            return 0;
    }
    return 1;
}

/* Soft decoders; returns iterations run, sets *ok when the decision is a codeword. */
static int decode_soft(const ldpc_code* c, const gpufec_decoder_opts* o, cpu_state* s,
                       uint8_t* out, int* ok)
{
    const ldpc_opts lo = ldpc_opts_of(o);
    const int layered = o->schedule == GPUFEC_SCHEDULE_LAYERED;
    memset(s->c2v, 0, (size_t)c->edges * sizeof *s->c2v);
    const float inv_step = decoder_inv_step(&lo);
    for (uint32_t j = 0; j < c->n; j++)
        s->app[j] = ldpc_channel(s->llr[j], (int)lo.precision, inv_step);
    int it = 0;
    *ok = 0;
    while (it < o->max_iterations) {
        /* Layered: rows in layer order, the order the CUDA backend's layers imply. */
        for (uint32_t r = 0; r < c->m; r++)
            update_check(c, o, s, layered ? c->layer_rows[r] : r, layered);
        if (!layered)
            update_variables(c, s);
        for (uint32_t j = 0; j < c->n; j++)
            out[j] = ldpc_hard_bit(s->app[j]);
        it++;
        if (o->early_termination && it % lo.syndrome_interval == 0 && (*ok = syndrome_zero(c, out)))
            return it;
    }
    *ok = syndrome_zero(c, out);
    return it;
}

/* Hard-decision decoders (seed 003's data / check / APP passes). */
static int decode_hard(const ldpc_code* c, const gpufec_decoder_opts* o, cpu_state* s,
                       uint64_t frame, uint8_t* out, int* ok)
{
    const ldpc_opts lo = ldpc_opts_of(o);
    const uint32_t p24 = (uint32_t)(lo.pgab_p * 16777216.0f);
    for (uint32_t j = 0; j < c->n; j++)
        s->w[j] = ldpc_hard_bit(s->llr[j]);
    int it = 0;
    *ok = 0;
    while (it < o->max_iterations) {
        it++;
        /* Variable pass: the first iteration sends the channel bits. */
        for (uint32_t j = 0; j < c->n; j++) {
            const uint32_t b = c->col_ptr[j], deg = c->col_ptr[j + 1] - b;
            uint32_t w = s->w[j];
            if (it == 1) {
                for (uint32_t t = 0; t < deg; t++)
                    s->hv2c[c->col_edge[b + t]] = (uint8_t)w;
                continue;
            }
            if (lo.algorithm == GPUFEC_ALG_GALLAGER_A) {
                uint32_t disagree = 0;
                for (uint32_t t = 0; t < deg; t++)
                    disagree += s->hc2v[c->col_edge[b + t]] != w;
                for (uint32_t t = 0; t < deg; t++) {
                    uint32_t e = c->col_edge[b + t];
                    s->hv2c[e] = gala_v2c(disagree, deg, s->hc2v[e], w);
                }
                continue;
            }
            /* PGaB perturbs the channel's vote; a tie still keeps the received bit w (seed 003,
             * Algorithm 10: VtoC = W[idx] when buf == 0). */
            uint32_t vote = w;
            if (lo.algorithm == GPUFEC_ALG_PGAB && it >= lo.pgab_start)
                vote ^= pgab_flip(lo.seed, frame, (uint32_t)it, j, p24);
            int total = gal_vote(vote);
            for (uint32_t t = 0; t < deg; t++)
                total += gal_vote(s->hc2v[c->col_edge[b + t]]);
            for (uint32_t t = 0; t < deg; t++) {
                uint32_t e = c->col_edge[b + t];
                s->hv2c[e] = galb_v2c(total, s->hc2v[e], w);
            }
        }
        /* Check pass: each check returns the parity of its other inputs. */
        for (uint32_t i = 0; i < c->m; i++) {
            uint8_t parity = 0;
            for (uint32_t e = c->row_ptr[i]; e < c->row_ptr[i + 1]; e++)
                parity ^= s->hv2c[e];
            for (uint32_t e = c->row_ptr[i]; e < c->row_ptr[i + 1]; e++)
                s->hc2v[e] = parity ^ s->hv2c[e];
        }
        /* Decision from the unperturbed channel bit and all checks. */
        for (uint32_t j = 0; j < c->n; j++) {
            int total = gal_vote(s->w[j]);
            for (uint32_t t = c->col_ptr[j]; t < c->col_ptr[j + 1]; t++)
                total += gal_vote(s->hc2v[c->col_edge[t]]);
            out[j] = gal_decide(total, s->w[j]);
        }
        if (o->early_termination && it % lo.syndrome_interval == 0 && (*ok = syndrome_zero(c, out)))
            return it;
    }
    *ok = syndrome_zero(c, out);
    return it;
}

/* Float32 LLRs (the front widens narrow input types and applies the erased-frame rule). */
static gpufec_status cpu_decode(void* state, const void* soft, size_t n_frames, uint8_t* hard,
                                int32_t* iterations, uint8_t* converged)
{
    cpu_state* s = state;
    const float* llr = soft;
    const ldpc_code* c = ldpc_of(s->dec->code);
    const tx_map* map = &s->dec->code->tx;
    const gpufec_decoder_opts* o = &s->dec->opts;
    const ldpc_opts lo = ldpc_opts_of(o);
    const uint32_t n_tx = map->n_tx;
    if (s->simd)
        cpu_simd_decode(c, map, o, s->simd, llr, n_frames, hard, iterations, converged);
    else if (s->simd8)
        cpu_simd_i8_decode(c, map, o, s->simd8, llr, n_frames, hard, iterations, converged);
    for (size_t f = 0; f < n_frames && !s->simd && !s->simd8; f++) {
        tx_map_expand(map, llr + f * n_tx, s->llr);
        uint8_t* out = hard + f * c->n;
        int ok, it;
        if (ldpc_is_hard(lo.algorithm))
            it = decode_hard(c, o, s, s->frames_done, out, &ok);
        else
            it = decode_soft(c, o, s, out, &ok);
        s->frames_done++;
        if (iterations)
            iterations[f] = it;
        if (converged)
            converged[f] = (uint8_t)ok;
    }
    return GPUFEC_OK;
}

static int cpu_accepts(const decoder_config* cfg, char* why, size_t why_len)
{
    (void)cfg, (void)why, (void)why_len;
    return 1; /* the reference decodes everything the options check allows */
}

const backend_ops ldpc_cpu_ops = {
    .name = "cpu",
    .family = GPUFEC_FAMILY_LDPC,
    .backend = GPUFEC_BACKEND_CPU,
    .accepts = cpu_accepts,
    .create = cpu_create,
    .destroy = cpu_destroy,
    .decode = cpu_decode,
    .set_frame_index = cpu_set_frame_index,
};
