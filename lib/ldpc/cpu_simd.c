/* Vectorised CPU path: MS / NMS / OMS and SPA, row-layered or flooding, with 8 frames per AVX2
 * register.
 *
 * Every per-edge operation is the scalar rule of ldpc_rules.h applied lane by lane (the same
 * IEEE float operations in the same order), so the results are bit-exact with the scalar
 * decoder, iteration counts included: a lane whose frame has converged is frozen by a mask
 * rather than iterated further. Compiled with target("avx2") and chosen at run time; machines
 * without AVX2 use the scalar decoder. */
#include "cpu_simd.h"
#include "ldpc_rules.h"

#include <stdlib.h>
#include <string.h>

#if defined(__GNUC__) && (defined(__x86_64__) || defined(__i386__))
#define GPUFEC_SIMD_X86 1
#endif

int cpu_simd_visit_order(const ldpc_code* c, uint32_t pad, int layered, uint32_t** deg, uint32_t** var)
{
    *deg = malloc(((size_t)c->m + 1) * sizeof **deg);
    *var = calloc((size_t)c->edges + pad, sizeof **var);
    if (!*deg || !*var)
        return 0;
    for (uint32_t r = 0, p = 0; r < c->m; r++) {
        const uint32_t i = layered ? c->layer_rows[r] : r;
        (*deg)[r] = c->row_ptr[i + 1] - c->row_ptr[i];
        for (uint32_t e = c->row_ptr[i]; e < c->row_ptr[i + 1]; e++)
            (*var)[p++] = c->edge_var[e];
    }
    return 1;
}

#ifdef GPUFEC_SIMD_X86

typedef float v8f __attribute__((vector_size(32), aligned(32)));
typedef int32_t v8i __attribute__((vector_size(32), aligned(32)));
#define LANES 8

#define SIMD_FN __attribute__((target("avx2")))

SIMD_FN static inline v8f sel(v8i mask, v8f a, v8f b)
{
    return (v8f)(((v8i)a & mask) | ((v8i)b & ~mask));
}

SIMD_FN static inline v8i seli(v8i mask, v8i a, v8i b) { return (a & mask) | (b & ~mask); }

struct cpu_simd_state {
    v8f* llr;  /* n */
    v8f* app;  /* n */
    v8f* c2v;  /* edges */
    v8f* v;    /* max_check_degree */
    v8f* term; /* max_check_degree: SPA's tanh terms, computed once per edge */
    uint32_t *deg, *var; /* cpu_simd_visit_order */
    int layered;         /* else flooding: rows in index order, so that c2v[e] is edge e's */
};

#define PREFETCH_AHEAD 16

int cpu_simd_available(void) { return __builtin_cpu_supports("avx2"); }

cpu_simd_state* cpu_simd_create(const ldpc_code* c, int layered)
{
    cpu_simd_state* s = calloc(1, sizeof *s);
    if (!s)
        return NULL;
    s->layered = layered;
    s->llr = aligned_alloc(32, ((size_t)c->n + 1) * sizeof(v8f));
    s->app = aligned_alloc(32, ((size_t)c->n + 1) * sizeof(v8f));
    s->c2v = aligned_alloc(32, ((size_t)c->edges + 1) * sizeof(v8f));
    s->v = aligned_alloc(32, ((size_t)c->max_check_degree + 1) * sizeof(v8f));
    s->term = aligned_alloc(32, ((size_t)c->max_check_degree + 1) * sizeof(v8f));
    if (!cpu_simd_visit_order(c, PREFETCH_AHEAD, layered, &s->deg, &s->var) || !s->llr || !s->app || !s->c2v ||
        !s->v ||
        !s->term) {
        cpu_simd_destroy(s);
        return NULL;
    }
    return s;
}

void cpu_simd_destroy(cpu_simd_state* s)
{
    if (!s)
        return;
    free(s->llr);
    free(s->app);
    free(s->c2v);
    free(s->v);
    free(s->term);
    free(s->deg);
    free(s->var);
    free(s);
}

/* Lane-wise copies of ldpc_exp_neg, ldpc_log_ge1, spa_term and spa_output (ldpc_rules.h):
 * the same float operations in the same order, so the same results. */
SIMD_FN static inline v8f v_exp_neg(v8f x)
{
    v8f t = x * 1.44269504f;
    v8f k = __builtin_convertvector(__builtin_convertvector(t - 0.5f, v8i), v8f);
    v8f f = t - k;
    v8i adj = (v8i)(f > 0.5f);
    f = sel(adj, f - 1.0f, f);
    k = sel(adj, k + 1.0f, k);
    v8f p = 1.0f + f * (0.69314718f + f * (0.24022651f + f * (0.05550411f +
            f * (0.00961813f + f * (0.00133336f + f * 0.00015404f)))));
    v8i ki = __builtin_convertvector(k, v8i);
    v8f r = (v8f)((v8i)p + ki * (1 << 23));
    return sel(ki < -126, (v8f){0}, r);
}

