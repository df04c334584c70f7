/* Internal layout of a code object, shared by the parsers, the encoders and the decoders.
 *
 * Two lengths: the mother codeword of n columns of H (what the decoders work on), and the
 * transmitted frame of n_tx bits (what the encoder emits and the decoder takes). Punctured
 * positions are not transmitted and enter decoding as erasures (LLR 0); shortened positions
 * (filler bits) are information positions known to be 0, neither transmitted nor output. */
#ifndef GPUFEC_CODE_INTERNAL_H
#define GPUFEC_CODE_INTERNAL_H

#include <gpufec/code.h>

#include "text_reader.h"

#define CODE_SRC_PUNCTURED (-1) /* full_src value: erasure */
#define CODE_SRC_KNOWN_ZERO (-2) /* full_src value: shortened (filler) bit */

#include "ldpc_rules.h"

/* The transmission map's rule, written once for the CPU decoders and the kernels' loaders:
 * mother-code position j of a frame takes its transmitted value (sanitised), or is punctured
 * (an erasure, 0) or a filler bit (known 0: the largest confidence). full_src NULL: position j is
 * transmitted value j. */
GPUFEC_HD float code_mother_value(const int32_t* full_src, uint32_t j, const float* frame)
{
    const int32_t src = full_src ? full_src[j] : (int32_t)j;
    return src >= 0 ? ldpc_sanitize_llr(frame[src]) : src == CODE_SRC_PUNCTURED ? 0.0f : GPUFEC_LLR_LIMIT;
}

typedef struct gpufec_code gpufec_code;
typedef gpufec_status (*code_encode_fn)(const gpufec_code* c, uint8_t* cw);
struct alt_plan;

/* Work limit of the generic encoder's analysis, in 64-bit word operations (about 10 s). */
#define GPUFEC_ENCODER_MAX_WORK (1ull << 34)

struct gpufec_code {
    uint32_t n, m, rank, edges;
    uint32_t max_var_degree, max_check_degree;

    /* Edges are numbered in check-major order: the edges of check i are
     * row_ptr[i] .. row_ptr[i+1]-1 and edge e connects check i to variable edge_var[e]. */
    uint32_t* row_ptr;  /* m + 1 */
    uint32_t* edge_var; /* edges */
    /* Column view: the edges of variable j are col_edge[col_ptr[j] .. col_ptr[j+1]-1]. */
    uint32_t* col_ptr;  /* n + 1 */
    uint32_t* col_edge; /* edges */

    /* Encoder. It reads the bits at enc_info_pos[0..k_enc) of a full codeword and writes the
     * parity positions. Generic (alt != NULL): triangulation and gap (alt_encoder.c). */
    uint32_t k_enc;
    uint32_t* enc_info_pos; /* k_enc positions, ascending */
    code_encode_fn encode;
    struct alt_plan* alt;

    /* Quasi-cyclic structure when known (qc_z > 0): block shift table, -1 = zero block. */
    uint32_t qc_z, qc_mb, qc_nb;
    int32_t* qc_shift;
    void* enc_data; /* structured encoders' own tables (owned) */

    /* Transmission: full_src[j] >= 0 is the index in the transmitted frame of position j, or
     * CODE_SRC_PUNCTURED / CODE_SRC_KNOWN_ZERO. NULL: every position transmitted in order. */
    uint32_t n_tx;
    int32_t* full_src;
    uint32_t* tx_pos; /* n_tx full positions in transmitted order (NULL: identity) */
    /* Layers for the layered schedule: sets of rows sharing no variable, so the rows of a layer
     * can be updated in parallel and any order within a layer gives the same result. QC codes:
     * the block rows; others: greedy colouring in row order. Rows of layer l are
     * layer_rows[layer_ptr[l] .. layer_ptr[l+1]-1]. */
    uint32_t n_layers, max_layer_rows;
    uint32_t* layer_ptr;
    uint32_t* layer_rows;

    /* Quasi-cyclic view of the layers (qv_z > 0), which lets the GPU derive each edge's variable
     * from a few numbers per layer instead of loading it. Layer l has qv_z rows; its lane i is
     * check qv_row[l * qv_z + i] (NULL: the same index). Entry t of layer l (qv_ent_ptr[l] <= t <
     * qv_ent_ptr[l+1]) joins lane i to the internal variable qv_col[t] * qv_z + (i + qv_shift[t])
     * mod qv_z, except for lane qv_skip[t] (-1: none), and internal variable p is code variable
     * qv_perm[p] (NULL: the same). code_finish checks the view against H and drops it when it
     * does not match exactly. Rows of a layer may share variables (repeated block columns): the
     * layer then runs in qv_ncolor[l] colours, lane i in colour qv_color[l * qv_z + i] (qv_color
     * NULL: one colour everywhere); the code's layers are these (layer, colour) pairs. */
    uint32_t qv_z, qv_layers, qv_max_entries;
    uint32_t* qv_ent_ptr;
    uint32_t* qv_col;
    uint32_t* qv_shift;
    int32_t* qv_skip;
    uint32_t* qv_perm;
    uint32_t* qv_row;
    uint8_t* qv_color;
    uint8_t* qv_ncolor;

