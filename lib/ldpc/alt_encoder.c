/* Generic systematic encoder for any parity-check matrix, by approximate lower triangulation
 * (Richardson and Urbanke, "Efficient encoding of low-density parity-check codes", 2001).
 *
 * Opening a code runs the analysis, which every user needs (it fixes rank(H), k and the
 * information positions) and costs O(edges) plus a dense part of g x g bits, where g is the gap:
 *  1. Peeling. A check with one unknown variable determines it; such (check, variable) pairs
 *     are the steps of a triangular back-substitution. When no check has one unknown, the
 *     lowest-numbered unknown of the check of fewest unknowns is declared free.
 *     Checks never used as a step are the g gap rows.
 *  2. Gap. Free variables are information or the rest of the parity. Eliminating the steps from
 *     the gap rows leaves g equations S x_free = 0 over the free variables. Scanning free
 *     columns from the highest number down, the columns that raise the rank of S become parity;
 *     the others carry information. rank(H) = steps + rank(S), also for redundant rows.
 * Parity on the right is preferred: a first peeling declares columns 0 .. n-m-1 free in order,
 * so a matrix whose last m columns are non-singular (the standard codes) keeps its information
 * in the first k positions, as the right-to-left greedy basis would. When that leaves a costly
 * gap (random codes, whose last m columns peel badly), a peeling without that constraint is used.
 *
 * The encoder tables (the basis of S with the combination of pivot columns behind each vector)
 * are built on the first encode, once, under the code's lock: decoders never pay for them.
 * Encoding a frame is two back-substitutions (O(edges)) and g^2/64 word operations. */
#include "ldpc_code.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

struct alt_plan {
    uint32_t steps;     /* step s: variable step_var[s] = sum of the other variables of row step_row[s] */
    uint32_t* step_row;
    uint32_t* step_var;
    uint32_t g;         /* gap rows */
    uint32_t* gap_row;
    uint32_t gap_rank;  /* rank of S */
    uint32_t* gap_col;  /* gap_rank free variables that are parity */
    /* Encoder tables, built by the first encode. */
    pthread_mutex_t lock;
    atomic_int ready;   /* 1: tables built (or build_status holds why not) */
    gpufec_status build_status;
    uint32_t gw, cw;    /* words per basis vector (g bits), per combination (gap_rank bits) */
    uint64_t* basis;    /* gap_rank vectors, fully reduced: basis j is 0 at lead[i] for i != j */
    uint32_t* lead;
    uint64_t* comb;     /* basis j = sum of the S columns of gap_col[t] for the bits t of comb j */
};

/* A back-substitution reads the graph in random order: one edge costs about as much as this many
 * sequential word operations (measured), which the work limit counts. */
#define EDGE_COST 8u

static inline int bit_at(const uint64_t* v, uint32_t i) { return (int)((v[i >> 6] >> (i & 63)) & 1u); }

/* Sum over GF(2) of the values of row r's variables: 64 lanes at once, or one bit per byte. */
static inline uint64_t row_sum64(const ldpc_code* c, const uint64_t* val, uint32_t r)
{
    uint64_t acc = 0;
    for (uint32_t e = c->row_ptr[r]; e < c->row_ptr[r + 1]; e++)
        acc ^= val[c->edge_var[e]];
    return acc;
}

static inline uint8_t row_sum8(const ldpc_code* c, const uint8_t* x, uint32_t r)
{
    uint8_t acc = 0;
    for (uint32_t e = c->row_ptr[r]; e < c->row_ptr[r + 1]; e++)
        acc ^= x[c->edge_var[e]];
    return acc;
}

/* ---- 1. peeling ------------------------------------------------------------------------ */

typedef struct {
    const ldpc_code* c;
    uint32_t* deg;    /* unknown variables of each row */
    uint8_t* known;
    uint8_t* stepped; /* row used as a step */
    /* Rows bucketed by deg: bucket d = order[bstart[d] .. bstart[d+1]), pos[r] = index of r.
     * deg only falls by one at a time, which moves a row to the end of the bucket below in O(1). */
    uint32_t* order;
    uint32_t* pos;
    uint32_t* bstart;
    uint32_t lo;      /* no row of degree >= 2 lies below bucket lo */
    uint32_t* cursor; /* edges of a row before its cursor are known (rows list variables in order) */
    uint32_t n_free, n_steps;
    uint32_t* free_var;
    uint32_t* step_row;
    uint32_t* step_var;
} peel;

