/* CPU reference backend: flooding-schedule belief propagation (SPA, MS, NMS, OMS) for any H.
 *
 * State per frame: the channel LLRs, the posterior app[j] and one check-to-variable message per
 * edge. An iteration updates every check from the previous iteration's posteriors
 * (v2c = app - c2v, the extrinsic rule), then recomputes every posterior from the new messages. */
#include "decoder_internal.h"
#include "ldpc_rules.h"

#include <stdlib.h>
#include <string.h>

typedef struct {
    float* llr; /* n sanitised channel values */
    float* app; /* n posteriors */
    float* c2v; /* edges check-to-variable messages */
    float* v2c; /* max_check_degree scratch */
    uint8_t* hard;
} cpu_state;

static gpufec_status cpu_create(gpufec_decoder* dec)
{
    const gpufec_code* c = dec->code;
    cpu_state* s = calloc(1, sizeof *s);
    if (!s)
        return GPUFEC_ERR_OUT_OF_MEMORY;
    s->llr = malloc(c->n * sizeof *s->llr);
    s->app = malloc(c->n * sizeof *s->app);
    s->c2v = malloc(((size_t)c->edges + 1) * sizeof *s->c2v);
    s->v2c = malloc(((size_t)c->max_check_degree + 1) * sizeof *s->v2c);
    if (!s->llr || !s->app || !s->c2v || !s->v2c) {
        free(s->llr);
        free(s->app);
        free(s->c2v);
        free(s->v2c);
        free(s);
        return GPUFEC_ERR_OUT_OF_MEMORY;
    }
    dec->impl = s;
    return GPUFEC_OK;
}

static void cpu_destroy(gpufec_decoder* dec)
{
    cpu_state* s = dec->impl;
    if (!s)
        return;
    free(s->llr);
    free(s->app);
    free(s->c2v);
    free(s->v2c);
    free(s);
    dec->impl = NULL;
}

static void update_checks(const gpufec_code* c, const gpufec_decoder_opts* o, cpu_state* s)
{
    const int mode = o->algorithm == GPUFEC_ALG_NMS ? 1 : o->algorithm == GPUFEC_ALG_OMS ? 2 : 0;
    for (uint32_t i = 0; i < c->m; i++) {
        const uint32_t b = c->row_ptr[i], d = c->row_ptr[i + 1] - b;
        float* c2v = s->c2v + b;
        const uint32_t* var = c->edge_var + b;
        if (o->algorithm == GPUFEC_ALG_SPA) {
            spa_acc acc;
            spa_init(&acc);
            for (uint32_t t = 0; t < d; t++) {
                s->v2c[t] = spa_term(s->app[var[t]] - c2v[t]);
                spa_push(&acc, s->v2c[t]);
            }
            for (uint32_t t = 0; t < d; t++)
                c2v[t] = spa_output(&acc, s->v2c[t]);
        } else {
            ms_acc acc;
            ms_init(&acc);
            for (uint32_t t = 0; t < d; t++) {
                s->v2c[t] = s->app[var[t]] - c2v[t];
                ms_push(&acc, s->v2c[t], t);
            }
            for (uint32_t t = 0; t < d; t++)
                c2v[t] = ms_output(&acc, s->v2c[t], t, mode, o->normalization, o->offset);
        }
    }
}

static void update_variables(const gpufec_code* c, cpu_state* s, uint8_t* hard)
{
    for (uint32_t j = 0; j < c->n; j++) {
        float sum = s->llr[j];
        for (uint32_t t = c->col_ptr[j]; t < c->col_ptr[j + 1]; t++)
            sum += s->c2v[c->col_edge[t]];
        s->app[j] = sum;
        hard[j] = ldpc_hard_bit(sum);
    }
}

static int syndrome_zero(const gpufec_code* c, const uint8_t* hard)
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

static gpufec_status cpu_decode(gpufec_decoder* dec, const float* llr, size_t n_frames,
                                uint8_t* hard, int32_t* iterations, uint8_t* converged)
{
    const gpufec_code* c = dec->code;
    const gpufec_decoder_opts* o = &dec->opts;
    cpu_state* s = dec->impl;
    for (size_t f = 0; f < n_frames; f++) {
        const float* in = llr + f * c->n;
        uint8_t* out = hard + f * c->n;
        for (uint32_t j = 0; j < c->n; j++)
            s->app[j] = s->llr[j] = ldpc_sanitize_llr(in[j]);
        memset(s->c2v, 0, (size_t)c->edges * sizeof *s->c2v);
        int it = 0, ok = 0;
        while (it < o->max_iterations) {
            update_checks(c, o, s);
            update_variables(c, s, out);
            it++;
            if (o->early_termination && (ok = syndrome_zero(c, out)))
                break;
        }
        if (!o->early_termination)
            ok = syndrome_zero(c, out);
        if (iterations)
            iterations[f] = it;
        if (converged)
            converged[f] = (uint8_t)ok;
    }
    return GPUFEC_OK;
}

const backend_ops cpu_backend_ops = {"cpu", cpu_create, cpu_destroy, cpu_decode};
