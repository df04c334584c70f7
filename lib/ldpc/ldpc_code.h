/* The binary LDPC family's code body: the Tanner graph, the encoders' state, the QC shift table
 * and the QC view, the layers. It lives behind a family-neutral gpufec_code (code_internal.h),
 * which owns the transmission map: n is the mother length (columns of H) here. */
#ifndef GPUFEC_LDPC_CODE_H
#define GPUFEC_LDPC_CODE_H

#include <gpufec/code.h>

#include "code_internal.h"
#include "family.h"
#include "ldpc_options.h"
#include "ldpc_rules.h"
#include "text_reader.h"

typedef struct ldpc_code ldpc_code;
typedef gpufec_status (*code_encode_fn)(const ldpc_code* c, uint8_t* cw);
struct alt_plan;

/* Work limit of the generic encoder's analysis, in 64-bit word operations (about 10 s). */
#define GPUFEC_ENCODER_MAX_WORK (1ull << 34)

/* The most colours a layer of the QC view runs in (qv_ncolor): a count below 128 leaves its top
 * bit to the GPU's packed kernel (PACKED_SKIPS). Greedy colouring stays within 32. */
#define QV_MAX_COLOURS 127u

struct ldpc_code {
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
    uint8_t nr_bg; /* 5G NR base graph (1 or 2), 0 for other codes: picks the default normalisation */
    int32_t* qc_shift;
    void* enc_data; /* structured encoders' own tables (owned) */

    /* What the builder says is transmitted, until the code is completed (ldpc_complete): 0/1
     * per position (or NULL), and the number of filler bits among the information positions. */
    uint8_t* build_punctured;
    uint32_t build_shortened;
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
     * qv_perm[p] (NULL: the same). ldpc_complete checks the view against H and drops it when it
     * does not match exactly. Rows of a layer may share variables (repeated block columns): the
     * layer then runs in qv_ncolor[l] colours, lane i in colour qv_color[l * qv_z + i] (qv_color
     * NULL: one colour everywhere); the code's layers are these (layer, colour) pairs. When
     * qv_slice > 0 the colours are slices of qv_slice consecutive lanes (lane i in colour
     * i / qv_slice, every layer in ceil(qv_z / qv_slice) colours), which a GPU thread block of
     * qv_slice threads sweeps in turn without idle lanes. A layer has at most QV_MAX_COLOURS
     * colours: the GPU's packed kernel keeps a flag of its own in the top bit of the count. */
    uint32_t qv_z, qv_layers, qv_max_entries, qv_slice;
    uint32_t* qv_ent_ptr;
    uint32_t* qv_col;
    uint32_t* qv_shift;
    int32_t* qv_skip;
    uint32_t* qv_perm;
    uint32_t* qv_row;
    uint8_t* qv_color;
    uint8_t* qv_ncolor;

};

static inline const ldpc_code* ldpc_of(const gpufec_code* c) { return (const ldpc_code*)c->body; }

/* Builds the graph from column lists: the rows of column j are col_rows[col_ptr[j] ..
 * col_ptr[j+1]-1], each in [0, m), ascending, no duplicates. Takes no ownership. No encoder. */
gpufec_status code_build_graph(ldpc_code** out, uint32_t n, uint32_t m, const uint32_t* col_ptr,
                               const uint32_t* col_rows);

/* The one way an LDPC body becomes a code object: the generic encoder unless a structured one
 * was attached, the QC view, the layers, then the transmission, set once: the builder's
 * punctured and filler bits, and kprime > 0 (a ":k=" suffix) shortens to kprime information
 * bits. Takes the body (freed on failure). */
gpufec_status ldpc_complete(gpufec_code** out, ldpc_code* body, uint32_t kprime, gpufec_diag* diag);

void ldpc_free(ldpc_code* c);

/* The QC view (qc_view.c): built from the block shift table of a QC code; checked against H,
 * dropped when it does not match (returns 0 then); freed. */
