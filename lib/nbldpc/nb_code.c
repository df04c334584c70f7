/* GF(q) LDPC codes: completing a matrix into a code (checks, column view, layers, the systematic
 * encoder by elimination over GF(q)), the binary image, the family record. */
#include "nb_code.h"
#include "text_reader.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void free_body(void* body)
{
    nb_code* c = (nb_code*)body;
    if (!c)
        return;
    void* p[] = {c->row_ptr, c->edge_var, c->edge_coef, c->col_ptr, c->col_edge, c->layer_ptr,
                 c->layer_rows, c->info_sym, c->par_sym, c->enc, c->info_pos};
    for (size_t i = 0; i < sizeof p / sizeof *p; i++)
        free(p[i]);
    free(c);
}

void nb_bits_to_symbols(const nb_code* c, const uint8_t* bits, uint8_t* sym)
{
    const uint32_t p = c->gf.p;
    for (uint32_t j = 0; j < c->n; j++) {
        uint32_t v = 0;
        for (uint32_t i = 0; i < p; i++)
            v |= (uint32_t)(bits[(size_t)j * p + i] != 0) << i;
        sym[j] = (uint8_t)v;
    }
}

void nb_symbols_to_bits(const nb_code* c, const uint8_t* sym, uint8_t* bits)
{
    const uint32_t p = c->gf.p;
    for (uint32_t j = 0; j < c->n; j++)
        for (uint32_t i = 0; i < p; i++)
            bits[(size_t)j * p + i] = (uint8_t)((sym[j] >> i) & 1u);
}

uint32_t nb_syndrome_weight_sym(const nb_code* c, const uint8_t* sym)
{
    uint32_t w = 0;
    for (uint32_t i = 0; i < c->m; i++) {
        uint32_t s = 0;
        for (uint32_t e = c->row_ptr[i]; e < c->row_ptr[i + 1]; e++)
            s ^= nb_gf_mul(&c->gf, c->edge_coef[e], sym[c->edge_var[e]]);
        w += s != 0;
    }
    return w;
}

static gpufec_status syndrome_weight(const void* body, const uint8_t* mother, uint32_t* weight)
{
    const nb_code* c = (const nb_code*)body;
    uint8_t* sym = malloc(c->n);
    if (!sym)
        return GPUFEC_ERR_OUT_OF_MEMORY;
    nb_bits_to_symbols(c, mother, sym);
    *weight = nb_syndrome_weight_sym(c, sym);
    free(sym);
    return GPUFEC_OK;
}

static gpufec_status encode(const void* body, uint8_t* mother)
{
    const nb_code* c = (const nb_code*)body;
    if (!c->enc)
        return GPUFEC_ERR_TOO_LARGE;
    uint8_t* sym = calloc(c->n, 1);
    if (!sym)
        return GPUFEC_ERR_OUT_OF_MEMORY;
    const uint32_t p = c->gf.p;
    for (uint32_t t = 0; t < c->k; t++) {
        uint32_t v = 0;
        for (uint32_t i = 0; i < p; i++)
            v |= (uint32_t)(mother[(size_t)c->info_sym[t] * p + i] != 0) << i;
        sym[c->info_sym[t]] = (uint8_t)v;
    }
    for (uint32_t r = 0; r < c->rank; r++) {
        const uint8_t* row = c->enc + (size_t)r * c->k;
        uint32_t s = 0;
        for (uint32_t t = 0; t < c->k; t++)
            s ^= nb_gf_mul(&c->gf, row[t], sym[c->info_sym[t]]);
        sym[c->par_sym[r]] = (uint8_t)s;
    }
    nb_symbols_to_bits(c, sym, mother);
    free(sym);
    return GPUFEC_OK;
}

static void describe(const void* body, gpufec_code_info* info)
{
    const nb_code* c = (const nb_code*)body;
    info->m = c->m; /* in symbols: checks over GF(q) */
    info->rank = c->rank;
    info->edges = c->edges;
    info->max_var_degree = c->max_var_degree;
    info->max_check_degree = c->max_check_degree;
    info->qc_lifting = c->qc_z;
    info->layers = c->layers;
    info->layer_lifting = c->qc_z;
}