static void peel_free(peel* p)
{
    free(p->deg);
    free(p->known);
    free(p->stepped);
    free(p->order);
    free(p->pos);
    free(p->bstart);
    free(p->cursor);
    free(p->free_var);
    free(p->step_row);
    free(p->step_var);
    memset(p, 0, sizeof *p);
}

static void decrement(peel* p, uint32_t r)
{
    const uint32_t d = p->deg[r], first = p->bstart[d], other = p->order[first];
    p->order[first] = r;
    p->order[p->pos[r]] = other;
    p->pos[other] = p->pos[r];
    p->pos[r] = first;
    p->bstart[d]++;
    p->deg[r] = d - 1;
    if (d - 1 >= 2 && d - 1 < p->lo)
        p->lo = d - 1;
}

static void make_known(peel* p, uint32_t v)
{
    const ldpc_code* c = p->c;
    p->known[v] = 1;
    for (uint32_t t = c->col_ptr[v]; t < c->col_ptr[v + 1]; t++) {
        const uint32_t e = c->col_edge[t];
        /* the row of edge e: edges are check-major, so search row_ptr */
        uint32_t lo = 0, hi = c->m;
        while (hi - lo > 1) {
            const uint32_t mid = (lo + hi) / 2;
            if (c->row_ptr[mid] <= e)
                lo = mid;
            else
                hi = mid;
        }
        decrement(p, lo);
    }
}

static void declare_free(peel* p, uint32_t v)
{
    p->free_var[p->n_free++] = v;
    make_known(p, v);
}

static gpufec_status peel_run(peel* p, const ldpc_code* c, uint32_t predeclared)
{
    const uint32_t m = c->m, n = c->n, maxd = c->max_check_degree;
    memset(p, 0, sizeof *p);
    p->c = c;
    p->deg = malloc(((size_t)m + 1) * sizeof *p->deg);
    p->known = calloc((size_t)n + 1, 1);
    p->stepped = calloc((size_t)m + 1, 1);
    p->order = malloc(((size_t)m + 1) * sizeof *p->order);
    p->pos = malloc(((size_t)m + 1) * sizeof *p->pos);
    p->bstart = calloc((size_t)maxd + 2, sizeof *p->bstart);
    p->free_var = malloc(((size_t)n + 1) * sizeof *p->free_var);
    p->cursor = malloc(((size_t)m + 1) * sizeof *p->cursor);
    p->step_row = malloc(((size_t)m + 1) * sizeof *p->step_row);
    p->step_var = malloc(((size_t)m + 1) * sizeof *p->step_var);
    if (!p->deg || !p->known || !p->stepped || !p->order || !p->pos || !p->bstart || !p->cursor || !p->free_var ||
        !p->step_row || !p->step_var) {
        peel_free(p);
        return GPUFEC_ERR_OUT_OF_MEMORY;
    }
    /* counting sort of the rows by degree */
    for (uint32_t r = 0; r < m; r++) {
        p->cursor[r] = c->row_ptr[r];
        p->deg[r] = c->row_ptr[r + 1] - c->row_ptr[r];
        p->bstart[p->deg[r] + 1]++;
    }
    for (uint32_t d = 0; d <= maxd; d++)
        p->bstart[d + 1] += p->bstart[d];
    {
        uint32_t* fill = calloc((size_t)maxd + 1, sizeof *fill);
        if (!fill) {
            peel_free(p);
            return GPUFEC_ERR_OUT_OF_MEMORY;
        }
        for (uint32_t r = 0; r < m; r++) {
            const uint32_t at = p->bstart[p->deg[r]] + fill[p->deg[r]]++;
            p->order[at] = r;
            p->pos[r] = at;
        }
        free(fill);
    }
    p->lo = 2;
    for (uint32_t v = 0; v < predeclared && v < n; v++)
        declare_free(p, v);
    for (;;) {
        if (p->bstart[2] > p->bstart[1]) { /* a row with one unknown: a step */
            const uint32_t r = p->order[p->bstart[1]];
            uint32_t v = n;
            for (uint32_t e = c->row_ptr[r]; e < c->row_ptr[r + 1]; e++)
                if (!p->known[c->edge_var[e]])
                    v = c->edge_var[e];
            if (v == n)
                return GPUFEC_ERR_INTERNAL;
            p->stepped[r] = 1;
            p->step_row[p->n_steps] = r;
            p->step_var[p->n_steps++] = v;
            make_known(p, v);
            continue;
        }
        while (p->lo <= maxd && p->bstart[p->lo + 1] == p->bstart[p->lo])
            p->lo++;
        if (p->lo > maxd)
            break;
        /* Stuck: the row of fewest unknowns gets its lowest-numbered unknown declared free, one
         * at a time, stepping every row this leaves with one unknown before the next: a row
         * then only goes unused when two rows resolve the same variable. */
        const uint32_t r = p->order[p->bstart[p->lo]];
        uint32_t e = p->cursor[r];
        while (p->known[c->edge_var[e]])
            e++;
        p->cursor[r] = e + 1;
        declare_free(p, c->edge_var[e]);
    }
    for (uint32_t v = 0; v < n; v++) /* in no row with unknowns left: free */
        if (!p->known[v])
            declare_free(p, v);
    return GPUFEC_OK;
}

