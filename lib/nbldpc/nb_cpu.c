/* CPU reference decoder of GF(q) LDPC codes: FFT-BP or min-max (nb_rules.h), flooding or
 * layered, one frame at a time. Layered runs the checks in the code's layer order, one check
 * at a time: checks of a layer share no variable, so this equals updating a layer at once. */
#include "decoder_internal.h"
#include "nb_code.h"
#include "nb_options.h"
#include "nb_rules.h"

#include <stdlib.h>
#include <string.h>

typedef struct {
    const decoder_config* dec;
    const nb_code* c;
    int fft, layered;
    float *mother, *chan, *post, *c2v, *v2c, *scratch;
    uint8_t* sym;
} nb_cpu;

static void nb_cpu_free(nb_cpu* s)
{
    if (!s)
        return;
    void* p[] = {s->mother, s->chan, s->post, s->c2v, s->v2c, s->scratch, s->sym};
    for (size_t i = 0; i < sizeof p / sizeof *p; i++)
        free(p[i]);
    free(s);
}

static gpufec_status create(const decoder_config* dec, void** state, impl_caps* caps)
{
    (void)caps;
    nb_cpu* s = calloc(1, sizeof *s);
    if (!s)
        return GPUFEC_ERR_OUT_OF_MEMORY;
    s->dec = dec;
    s->c = nb_of(dec->code);
    s->fft = nb_opts_of(&dec->opts).nb_algorithm == GPUFEC_NB_FFT_BP;
    s->layered = dec->opts.schedule == GPUFEC_SCHEDULE_LAYERED;
    const size_t q = s->c->gf.q, n = s->c->n, E = s->c->edges;
    s->mother = malloc(dec->code->n_full * sizeof(float));
    s->chan = malloc(n * q * sizeof(float));
    s->post = malloc(n * q * sizeof(float));
    s->c2v = malloc(E * q * sizeof(float));
    s->v2c = malloc(E * q * sizeof(float));
    s->scratch = malloc(nb_check_scratch_floats((uint32_t)q, s->c->max_check_degree) * sizeof(float));
    s->sym = malloc(n);
    if (!s->mother || !s->chan || !s->post || !s->c2v || !s->v2c || !s->scratch || !s->sym) {
        nb_cpu_free(s);
        return GPUFEC_ERR_OUT_OF_MEMORY;
    }
    *state = s;
    return GPUFEC_OK;
}

static void destroy(void* state) { nb_cpu_free(state); }

/* Decisions from the posteriors; 1 when they satisfy every check. */
static int decide(nb_cpu* s)
{
    const uint32_t q = s->c->gf.q;
    for (uint32_t j = 0; j < s->c->n; j++) {
        const float* v = s->post + (size_t)j * q;
        uint32_t best = 0;
        for (uint32_t a = 1; a < q; a++)
            if (v[a] < v[best])
                best = a;
        s->sym[j] = (uint8_t)best;
    }
    return nb_syndrome_weight_sym(s->c, s->sym) == 0;
}

/* One check, layered: its inputs from the posteriors less its previous outputs, then the
 * posteriors from its inputs plus its new outputs. */
static void layered_check(nb_cpu* s, uint32_t i)
{
    const nb_code* c = s->c;
    const uint32_t q = c->gf.q, e0 = c->row_ptr[i], d = c->row_ptr[i + 1] - e0;
    float* V = s->v2c + (size_t)e0 * q;
    float* C = s->c2v + (size_t)e0 * q;
    for (uint32_t t = 0; t < d; t++) {
        const float* post = s->post + (size_t)c->edge_var[e0 + t] * q;
        for (uint32_t a = 0; a < q; a++)
            V[(size_t)t * q + a] = post[a] - C[(size_t)t * q + a];
        nb_normalise(V + (size_t)t * q, q);
    }
    nb_check_update(&c->gf, s->fft, V, c->edge_coef + e0, d, C, s->scratch);
    for (uint32_t t = 0; t < d; t++) {
        float* post = s->post + (size_t)c->edge_var[e0 + t] * q;
        for (uint32_t a = 0; a < q; a++)
            post[a] = V[(size_t)t * q + a] + C[(size_t)t * q + a];
    }
}