static void summary(const void* body, char* text, size_t length)
{
    const nb_code* c = (const nb_code*)body;
    gpufec_nbldpc_info i;
    gpufec_code dummy = {.family = &nbldpc_family, .body = (void*)c};
    gpufec_code_nbldpc_info(&dummy, &i);
    snprintf(text, length, "GF(%u) N=%u K=%u symbols%s", i.q, i.n, i.k, i.can_encode ? "" : " (no encoder)");
}

gpufec_status gpufec_code_nbldpc_info(const gpufec_code* code, gpufec_nbldpc_info* info)
{
    if (!code || !info)
        return GPUFEC_ERR_INVALID_ARGUMENT;
    if (code->family != &nbldpc_family)
        return GPUFEC_ERR_UNSUPPORTED;
    const nb_code* c = nb_of(code);
    memset(info, 0, sizeof *info);
    info->q = c->gf.q;
    info->p = c->gf.p;
    info->poly = c->gf.poly;
    info->n = c->n;
    info->m = c->m;
    info->k = c->k;
    info->rank = c->rank;
    info->edges = c->edges;
    info->max_var_degree = c->max_var_degree;
    info->max_check_degree = c->max_check_degree;
    info->qc_lifting = c->qc_z;
    info->can_encode = c->enc != NULL;
    return GPUFEC_OK;
}

/* Checks the matrix: sizes, indices, coefficients, no variable twice in a check. */
static gpufec_status check_matrix(const nb_code* c, gpufec_diag* diag)
{
    if (c->n == 0 || c->m == 0 || c->m >= c->n)
        return text_fail(diag, 0, "H is %u x %u symbols: need 0 < checks < columns", c->m, c->n);
    if (c->n > NB_MAX_SYMBOLS || c->edges > NB_MAX_EDGES)
        return text_fail_as(GPUFEC_ERR_TOO_LARGE, diag, 0, "H has %u columns and %u entries: limits %u and %u",
                            c->n, c->edges, NB_MAX_SYMBOLS, NB_MAX_EDGES);
    uint32_t* seen = calloc(c->n, sizeof *seen);
    if (!seen)
        return GPUFEC_ERR_OUT_OF_MEMORY;
    gpufec_status st = GPUFEC_OK;
    for (uint32_t i = 0; i < c->m && st == GPUFEC_OK; i++) {
        if (c->row_ptr[i + 1] <= c->row_ptr[i])
            st = text_fail(diag, 0, "check %u has no entries", i + 1);
        for (uint32_t e = c->row_ptr[i]; e < c->row_ptr[i + 1] && st == GPUFEC_OK; e++) {
            const uint32_t v = c->edge_var[e];
            if (v >= c->n)
                st = text_fail(diag, 0, "check %u: column %u beyond the %u columns", i + 1, v + 1, c->n);
            else if (c->edge_coef[e] == 0 || c->edge_coef[e] >= c->gf.q)
                st = text_fail(diag, 0, "check %u, column %u: coefficient %u is not a non-zero element of GF(%u)",
                               i + 1, v + 1, c->edge_coef[e], c->gf.q);
            else if (seen[v] == i + 1)
                st = text_fail(diag, 0, "check %u names column %u twice", i + 1, v + 1);
            else
                seen[v] = i + 1;
        }
    }
    free(seen);
    return st;
}