/* ---- 2. the gap -------------------------------------------------------------------------- */

/* S columns of up to 64 free variables at once, one bit lane each: out[i] bit b = row i of the
 * S column of cols[b]. val is n words of scratch, zero on entry and on return. */
static void s_columns(const ldpc_code* c, const struct alt_plan* a, const uint32_t* cols,
                      uint32_t count, uint64_t* val, uint64_t* out)
{
    for (uint32_t b = 0; b < count; b++)
        val[cols[b]] = 1ull << b;
    for (uint32_t s = 0; s < a->steps; s++) /* val of the step variable is 0 until here, so the */
        val[a->step_var[s]] = row_sum64(c, val, a->step_row[s]); /* row sum is that of the others */
    for (uint32_t i = 0; i < a->g; i++)
        out[i] = row_sum64(c, val, a->gap_row[i]);
    for (uint32_t b = 0; b < count; b++)
        val[cols[b]] = 0;
    for (uint32_t s = 0; s < a->steps; s++)
        val[a->step_var[s]] = 0;
}

/* Fully reduced basis of S columns. Adds v (gw words; its combination vc, cw words, when comb
 * is kept) when it is independent; returns 1 then. */
typedef struct {
    uint32_t gw, cw, rank;
    uint64_t* basis;
    uint32_t* lead;
    uint64_t* comb; /* NULL: combinations not tracked */
} gf2_basis;

static int basis_insert(gf2_basis* B, uint64_t* v, uint64_t* vc)
{
    const uint32_t gw = B->gw, cw = B->cw;
    for (uint32_t j = 0; j < B->rank; j++)
        if (bit_at(v, B->lead[j])) {
            const uint64_t* b = B->basis + (size_t)j * gw;
            for (uint32_t w = 0; w < gw; w++)
                v[w] ^= b[w];
            if (B->comb)
                for (uint32_t w = 0; w < cw; w++)
                    vc[w] ^= B->comb[(size_t)j * cw + w];
        }
    uint32_t l = 0;
    while (l < gw && !v[l])
        l++;
    if (l == gw)
        return 0;
    const uint32_t lead = l * 64 + (uint32_t)__builtin_ctzll(v[l]);
    for (uint32_t j = 0; j < B->rank; j++) {
        uint64_t* b = B->basis + (size_t)j * gw;
        if (bit_at(b, lead)) {
            for (uint32_t w = 0; w < gw; w++)
                b[w] ^= v[w];
            if (B->comb)
                for (uint32_t w = 0; w < cw; w++)
                    B->comb[(size_t)j * cw + w] ^= vc[w];
        }
    }
    memcpy(B->basis + (size_t)B->rank * gw, v, (size_t)gw * sizeof *v);
    if (B->comb)
        memcpy(B->comb + (size_t)B->rank * cw, vc, (size_t)cw * sizeof *vc);
    B->lead[B->rank++] = lead;
    return 1;
}