    uint32_t k;       /* information bits carried: k_enc minus shortened ones */
    uint32_t* info_pos; /* k positions of the carried information bits */
    uint32_t punctured, shortened;
};

/* Builds the graph from column lists: the rows of column j are col_rows[col_ptr[j] ..
 * col_ptr[j+1]-1], each in [0, m), ascending, no duplicates. Takes no ownership. No encoder. */
gpufec_status code_build_graph(gpufec_code** out, uint32_t n, uint32_t m, const uint32_t* col_ptr,
                               const uint32_t* col_rows);

/* Completes a code: the generic encoder unless a structured one was attached, then the
 * transmission (puncture: 0/1 per position or NULL; the last `shortened` information positions
 * become filler bits). Frees the code and fails when it has no information bits. */
gpufec_status code_finish(gpufec_code* c, const uint8_t* puncture, uint32_t shortened,
                          gpufec_diag* diag);

/* (Re)sets what is transmitted: puncture (0/1 per position, or NULL) and the number of filler
 * bits. Leaves the code unchanged on failure. */
gpufec_status code_set_transmission(gpufec_code* c, const uint8_t* puncture, uint32_t shortened,
                                    gpufec_diag* diag);

/* code_build_graph + code_finish with nothing punctured or shortened. */
gpufec_status code_build(gpufec_code** out, uint32_t n, uint32_t m, const uint32_t* col_ptr,
                         const uint32_t* col_rows, gpufec_diag* diag);

void code_free(gpufec_code* c);

/* The QC view (qc_view.c): built from the block shift table of a QC code; checked against H,
 * dropped when it does not match (returns 0 then); freed. */
gpufec_status qc_view_from_shifts(gpufec_code* c);
int qc_view_check(const gpufec_code* c);
gpufec_status qc_view_color(gpufec_code* c); /* computes qv_color/qv_ncolor */
void qc_view_free(gpufec_code* c);
/* Allocates a view of `layers` layers and `entries` entries (zeroed, skips -1). */
gpufec_status qc_view_alloc(gpufec_code* c, uint32_t z, uint32_t layers, uint32_t entries,
                            int with_perm, int with_row);

/* Computes layer_ptr/layer_rows (done by code_finish). */
gpufec_status code_make_layers(gpufec_code* c);

/* The generic encoder (alt_encoder.c): computes enc_info_pos, k_enc, rank and encode from H;
 * the encoder's own tables wait for the first encode. GPUFEC_ERR_TOO_LARGE past the limits. */
gpufec_status alt_encoder_prepare(gpufec_code* code, gpufec_diag* diag);
void alt_plan_free(struct alt_plan* plan);
uint32_t alt_encoder_gap(const gpufec_code* code);
/* 1 once the first encode built the tables; exported for the tests only, not public API. */
GPUFEC_API int alt_encoder_tables_built(const gpufec_code* code);

/* Builds a QC code from a block shift table (mb x nb, -1 zero, 0 <= s < z); keeps the table and
 * attaches the linear-time dual-diagonal encoder when the parity part allows it. */
gpufec_status qc_code_build(gpufec_code** out, uint32_t mb, uint32_t nb, uint32_t z,
                            const int32_t* shifts, gpufec_diag* diag);
/* Tries to attach the structured QC encoder (qc_encoder.c); 0 when the structure does not fit. */
int qc_encoder_prepare(gpufec_code* c);

/* Frames: transmitted length, and expansion of one transmitted LLR frame to the full codeword
 * (sanitised; punctured -> 0, filler -> +limit). */
static inline uint32_t code_tx_length(const gpufec_code* c) { return c->n_tx; }
void code_load_llr(const gpufec_code* c, const float* tx, float* full);

/* Reads a whole regular file into a NUL-terminated buffer (caller frees). Refuses FIFOs, devices
 * and directories (GPUFEC_ERR_IO) and files over max_bytes (GPUFEC_ERR_TOO_LARGE). */
gpufec_status read_whole_file(const char* path, size_t max_bytes, char** text, size_t* length,
                              gpufec_diag* diag);
/* 1 when path names a regular file (stat never blocks, unlike opening a FIFO). */
int path_is_regular_file(const char* path);

#endif