static gpufec_status build_columns(nb_code* c, gpufec_diag* diag)
{
    c->col_ptr = calloc((size_t)c->n + 1, sizeof *c->col_ptr);
    c->col_edge = malloc((size_t)c->edges * sizeof *c->col_edge + 1);
    if (!c->col_ptr || !c->col_edge)
        return GPUFEC_ERR_OUT_OF_MEMORY;
    for (uint32_t e = 0; e < c->edges; e++)
        c->col_ptr[c->edge_var[e] + 1]++;
    for (uint32_t j = 0; j < c->n; j++) {
        const uint32_t d = c->col_ptr[j + 1];
        if (d == 0)
            return text_fail(diag, 0, "column %u has no entries: its symbol is never checked", j + 1);
        if (d > c->max_var_degree)
            c->max_var_degree = d;
        c->col_ptr[j + 1] += c->col_ptr[j];
    }
    uint32_t* fill = malloc(((size_t)c->n + 1) * sizeof *fill);
    if (!fill)
        return GPUFEC_ERR_OUT_OF_MEMORY;
    memcpy(fill, c->col_ptr, (size_t)c->n * sizeof *fill);
    for (uint32_t e = 0; e < c->edges; e++)
        c->col_edge[fill[c->edge_var[e]]++] = e;
    free(fill);
    for (uint32_t i = 0; i < c->m; i++) {
        const uint32_t d = c->row_ptr[i + 1] - c->row_ptr[i];
        if (d > c->max_check_degree)
            c->max_check_degree = d;
    }
    if (c->max_check_degree > NB_MAX_DEGREE || c->max_var_degree > NB_MAX_DEGREE)
        return text_fail_as(GPUFEC_ERR_TOO_LARGE, diag, 0, "degrees %u (check) and %u (column): limit %u",
                            c->max_check_degree, c->max_var_degree, NB_MAX_DEGREE);
    return GPUFEC_OK;
}

/* Layers: the block rows of a QC code, else a greedy partition into checks that share no
 * variable (each pass takes every remaining check that fits). */
static gpufec_status build_layers(nb_code* c)
{
    c->layer_ptr = malloc(((size_t)c->m + 1) * sizeof *c->layer_ptr);
    c->layer_rows = malloc((size_t)c->m * sizeof *c->layer_rows);
    uint32_t* stamp = calloc(c->n, sizeof *stamp);
    uint8_t* done = calloc(c->m, 1);
    if (!c->layer_ptr || !c->layer_rows || !stamp || !done) {
        free(stamp);
        free(done);
        return GPUFEC_ERR_OUT_OF_MEMORY;
    }
    uint32_t placed = 0;
    c->layers = 0;
    if (c->qc_z && c->m % c->qc_z == 0) {
        for (uint32_t i = 0; i < c->m; i++) {
            if (i % c->qc_z == 0)
                c->layer_ptr[c->layers++] = i;
            c->layer_rows[i] = i;
        }
        placed = c->m;
    }
    while (placed < c->m) {
        c->layer_ptr[c->layers++] = placed;
        for (uint32_t i = 0; i < c->m; i++) {
            if (done[i])
                continue;
            int fits = 1;
            for (uint32_t e = c->row_ptr[i]; e < c->row_ptr[i + 1] && fits; e++)
                fits = stamp[c->edge_var[e]] != c->layers;
            if (!fits)
                continue;
            for (uint32_t e = c->row_ptr[i]; e < c->row_ptr[i + 1]; e++)
                stamp[c->edge_var[e]] = c->layers;
            done[i] = 1;
            c->layer_rows[placed++] = i;
        }
    }
    c->layer_ptr[c->layers] = c->m;
    free(stamp);
    free(done);
    return GPUFEC_OK;
}

/* Gauss-Jordan elimination of H over GF(q), pivots taken from the last column backwards, so the
 * parity symbols sit at the end where H allows and the information symbols come first. Gives
 * the rank; with enc != NULL also the rank x k matrix that maps information to parity. */