/* Feeds the S columns of cols[0..count) (in that order) to B; picked[t] = 1 when column t
 * raised the rank. Stops once the rank is g. work counts word operations against the budget. */
static gpufec_status feed_columns(const ldpc_code* c, const struct alt_plan* a, gf2_basis* B,
                                  const uint32_t* cols, uint32_t count, uint8_t* picked,
                                  int track_comb, uint64_t* work)
{
    const uint32_t g = a->g, gw = B->gw;
    uint64_t* val = calloc((size_t)c->n + 1, sizeof *val);
    uint64_t* rows = malloc(((size_t)g + 1) * sizeof *rows);
    uint64_t* v = malloc(((size_t)gw + 1) * sizeof *v);
    uint64_t* vc = calloc((size_t)B->cw + 1, sizeof *vc);
    gpufec_status st = GPUFEC_OK;
    if (!val || !rows || !v || !vc)
        st = GPUFEC_ERR_OUT_OF_MEMORY;
    for (uint32_t base = 0; st == GPUFEC_OK && base < count && B->rank < g; base += 64) {
        const uint32_t chunk = count - base < 64 ? count - base : 64;
        *work += (uint64_t)c->edges * 2 * EDGE_COST + (uint64_t)chunk * ((uint64_t)B->rank + 1) * (gw + B->cw);
        if (*work > GPUFEC_ENCODER_MAX_WORK) {
            st = GPUFEC_ERR_TOO_LARGE;
            break;
        }
        s_columns(c, a, cols + base, chunk, val, rows);
        for (uint32_t b = 0; b < chunk && B->rank < g; b++) {
            memset(v, 0, (size_t)gw * sizeof *v);
            for (uint32_t i = 0; i < g; i++)
                v[i >> 6] |= ((rows[i] >> b) & 1u) << (i & 63);
            if (track_comb) {
                memset(vc, 0, (size_t)B->cw * sizeof *vc);
                vc[(base + b) >> 6] |= 1ull << ((base + b) & 63);
            }
            picked[base + b] = (uint8_t)basis_insert(B, v, vc);
        }
    }
    free(val);
    free(rows);
    free(v);
    free(vc);
    return st;
}

void alt_plan_free(struct alt_plan* a)
{
    if (!a)
        return;
    free(a->step_row);
    free(a->step_var);
    free(a->gap_row);
    free(a->gap_col);
    free(a->basis);
    free(a->lead);
    free(a->comb);
    pthread_mutex_destroy(&a->lock);
    free(a);
}

static int cmp_desc(const void* x, const void* y)
{
    const uint32_t a = *(const uint32_t*)x, b = *(const uint32_t*)y;
    return a < b ? 1 : a > b ? -1 : 0;
}

static gpufec_status alt_encode(const ldpc_code* c, uint8_t* x);