gpufec_status qc_view_from_shifts(ldpc_code* c);
/* A view from H alone, where H is an array of Z x Z blocks each a sum of circulants (CCSDS C2,
 * QC codes read from alist files): tries the common divisors Z >= 32 of n and m, largest
 * first; leaves no view (and returns GPUFEC_OK) where none fits. */
gpufec_status qc_view_detect(ldpc_code* c);
int qc_view_check(const ldpc_code* c);
gpufec_status qc_view_color(ldpc_code* c); /* computes qv_color/qv_ncolor */
void qc_view_free(ldpc_code* c);
/* Allocates a view of `layers` layers and `entries` entries (zeroed, skips -1). */
gpufec_status qc_view_alloc(ldpc_code* c, uint32_t z, uint32_t layers, uint32_t entries,
                            int with_perm, int with_row);

/* Computes layer_ptr/layer_rows (done by ldpc_complete). */
gpufec_status code_make_layers(ldpc_code* c);

/* The generic encoder (alt_encoder.c): computes enc_info_pos, k_enc, rank and encode from H;
 * the encoder's own tables wait for the first encode. GPUFEC_ERR_TOO_LARGE past the limits. */
gpufec_status alt_encoder_prepare(ldpc_code* code, gpufec_diag* diag);
void alt_plan_free(struct alt_plan* plan);
uint32_t alt_encoder_gap(const ldpc_code* code);
/* 1 once the first encode built the tables; exported for the tests only, not public API. */
GPUFEC_API int alt_encoder_tables_built(const gpufec_code* code);

/* Builds a QC code from a block shift table (mb x nb, -1 zero, 0 <= s < z); keeps the table and
 * attaches the linear-time dual-diagonal encoder when the parity part allows it. */
gpufec_status qc_code_build(ldpc_code** out, uint32_t mb, uint32_t nb, uint32_t z,
                            const int32_t* shifts, gpufec_diag* diag);
/* Tries to attach the structured QC encoder (qc_encoder.c); 0 when the structure does not fit. */
int qc_encoder_prepare(ldpc_code* c);
/* The QC encoder's plan (the core rows, the first parity block's shift, the block rows solved in
 * turn and the parity block each solves); 0 when the code has another encoder. */
int qc_encoder_plan(const ldpc_code* c, uint32_t* core, uint32_t* s0, uint32_t* steps, const uint32_t** step_row,
                    const uint32_t** step_target);

/* The built-in LDPC codes, and the structured builders (unfinished bodies). */
gpufec_status dvbs2_code_from_table(ldpc_code** out, const char* text, size_t length, uint32_t n,
                                    gpufec_diag* diag);
/* Every 5G NR lifting size of the sets table, ascending (at most cap); returns the count. */
size_t nr5g_lifting_sizes(const char* sets, size_t len, uint32_t* out, size_t cap);
/* The base graph's columns renumbered without the parity columns of dropped rows (column kb + i
 * goes with row i): new_col[j] is j's new index, -1 when dropped; returns the columns kept. */
uint32_t nr5g_kept_columns(uint32_t kb, uint32_t nb, const uint8_t* drop_row, int32_t* new_col);
/* drop_row (NULL: none): base rows left out, each with its degree-1 parity column (rows pruned
 * by rate matching, nr5g_rate_match.h). */
gpufec_status nr5g_code(ldpc_code** out, const char* bg, size_t bg_len, const char* sets,
                        size_t sets_len, uint32_t z, const uint8_t* drop_row, gpufec_diag* diag);
gpufec_status peg_regular_code(ldpc_code** out, uint32_t dv, uint32_t dc, uint32_t n,
                               uint64_t seed, gpufec_diag* diag);
/* Readers into unfinished bodies (the public gpufec_code_from_* complete them). */
gpufec_status ldpc_read_alist(ldpc_code** out, const char* text, size_t length, gpufec_diag* diag);
gpufec_status ldpc_read_qc(ldpc_code** out, const char* text, size_t length, uint32_t lifting,
                           gpufec_diag* diag);

extern const family_record ldpc_family;

#endif