SIMD_FN static inline v8f v_log_ge1(v8f y)
{
    v8i u = (v8i)y;
    v8i e = ((u >> 23) & 0xff) - 127;
    v8f m = (v8f)((u & 0x007fffff) | 0x3f800000);
    v8i big = (v8i)(m > 1.41421356f);
    m = sel(big, m * 0.5f, m);
    e = e - big; /* big lanes are -1: e + 1 */
    v8f s = (m - 1.0f) / (m + 1.0f), s2 = s * s;
    v8f l = 2.0f * s * (1.0f + s2 * (0.33333333f + s2 * (0.2f + s2 * (0.14285714f + s2 * 0.11111111f))));
    return __builtin_convertvector(e, v8f) * 0.69314718f + l;
}

SIMD_FN static inline v8f v_spa_term(v8f v, v8i absmask)
{
    v8f a = (v8f)((v8i)v & absmask);
    v8f x = v_exp_neg(-sel((v8i)(a < 80.0f), a, (v8f){0} + 80.0f));
    v8f t = (1.0f - x) / (1.0f + x);
    return sel((v8i)(v < 0.0f), -t, t);
}

/* Lanes whose hard decisions satisfy every check: -1, else 0. */
SIMD_FN static v8i lanes_converged(const ldpc_code* c, const v8f* app)
{
    v8i bad = {0};
    for (uint32_t i = 0; i < c->m; i++) {
        v8i parity = {0};
        for (uint32_t e = c->row_ptr[i]; e < c->row_ptr[i + 1]; e++)
            parity ^= (v8i)(app[c->edge_var[e]] < 0.0f);
        bad |= parity;
    }
    return ~bad;
}

/* SPA rows: product of the non-zero terms and a zero count, then each edge's extrinsic value. */
SIMD_FN static void spa_row(cpu_simd_state* s, v8f* c2v, const uint32_t* var, uint32_t d, v8i active,
                            v8i absmask)
{
    v8f prod = (v8f){0} + 1.0f;
    v8i zeros = {0};
    for (uint32_t t = 0; t < d; t++) {
        v8f v = s->app[var[t]] - c2v[t];
        s->v[t] = v;
        v8f term = v_spa_term(v, absmask);
        s->term[t] = term;
        v8i z = (v8i)(term == 0.0f);
        zeros -= z;
        prod = sel(z, prod, prod * term);
    }
    for (uint32_t t = 0; t < d; t++) {
        v8f v = s->v[t];
        v8f term = s->term[t];
        v8i tz = (v8i)(term == 0.0f);
        v8f p = sel(zeros == 0, prod / term, sel((zeros == 1) & tz, prod, (v8f){0}));
        v8i none = (zeros > 1) | ((zeros == 1) & ~tz);
        v8f q = (v8f)((v8i)p & absmask);
        q = sel((v8i)(q < GPUFEC_SPA_CLAMP), q, (v8f){0} + GPUFEC_SPA_CLAMP);
        v8f r = v_log_ge1((1.0f + q) / (1.0f - q));
        v8f out = sel((v8i)(p < 0.0f), -r, r);
        out = sel(none, (v8f){0}, out);
        c2v[t] = sel(active, out, c2v[t]);
        if (s->layered)
            s->app[var[t]] = sel(active, v + out, s->app[var[t]]);
    }
}

SIMD_FN static void check_pass(const ldpc_code* c, const gpufec_decoder_opts* o,
                                 cpu_simd_state* s, v8i active)
{
    const ldpc_opts lo = ldpc_opts_of(o);
    const v8i sign = (v8i){0} + (int32_t)0x80000000u, absmask = ~sign;
    const int mode = ldpc_ms_mode(lo.algorithm);
    const v8f scale = (v8f){0} + lo.normalization, offset = (v8f){0} + lo.offset, zero = {0};
    const v8f inf = (v8f){0} + INFINITY;
    v8f* c2v = s->c2v;
    const uint32_t* var = s->var;
    for (uint32_t r = 0, d = 0; r < c->m; r++, c2v += d, var += d) {
        d = s->deg[r];
        for (uint32_t t = 0; t < d; t++)
            __builtin_prefetch(s->app + var[t + PREFETCH_AHEAD]);
        if (lo.algorithm == GPUFEC_ALG_SPA) {
            spa_row(s, c2v, var, d, active, absmask);
            continue;
        }
        v8f min1 = inf, min2 = inf;
        v8i arg1 = (v8i){0} - 1, parity = {0};
        for (uint32_t t = 0; t < d; t++) {
            v8f v = s->app[var[t]] - c2v[t];
            s->v[t] = v;
            v8f m = (v8f)((v8i)v & absmask);
            parity ^= (v8i)(v < 0.0f);
            v8i lt1 = (v8i)(m < min1), lt2 = (v8i)(m < min2);
            min2 = sel(lt1, min1, sel(lt2, m, min2));
            min1 = sel(lt1, m, min1);
            arg1 = seli(lt1, (v8i){0} + (int32_t)t, arg1);
        }
        for (uint32_t t = 0; t < d; t++) {
            v8f v = s->v[t];
            v8f m = sel(arg1 == (int32_t)t, min2, min1);
            if (mode == 1)
                m = m * scale;
            else if (mode == 2) {
                v8f x = m - offset;
                m = sel((v8i)(x > zero), x, zero);
            }
            v8i neg = parity ^ (v8i)(v < 0.0f);
            v8f out = (v8f)((v8i)m ^ (neg & sign));
            c2v[t] = sel(active, out, c2v[t]);
            if (s->layered)
                s->app[var[t]] = sel(active, v + out, s->app[var[t]]);
        }
    }
}