static gpufec_status eliminate(nb_code* c)
{
    const uint32_t n = c->n, m = c->m, q = c->gf.q;
    const size_t work = (size_t)m * m * n / 2;
    const int want_encoder = work <= NB_ENCODER_MAX_WORK && (size_t)m * n <= NB_ENCODER_MAX_BYTES;
    if (!want_encoder) { /* too large to eliminate: rows are taken as independent */
        c->rank = m;
    }
    uint8_t* h = want_encoder ? calloc((size_t)m * n, 1) : NULL;
    uint8_t* mul = want_encoder ? malloc((size_t)q * q) : NULL;
    uint32_t* nz = want_encoder ? malloc((size_t)n * sizeof *nz) : NULL;
    uint32_t* pivot_col = malloc((size_t)m * sizeof *pivot_col);
    uint8_t* is_pivot = calloc(n, 1);
    if ((want_encoder && (!h || !mul || !nz)) || !pivot_col || !is_pivot) {
        free(h), free(mul), free(nz), free(pivot_col), free(is_pivot);
        return GPUFEC_ERR_OUT_OF_MEMORY;
    }
    uint32_t rank = 0;
    if (want_encoder) {
        for (uint32_t a = 0; a < q; a++)
            for (uint32_t b = 0; b < q; b++)
                mul[a * q + b] = (uint8_t)nb_gf_mul(&c->gf, a, b);
        for (uint32_t i = 0; i < m; i++)
            for (uint32_t e = c->row_ptr[i]; e < c->row_ptr[i + 1]; e++)
                h[(size_t)i * n + c->edge_var[e]] = c->edge_coef[e];
        /* Rows [0, rank) are pivot rows; a column's pivot row moves to position `rank`. */
        for (uint32_t col = n; col-- > 0 && rank < m;) {
            uint32_t r = rank;
            while (r < m && h[(size_t)r * n + col] == 0)
                r++;
            if (r == m)
                continue;
            if (r != rank)
                for (uint32_t x = 0; x < n; x++) {
                    const uint8_t t = h[(size_t)r * n + x];
                    h[(size_t)r * n + x] = h[(size_t)rank * n + x];
                    h[(size_t)rank * n + x] = t;
                }
            uint8_t* prow = h + (size_t)rank * n;
            const uint32_t inv = nb_gf_inv(&c->gf, prow[col]);
            uint32_t nnz = 0; /* the pivot row's non-zero columns: H starts sparse, so most row
                                 operations touch a few entries instead of n */
            for (uint32_t x = 0; x < n; x++)
                if (prow[x]) {
                    prow[x] = mul[inv * q + prow[x]];
                    nz[nnz++] = x;
                }
            for (uint32_t i = 0; i < m; i++) {
                uint8_t* row = h + (size_t)i * n;
                const uint32_t f = row[col];
                if (i == rank || f == 0)
                    continue;
                const uint8_t* mf = mul + f * q;
                for (uint32_t t = 0; t < nnz; t++)
                    row[nz[t]] ^= mf[prow[nz[t]]];
            }
            pivot_col[rank++] = col;
            is_pivot[col] = 1;
        }
        c->rank = rank;
    }
    c->k = n - c->rank;
    c->info_sym = malloc(((size_t)c->k + 1) * sizeof *c->info_sym);
    c->info_pos = malloc(((size_t)c->k * c->gf.p + 1) * sizeof *c->info_pos);
    gpufec_status st = c->info_sym && c->info_pos ? GPUFEC_OK : GPUFEC_ERR_OUT_OF_MEMORY;
    if (st == GPUFEC_OK && !want_encoder) { /* no elimination: the last m symbols are taken as parity */
        for (uint32_t t = 0; t < c->k; t++)
            c->info_sym[t] = t;
    } else if (st == GPUFEC_OK) {
        uint32_t t = 0;
        for (uint32_t j = 0; j < n; j++)
            if (!is_pivot[j])
                c->info_sym[t++] = j;
        c->par_sym = malloc(((size_t)rank + 1) * sizeof *c->par_sym);
        c->enc = malloc((size_t)rank * c->k + 1);
        if (!c->par_sym || !c->enc) {
            st = GPUFEC_ERR_OUT_OF_MEMORY;
        } else {
            for (uint32_t r = 0; r < rank; r++) {
                c->par_sym[r] = pivot_col[r];
                for (uint32_t x = 0; x < c->k; x++) /* x_pivot = sum h[r][info] x_info (char 2) */
                    c->enc[(size_t)r * c->k + x] = h[(size_t)r * n + c->info_sym[x]];
            }
        }
    }
    if (st == GPUFEC_OK)
        for (uint32_t t = 0; t < c->k; t++)
            for (uint32_t i = 0; i < c->gf.p; i++)
                c->info_pos[(size_t)t * c->gf.p + i] = c->info_sym[t] * c->gf.p + i;
    free(h), free(mul), free(nz), free(pivot_col), free(is_pivot);
    return st;
}