gpufec_status alt_encoder_prepare(ldpc_code* c, gpufec_diag* diag)
{
    const uint32_t n = c->n, m = c->m;
    /* Two peelings, each O(edges): with the systematic split (information first) and without. */
    peel sys, any;
    memset(&any, 0, sizeof any);
    gpufec_status st = peel_run(&sys, c, n > m ? n - m : 0);
    if (st)
        return st;
    const uint32_t g_sys = m - sys.n_steps;
    int use_sys = g_sys <= 1024; /* cheap enough: no need to look further */
    if (!use_sys) {
        st = peel_run(&any, c, 0);
        if (st) {
            peel_free(&sys);
            return st;
        }
        use_sys = g_sys <= GPUFEC_ENCODER_MAX_GAP && g_sys <= 2 * (m - any.n_steps);
    }
    peel* p = use_sys ? &sys : &any;
    peel_free(use_sys ? &any : &sys);
    const uint32_t g = m - p->n_steps;
    if (g > GPUFEC_ENCODER_MAX_GAP) {
        peel_free(p);
        return text_fail_as(GPUFEC_ERR_TOO_LARGE, diag, 0,
                            "encoder analysis: %u rows of H do not triangulate (limit %u): the "
                            "dense part would need %llu MiB", g, GPUFEC_ENCODER_MAX_GAP,
                            (unsigned long long)((uint64_t)g * g / 8 >> 20));
    }
    /* The least work the gap can take (rank g reached after g columns): refuse at once when that
     * is over the limit, rather than after spending it. */
    const uint64_t least = ((uint64_t)g + 63) / 64 * c->edges * 2 * EDGE_COST +
                           (uint64_t)g * g / 64 * g / 32;
    if (least > GPUFEC_ENCODER_MAX_WORK) {
        peel_free(p);
        return text_fail_as(GPUFEC_ERR_TOO_LARGE, diag, 0,
                            "encoder analysis: %u rows of H do not triangulate and H has %u edges: "
                            "solving them needs more than the work limit (%llu word operations)",
                            g, c->edges, (unsigned long long)GPUFEC_ENCODER_MAX_WORK);
    }
    struct alt_plan* a = calloc(1, sizeof *a);
    if (!a) {
        peel_free(p);
        return GPUFEC_ERR_OUT_OF_MEMORY;
    }
    pthread_mutex_init(&a->lock, NULL);
    a->steps = p->n_steps;
    a->step_row = p->step_row;
    a->step_var = p->step_var;
    p->step_row = p->step_var = NULL;
    a->g = g;
    a->gap_row = malloc(((size_t)g + 1) * sizeof *a->gap_row);
    uint32_t* fv = p->free_var;
    const uint32_t nf = p->n_free;
    p->free_var = NULL;
    if (a->gap_row) {
        uint32_t t = 0;
        for (uint32_t r = 0; r < m; r++)
            if (!p->stepped[r])
                a->gap_row[t++] = r;
    }
    peel_free(p);
    uint8_t* picked = calloc((size_t)nf + 1, 1);
    if (!a->gap_row || !fv || !picked) {
        free(fv);
        free(picked);
        alt_plan_free(a);
        return GPUFEC_ERR_OUT_OF_MEMORY;
    }
    /* 2. the free columns from the highest number down; the first that raise rank(S) are parity */
    qsort(fv, nf, sizeof *fv, cmp_desc);
    gf2_basis B = {(g + 63) / 64, 0, 0, NULL, NULL, NULL};
    B.basis = malloc(((size_t)g * B.gw + 1) * sizeof *B.basis);
    B.lead = malloc(((size_t)g + 1) * sizeof *B.lead);
    uint64_t work = 0;
    st = B.basis && B.lead ? feed_columns(c, a, &B, fv, nf, picked, 0, &work) : GPUFEC_ERR_OUT_OF_MEMORY;
    free(B.basis);
    free(B.lead);
    if (st == GPUFEC_ERR_TOO_LARGE)
        text_fail_as(st, diag, 0, "encoder analysis: the %u x %u dense part of H needs more than %llu word "
                  "operations", g, nf, (unsigned long long)GPUFEC_ENCODER_MAX_WORK);
    if (st == GPUFEC_OK) {
        a->gap_rank = B.rank;
        a->gap_col = malloc(((size_t)B.rank + 1) * sizeof *a->gap_col);
        c->enc_info_pos = malloc(((size_t)nf - B.rank + 1) * sizeof *c->enc_info_pos);
        if (!a->gap_col || !c->enc_info_pos)
            st = GPUFEC_ERR_OUT_OF_MEMORY;
    }
    if (st == GPUFEC_OK) {
        uint32_t np = 0, ni = 0;
        for (uint32_t t = 0; t < nf; t++) {
            if (picked[t])
                a->gap_col[np++] = fv[t];
            else
                c->enc_info_pos[ni++] = fv[t];
        }
        /* ascending information positions (fv was descending) */
        for (uint32_t i = 0; i < ni / 2; i++) {
            const uint32_t t = c->enc_info_pos[i];
            c->enc_info_pos[i] = c->enc_info_pos[ni - 1 - i];
            c->enc_info_pos[ni - 1 - i] = t;
        }
        c->k_enc = ni;
        c->rank = a->steps + a->gap_rank;
        c->alt = a;
        c->encode = alt_encode;
    } else {
        alt_plan_free(a);
    }
    free(fv);
    free(picked);
    return st;
}

