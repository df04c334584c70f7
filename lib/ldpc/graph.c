/* The Tanner graph of a binary LDPC code: check-major edges with their column view, built from
 * column lists, and the layers of the layered schedule. */
#include "ldpc_code.h"

#include <stdlib.h>
#include <string.h>

gpufec_status code_make_layers(ldpc_code* c)
{
    const uint32_t m = c->m;
    uint32_t* layer_of = malloc(((size_t)m + 1) * sizeof *layer_of);
    c->layer_ptr = calloc((size_t)m + 2, sizeof *c->layer_ptr);
    c->layer_rows = malloc(((size_t)m + 1) * sizeof *c->layer_rows);
    if (!layer_of || !c->layer_ptr || !c->layer_rows) {
        free(layer_of);
        return GPUFEC_ERR_OUT_OF_MEMORY;
    }
    uint32_t layers = 0;
    if (c->qv_z) { /* the QC view's block rows, split by colour (checked against H) */
        for (uint32_t l = 0; l < c->qv_layers; l++) {
            for (uint32_t i = 0; i < c->qv_z; i++) {
                const uint32_t r = l * c->qv_z + i;
                layer_of[c->qv_row ? c->qv_row[r] : r] = layers + (c->qv_color ? c->qv_color[r] : 0);
            }
            layers += c->qv_ncolor[l];
        }
    } else if (c->qc_z) {
        for (uint32_t i = 0; i < m; i++)
            layer_of[i] = i / c->qc_z;
        layers = c->qc_mb;
    } else {
        /* Greedy: each row joins the first layer none of whose rows shares a variable with it.
         * last[j] = the last layer that used variable j, per layer tested in increasing order,
         * so a 64-bit mask per variable covers the layers [base, base + 64). */
        uint64_t* used = calloc((size_t)c->n, sizeof *used);
        uint32_t base = 0;
        if (!used) {
            free(layer_of);
            return GPUFEC_ERR_OUT_OF_MEMORY;
        }
        for (uint32_t i = 0; i < m; i++) {
            uint64_t busy = 0;
            for (uint32_t e = c->row_ptr[i]; e < c->row_ptr[i + 1]; e++)
                busy |= used[c->edge_var[e]];
            if (busy == ~0ull) { /* 64 layers full: open a new window of layers */
                base += 64;
                memset(used, 0, (size_t)c->n * sizeof *used);
                busy = 0;
            }
            uint32_t l = (uint32_t)__builtin_ctzll(~busy);
            for (uint32_t e = c->row_ptr[i]; e < c->row_ptr[i + 1]; e++)
                used[c->edge_var[e]] |= 1ull << l;
            layer_of[i] = base + l;
            if (base + l + 1 > layers)
                layers = base + l + 1;
        }
        free(used);
    }
    for (uint32_t i = 0; i < m; i++)
        c->layer_ptr[layer_of[i] + 1]++;
    for (uint32_t l = 0; l < layers; l++)
        c->layer_ptr[l + 1] += c->layer_ptr[l];
    uint32_t* fill = calloc((size_t)layers + 1, sizeof *fill);
    if (!fill) {
        free(layer_of);
        return GPUFEC_ERR_OUT_OF_MEMORY;
    }
    c->max_layer_rows = 0;
    for (uint32_t r = 0; r < m; r++) { /* a view's rows in lane order, others in row order */
        const uint32_t i = c->qv_row ? c->qv_row[r] : r;
        c->layer_rows[c->layer_ptr[layer_of[i]] + fill[layer_of[i]]++] = i;
    }
    for (uint32_t l = 0; l < layers; l++)
        if (fill[l] > c->max_layer_rows)
            c->max_layer_rows = fill[l];
    c->n_layers = layers;
    free(fill);
    free(layer_of);
    return GPUFEC_OK;
}

gpufec_status code_build_graph(ldpc_code** out, uint32_t n, uint32_t m, const uint32_t* col_ptr,
                               const uint32_t* col_rows)
{
    ldpc_code* c = calloc(1, sizeof *c);
    if (!c)
        return GPUFEC_ERR_OUT_OF_MEMORY;
    uint32_t edges = col_ptr[n];
    c->n = n;
    c->m = m;
    c->edges = edges;
    c->row_ptr = calloc((size_t)m + 1, sizeof *c->row_ptr);
    c->edge_var = malloc(((size_t)edges + 1) * sizeof *c->edge_var);
    c->col_ptr = malloc(((size_t)n + 1) * sizeof *c->col_ptr);
    c->col_edge = malloc(((size_t)edges + 1) * sizeof *c->col_edge);
    uint32_t* fill = calloc((size_t)m + 1, sizeof *fill);
    if (!c->row_ptr || !c->edge_var || !c->col_ptr || !c->col_edge || !fill) {
        free(fill);
        ldpc_free(c);
        return GPUFEC_ERR_OUT_OF_MEMORY;
    }
    memcpy(c->col_ptr, col_ptr, ((size_t)n + 1) * sizeof *col_ptr);
    for (uint32_t e = 0; e < edges; e++)
        c->row_ptr[col_rows[e] + 1]++;
    for (uint32_t i = 0; i < m; i++)
        c->row_ptr[i + 1] += c->row_ptr[i];
    /* Columns are visited in ascending order, so each check's variables come out sorted. */
    for (uint32_t j = 0; j < n; j++) {
        uint32_t deg = col_ptr[j + 1] - col_ptr[j];
        if (deg > c->max_var_degree)
            c->max_var_degree = deg;
        for (uint32_t t = col_ptr[j]; t < col_ptr[j + 1]; t++) {
            uint32_t i = col_rows[t];
            uint32_t e = c->row_ptr[i] + fill[i]++;
            c->edge_var[e] = j;
            c->col_edge[t] = e;
        }
    }
    for (uint32_t i = 0; i < m; i++) {
        uint32_t deg = c->row_ptr[i + 1] - c->row_ptr[i];
        if (deg > c->max_check_degree)
            c->max_check_degree = deg;
    }
    free(fill);
    *out = c;
    return GPUFEC_OK;
}
