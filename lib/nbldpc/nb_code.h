/* The GF(q) LDPC family's code body: H over GF(q) in check-major order with a column view, the
 * systematic encoder, the layers of the layered schedule. Mother codeword bit j p + i is bit i
 * of symbol j. */
#ifndef GPUFEC_NB_CODE_H
#define GPUFEC_NB_CODE_H

#include <gpufec/nbldpc.h>

#include "code_internal.h"
#include "family.h"
#include "nb_gf.h"

/* Limits of the readers and builders (docs/formats.md). */
#define NB_MAX_SYMBOLS 200000u
#define NB_MAX_EDGES 2000000u
#define NB_MAX_DEGREE 256u
/* The dense systematic encoder eliminates H once per code: at most m^2 n / 2 table lookups
 * (fewer while rows are sparse) and m x n bytes. Codes beyond either bound open and decode but
 * do not encode, and their rank is taken as m. */
#define NB_ENCODER_MAX_WORK (1ull << 33)
#define NB_ENCODER_MAX_BYTES (64ull << 20)

typedef struct nb_code {
    nb_gf gf;
    uint32_t n, m, rank, edges;
    uint32_t max_var_degree, max_check_degree;
    /* Edge e of check i (row_ptr[i] <= e < row_ptr[i+1]) joins variable edge_var[e] with the
     * coefficient edge_coef[e] (a non-zero element). */
    uint32_t* row_ptr;
    uint32_t* edge_var;
    uint8_t* edge_coef;
    uint32_t* col_ptr;  /* n + 1 */
    uint32_t* col_edge; /* edges: the edges of variable j */
    /* Layers: checks layer_rows[layer_ptr[l] .. layer_ptr[l+1]) share no variable. QC codes: the
     * block rows (lifting qc_z); others: a greedy partition. */
    uint32_t layers, qc_z;
    uint32_t* layer_ptr;
    uint32_t* layer_rows;
    /* Systematic encoder: parity symbol par_sym[r] = sum_c enc[r k + c] info symbol info_sym[c]. */
    uint32_t k;
    uint32_t* info_sym;
    uint32_t* par_sym;
    uint8_t* enc; /* NULL: H too large for the dense encoder (encode refuses) */
    uint32_t* info_pos; /* k p mother bit positions, ascending */
} nb_code;

static inline const nb_code* nb_of(const gpufec_code* c) { return (const nb_code*)c->body; }

/* Takes a matrix as edge lists per check (row_ptr, edge_var, edge_coef: malloc'd, owned from
 * here on, also on failure), checks it, builds the column view, layers and encoder, and makes
 * the code object. qc_z: the circulant size when the rows come in circulant block rows. */
gpufec_status nb_complete(gpufec_code** out, uint32_t q, uint32_t poly, uint32_t n, uint32_t m, uint32_t* row_ptr,
                          uint32_t* edge_var, uint8_t* edge_coef, uint32_t qc_z, gpufec_diag* diag);

/* Symbols of a mother codeword (bits) and back. */
void nb_bits_to_symbols(const nb_code* c, const uint8_t* bits, uint8_t* sym);
void nb_symbols_to_bits(const nb_code* c, const uint8_t* sym, uint8_t* bits);
/* Unsatisfied checks of a word of symbols. */
uint32_t nb_syndrome_weight_sym(const nb_code* c, const uint8_t* sym);

/* nb_open.c, nb_read.c, nb_build.c, nb_options.c */
size_t nb_builtin_count(void);
const char* nb_builtin_name(size_t index);
gpufec_status nb_open_name(gpufec_code** out, const char* name, const char* suffix, gpufec_diag* diag);
gpufec_status nb_open_file(gpufec_code** out, const char* path, const char* suffix, gpufec_diag* diag);
gpufec_status nb_read_kn(gpufec_code** out, const char* text, size_t length, gpufec_diag* diag);
gpufec_status nb_read_nbalist(gpufec_code** out, const char* text, size_t length, gpufec_diag* diag);
gpufec_status nb_build_qc(gpufec_code** out, uint32_t q, uint32_t dv, uint32_t dc, uint32_t row0, uint32_t col0,
                          gpufec_diag* diag);
gpufec_status nb_build_regular(gpufec_code** out, uint32_t q, uint32_t info_bits, uint64_t seed, gpufec_diag* diag);
gpufec_status nb_check_opts(const gpufec_decoder_opts* o, const gpufec_code* code, gpufec_diag* diag);
void nb_resolve_opts(gpufec_decoder_opts* o, const gpufec_code* code);
void nb_default_opts(gpufec_decoder_opts* o);
const param_desc* nb_params(size_t* count);

extern const family_record nbldpc_family;

#endif