/* The encoder tables: the basis of S again, now of the pivot columns alone and with the
 * combination behind each vector. Runs once, under the lock. */
static gpufec_status alt_build_tables(const ldpc_code* c, struct alt_plan* a)
{
    gf2_basis B = {(a->g + 63) / 64, (a->gap_rank + 63) / 64, 0, NULL, NULL, NULL};
    B.basis = malloc(((size_t)a->gap_rank * B.gw + 1) * sizeof *B.basis);
    B.lead = malloc(((size_t)a->gap_rank + 1) * sizeof *B.lead);
    B.comb = malloc(((size_t)a->gap_rank * B.cw + 1) * sizeof *B.comb);
    uint8_t* picked = calloc((size_t)a->gap_rank + 1, 1);
    uint64_t work = 0;
    gpufec_status st = GPUFEC_ERR_OUT_OF_MEMORY;
    if (B.basis && B.lead && B.comb && picked)
        st = feed_columns(c, a, &B, a->gap_col, a->gap_rank, picked, 1, &work);
    if (st == GPUFEC_OK && B.rank != a->gap_rank)
        st = GPUFEC_ERR_INTERNAL; /* the pivot columns were independent at open */
    free(picked);
    if (st) {
        free(B.basis);
        free(B.lead);
        free(B.comb);
        return st;
    }
    a->gw = B.gw;
    a->cw = B.cw;
    a->basis = B.basis;
    a->lead = B.lead;
    a->comb = B.comb;
    return GPUFEC_OK;
}

static void back_substitute(const ldpc_code* c, const struct alt_plan* a, uint8_t* x)
{
    for (uint32_t s = 0; s < a->steps; s++) {
        x[a->step_var[s]] = 0;
        x[a->step_var[s]] = row_sum8(c, x, a->step_row[s]);
    }
}

static gpufec_status alt_encode(const ldpc_code* c, uint8_t* x)
{
    struct alt_plan* a = c->alt;
    if (!atomic_load_explicit(&a->ready, memory_order_acquire)) {
        pthread_mutex_lock(&a->lock);
        if (!atomic_load_explicit(&a->ready, memory_order_relaxed)) {
            a->build_status = a->g ? alt_build_tables(c, a) : GPUFEC_OK;
            atomic_store_explicit(&a->ready, 1, memory_order_release);
        }
        pthread_mutex_unlock(&a->lock);
    }
    if (a->build_status)
        return a->build_status;
    for (uint32_t t = 0; t < a->gap_rank; t++)
        x[a->gap_col[t]] = 0;
    back_substitute(c, a, x);
    if (!a->g)
        return GPUFEC_OK;
    /* gap syndrome y with the gap parity at 0, then S_gap x_gap = y in the reduced basis:
     * y = sum of the basis vectors j with y[lead j] set. */
    uint64_t* coef = calloc((size_t)a->cw + 1, sizeof *coef);
    if (!coef)
        return GPUFEC_ERR_OUT_OF_MEMORY;
    uint8_t* y = malloc(a->g);
    if (!y) {
        free(coef);
        return GPUFEC_ERR_OUT_OF_MEMORY;
    }
    for (uint32_t i = 0; i < a->g; i++)
        y[i] = row_sum8(c, x, a->gap_row[i]);
    for (uint32_t j = 0; j < a->gap_rank; j++)
        if (y[a->lead[j]])
            for (uint32_t w = 0; w < a->cw; w++)
                coef[w] ^= a->comb[(size_t)j * a->cw + w];
    for (uint32_t t = 0; t < a->gap_rank; t++)
        x[a->gap_col[t]] = (uint8_t)bit_at(coef, t);
    free(coef);
    free(y);
    back_substitute(c, a, x);
    return GPUFEC_OK;
}

uint32_t alt_encoder_gap(const ldpc_code* c) { return c->alt ? c->alt->g : 0; }

GPUFEC_API int alt_encoder_tables_built(const gpufec_code* code)
{
    const ldpc_code* c = ldpc_of(code);
    return c->alt && atomic_load_explicit(&c->alt->ready, memory_order_acquire) && c->alt->basis;
}