gpufec_status nb_complete(gpufec_code** out, uint32_t q, uint32_t poly, uint32_t n, uint32_t m, uint32_t* row_ptr,
                          uint32_t* edge_var, uint8_t* edge_coef, uint32_t qc_z, gpufec_diag* diag)
{
    *out = NULL;
    nb_code* c = calloc(1, sizeof *c);
    if (!c) {
        free(row_ptr), free(edge_var), free(edge_coef);
        return GPUFEC_ERR_OUT_OF_MEMORY;
    }
    c->row_ptr = row_ptr;
    c->edge_var = edge_var;
    c->edge_coef = edge_coef;
    c->n = n;
    c->m = m;
    c->qc_z = qc_z;
    gpufec_status st = GPUFEC_OK;
    if (!row_ptr || !edge_var || !edge_coef)
        st = GPUFEC_ERR_OUT_OF_MEMORY;
    else if (nb_gf_init(&c->gf, q, poly))
        st = text_fail(diag, 0, "GF(%u) with polynomial 0x%X: q must be 4..256 and the polynomial primitive", q,
                       poly);
    if (st == GPUFEC_OK) {
        c->edges = row_ptr[m];
        st = check_matrix(c, diag);
    }
    if (st == GPUFEC_OK)
        st = build_columns(c, diag);
    if (st == GPUFEC_OK && (uint64_t)n * c->gf.p > GPUFEC_MAX_CODE_LENGTH)
        st = text_fail_as(GPUFEC_ERR_TOO_LARGE, diag, 0, "%u symbols of %u bits: beyond %u bits", n, c->gf.p,
                          GPUFEC_MAX_CODE_LENGTH);
    if (st == GPUFEC_OK)
        st = build_layers(c);
    if (st == GPUFEC_OK)
        st = eliminate(c);
    if (st == GPUFEC_OK && c->k == 0)
        st = text_fail(diag, 0, "H has full column rank: the code has no information symbols");
    if (st) {
        free_body(c);
        return st;
    }
    return code_create(out, &nbldpc_family, c, n * c->gf.p, c->k * c->gf.p, c->info_pos);
}

gpufec_status gpufec_code_export_nbalist(const gpufec_code* code, const char* path)
{
    if (!code || !path)
        return GPUFEC_ERR_INVALID_ARGUMENT;
    if (code->family != &nbldpc_family)
        return GPUFEC_ERR_UNSUPPORTED;
    const nb_code* c = nb_of(code);
    FILE* f = fopen(path, "w");
    if (!f)
        return GPUFEC_ERR_IO;
    fprintf(f, "nbalist 1\n# GF(q) LDPC matrix (gr-gpufec): n m q poly, then per check: degree, then "
               "(column 1-based, coefficient) pairs\n%u %u %u %u\n", c->n, c->m, c->gf.q, c->gf.poly);
    for (uint32_t i = 0; i < c->m; i++) {
        fprintf(f, "%u", c->row_ptr[i + 1] - c->row_ptr[i]);
        for (uint32_t e = c->row_ptr[i]; e < c->row_ptr[i + 1]; e++)
            fprintf(f, " %u %u", c->edge_var[e] + 1, c->edge_coef[e]);
        fputc('\n', f);
    }
    const int bad = ferror(f);
    return fclose(f) || bad ? GPUFEC_ERR_IO : GPUFEC_OK;
}

static const char* const nb_shared_params[] = {"schedule", NULL};

const family_record nbldpc_family = {
    .id = GPUFEC_FAMILY_NBLDPC,
    .name = "nbldpc",
    .label = "GF(q) LDPC",
    .algorithm_option = "nb_algorithm",
    .free_body = free_body,
    .encode = encode,
    .syndrome_weight = syndrome_weight,
    .describe = describe,
    .summary = summary,
    .builtin_count = nb_builtin_count,
    .builtin_name = nb_builtin_name,
    .open_name = nb_open_name,
    .open_file = nb_open_file,
    .defaults = nb_default_opts,
    .check_opts = nb_check_opts,
    .resolve_opts = nb_resolve_opts,
    .params = nb_params,
    .shared_params = nb_shared_params,
};