/* Flooding's variable pass, as the scalar update_variables: the channel value plus the column's
 * messages in column order. */
SIMD_FN static void variable_pass(const ldpc_code* c, cpu_simd_state* s, v8i active)
{
    for (uint32_t j = 0; j < c->n; j++) {
        v8f sum = s->llr[j];
        for (uint32_t t = c->col_ptr[j]; t < c->col_ptr[j + 1]; t++)
            sum += s->c2v[c->col_edge[t]];
        s->app[j] = sel(active, sum, s->app[j]);
    }
}

SIMD_FN static void decode_group(const ldpc_code* c, const tx_map* map, const gpufec_decoder_opts* o,
                                 cpu_simd_state* s, const float* llr, size_t nf, uint8_t* hard,
                                 int32_t* iterations, uint8_t* converged)
{
    const ldpc_opts lo = ldpc_opts_of(o);
    const uint32_t n_tx = map->n_tx;
    const tx_map_view view = tx_map_host_view(map);
    for (uint32_t j = 0; j < c->n; j++)
        s->llr[j] = (v8f){0};
    for (size_t f = 0; f < nf; f++) {
        const float* in = llr + f * n_tx;
        for (uint32_t j = 0; j < c->n; j++)
            s->llr[j][f] = tx_map_value(view, j, in);
    }
    memcpy(s->app, s->llr, (size_t)c->n * sizeof(v8f));
    memset(s->c2v, 0, (size_t)c->edges * sizeof(v8f));
    v8i active = {0}, iters = {0};
    for (size_t f = 0; f < nf; f++)
        active[f] = -1;
    v8i done_ok = {0};
    for (int it = 0; it < o->max_iterations; it++) {
        check_pass(c, o, s, active);
        if (!s->layered)
            variable_pass(c, s, active);
        iters -= active; /* active lanes are -1 */
        if (o->early_termination && (it + 1) % lo.syndrome_interval == 0) {
            v8i ok = lanes_converged(c, s->app) & active;
            done_ok |= ok;
            active &= ~ok;
            int any = 0;
            for (size_t f = 0; f < nf; f++)
                any |= active[f];
            if (!any)
                break;
        }
    }
    /* Frames still running after the last iteration: their flag is the final syndrome (the last
     * iteration need not have been a check point; without early stopping none was). */
    done_ok |= lanes_converged(c, s->app) & active;
    for (size_t f = 0; f < nf; f++) {
        uint8_t* out = hard + f * c->n;
        for (uint32_t j = 0; j < c->n; j++)
            out[j] = ldpc_hard_bit(s->app[j][f]);
        if (iterations)
            iterations[f] = iters[f];
        if (converged)
            converged[f] = (uint8_t)(done_ok[f] != 0);
    }
}

void cpu_simd_decode(const ldpc_code* c, const tx_map* map, const gpufec_decoder_opts* o, cpu_simd_state* s,
                     const float* llr, size_t n_frames, uint8_t* hard, int32_t* iterations,
                     uint8_t* converged)
{
    for (size_t f = 0; f < n_frames; f += LANES) {
        size_t nf = n_frames - f < LANES ? n_frames - f : LANES;
        decode_group(c, map, o, s, llr + f * map->n_tx, nf, hard + f * c->n,
                     iterations ? iterations + f : NULL, converged ? converged + f : NULL);
    }
}

#else /* no x86 SIMD: the scalar decoder is used */

int cpu_simd_available(void) { return 0; }
cpu_simd_state* cpu_simd_create(const ldpc_code* c, int layered)
{
    (void)c, (void)layered;
    return NULL;
}
void cpu_simd_destroy(cpu_simd_state* s) { (void)s; }
void cpu_simd_decode(const ldpc_code* c, const tx_map* map, const gpufec_decoder_opts* o, cpu_simd_state* s,
                     const float* llr, size_t n_frames, uint8_t* hard, int32_t* iterations,
                     uint8_t* converged)
{
    (void)c, (void)map, (void)o, (void)s, (void)llr, (void)n_frames, (void)hard, (void)iterations, (void)converged;
}

#endif
