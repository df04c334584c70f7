/* Internal layout of a code object, shared by the parsers, the encoder and the decoders. */
#ifndef GPUFEC_CODE_INTERNAL_H
#define GPUFEC_CODE_INTERNAL_H

#include <gpufec/code.h>

struct gpufec_code {
    uint32_t n, m, k, rank, edges;
    uint32_t max_var_degree, max_check_degree;

    /* Edges are numbered in check-major order: the edges of check i are
     * row_ptr[i] .. row_ptr[i+1]-1 and edge e connects check i to variable edge_var[e]. */
    uint32_t* row_ptr;  /* m + 1 */
    uint32_t* edge_var; /* edges */
    /* Column view: the edges of variable j are col_edge[col_ptr[j] .. col_ptr[j+1]-1]. */
    uint32_t* col_ptr;  /* n + 1 */
    uint32_t* col_edge; /* edges */

    /* Systematic encoder from the reduced row-echelon form of H (see gf2_encoder.c). */
    uint32_t* info_pos;   /* k information positions, ascending */
    uint32_t* parity_pos; /* rank parity (pivot) positions */
    uint64_t* parity_rows;/* rank rows of words_per_row words: parity bit i = <row i, info> */
    uint32_t words_per_row;
};

/* Builds a code from its column lists: the rows of column j are col_rows[col_ptr[j] ..
 * col_ptr[j+1]-1], each in [0, m), sorted ascending, no duplicates. Takes no ownership. Computes
 * the encoder; fails with GPUFEC_ERR_PARSE (diag filled) when H has full column rank. */
gpufec_status code_build(gpufec_code** out, uint32_t n, uint32_t m, const uint32_t* col_ptr,
                         const uint32_t* col_rows, gpufec_diag* diag);

/* Computes info_pos/parity_pos/parity_rows/k/rank for a code whose graph is filled in. */
gpufec_status gf2_encoder_prepare(gpufec_code* code);

/* Reads a whole file into a NUL-terminated buffer (caller frees). Refuses files over max_bytes. */
gpufec_status read_whole_file(const char* path, size_t max_bytes, char** text, size_t* length,
                              gpufec_diag* diag);

#endif