/* One flooding iteration: every check from the variables' last messages, then the posteriors
 * and every variable's new messages. */
static void flooding_iteration(nb_cpu* s)
{
    const nb_code* c = s->c;
    const uint32_t q = c->gf.q;
    for (uint32_t i = 0; i < c->m; i++) {
        const uint32_t e0 = c->row_ptr[i];
        nb_check_update(&c->gf, s->fft, s->v2c + (size_t)e0 * q, c->edge_coef + e0, c->row_ptr[i + 1] - e0,
                        s->c2v + (size_t)e0 * q, s->scratch);
    }
    for (uint32_t j = 0; j < c->n; j++) {
        float* post = s->post + (size_t)j * q;
        memcpy(post, s->chan + (size_t)j * q, q * sizeof(float));
        for (uint32_t t = c->col_ptr[j]; t < c->col_ptr[j + 1]; t++) {
            const float* C = s->c2v + (size_t)c->col_edge[t] * q;
            for (uint32_t a = 0; a < q; a++)
                post[a] += C[a];
        }
        for (uint32_t t = c->col_ptr[j]; t < c->col_ptr[j + 1]; t++) {
            const size_t e = c->col_edge[t];
            float* V = s->v2c + e * q;
            for (uint32_t a = 0; a < q; a++)
                V[a] = post[a] - s->c2v[e * q + a];
            nb_normalise(V, q);
        }
    }
}

static void decode_frame(nb_cpu* s, const float* frame, uint8_t* out, int32_t* iterations, uint8_t* converged)
{
    const nb_code* c = s->c;
    const uint32_t q = c->gf.q, p = c->gf.p;
    const tx_map_view map = tx_map_host_view(&s->dec->code->tx);
    for (uint32_t j = 0; j < s->dec->code->n_full; j++)
        s->mother[j] = tx_map_value(map, j, frame);
    for (uint32_t j = 0; j < c->n; j++) {
        float* ch = s->chan + (size_t)j * q;
        for (uint32_t a = 0; a < q; a++)
            ch[a] = nb_symbol_cost(s->mother + (size_t)j * p, p, a);
        nb_normalise(ch, q);
        memcpy(s->post + (size_t)j * q, ch, q * sizeof(float));
    }
    memset(s->c2v, 0, (size_t)c->edges * q * sizeof(float));
    for (uint32_t e = 0; e < c->edges; e++)
        memcpy(s->v2c + (size_t)e * q, s->chan + (size_t)c->edge_var[e] * q, q * sizeof(float));
    int it = 0, ok = decide(s);
    const int max_it = s->dec->opts.max_iterations;
    while (it < max_it && !(ok && s->dec->opts.early_termination)) {
        if (s->layered)
            for (uint32_t l = 0; l < c->layers; l++)
                for (uint32_t r = c->layer_ptr[l]; r < c->layer_ptr[l + 1]; r++)
                    layered_check(s, c->layer_rows[r]);
        else
            flooding_iteration(s);
        it++;
        ok = decide(s);
    }
    nb_symbols_to_bits(c, s->sym, out);
    if (iterations)
        *iterations = it;
    if (converged)
        *converged = (uint8_t)ok;
}

/* Float32 LLRs (the front widens narrow input types and applies the erased-frame rule). */
static gpufec_status decode(void* state, const void* soft, size_t n_frames, uint8_t* out, int32_t* iterations,
                            uint8_t* converged)
{
    nb_cpu* s = state;
    const size_t n_tx = s->dec->code->tx.n_tx, n_full = s->dec->code->n_full;
    for (size_t f = 0; f < n_frames; f++)
        decode_frame(s, (const float*)soft + f * n_tx, out + f * n_full, iterations ? iterations + f : NULL,
                     converged ? converged + f : NULL);
    return GPUFEC_OK;
}

static int accepts(const decoder_config* cfg, char* why, size_t why_len)
{
    (void)cfg, (void)why, (void)why_len;
    return 1;
}

const backend_ops nbldpc_cpu_ops = {
    .name = "cpu",
    .family = GPUFEC_FAMILY_NBLDPC,
    .backend = GPUFEC_BACKEND_CPU,
    .accepts = accepts,
    .create = create,
    .destroy = destroy,
    .decode = decode,
};
