/* The LDPC encoders as data a GPU can run (cuda/ldpc/ldpc_encode.cu) in two phases, every frame
 * its own thread block:
 *   1. lam[r] = the sum of the information bits of check r (parallel over the checks);
 *   2. the parity from lam: STAIRCASE (check i holds parity bits i-1 and i, DVB-S2 and other IRA
 *      codes): p_i = lam_0 + ... + lam_i, a prefix sum; QC (the dual-diagonal quasi-cyclic codes,
 *      qc_encoder.c): the first parity block from the core rows' sum, then the others one block
 *      of z bits at a time, each from a block row where it is the only unknown.
 * Any other code (the generic triangulating encoder) is DENSE: its parity is the product of the
 * information bits with a generator matrix, packed 32 parity bits a word, made once from the
 * code's encoder (one encode per information bit), up to LDPC_ENC_DENSE_MAX_BITS.
 * Then the transmitted bits are gathered (puncturing, shortening, repetition, the code's order).
 * ldpc_enc_desc_run_host runs the same steps on the host: the description is tested against the
 * code's encoder without a GPU (tests/c/test_device_encoder.c). */
#ifndef GPUFEC_LDPC_ENC_DESC_H
#define GPUFEC_LDPC_ENC_DESC_H

#include <gpufec/code.h>

#include <stddef.h>
#include <stdint.h>

typedef enum { LDPC_ENC_STAIRCASE = 1, LDPC_ENC_QC = 2, LDPC_ENC_DENSE = 3 } ldpc_enc_kind;

/* Largest dense generator (information bits x parity bits), 32 MiB. */
#define LDPC_ENC_DENSE_MAX_BITS (1ull << 28)

typedef struct {
    ldpc_enc_kind kind;
    uint32_t k;        /* information bits a frame carries */
    uint32_t k_mother; /* information bits of the mother code; those at k and beyond are filler (0) */
    uint32_t m;        /* parity bits (= checks, but for DENSE) */
    uint32_t n_out;    /* transmitted bits a frame */
    uint32_t* row_ptr; /* m + 1: check r sums information bits row_info[row_ptr[r] .. row_ptr[r+1]) */
    uint32_t* row_info;
    uint32_t row_edges;
    /* transmitted bit t is bit out_src[t] of [information (k_mother) | parity (m)] */
    uint32_t* out_src;
    /* QC: check r*z + a is lane a of block row r, parity bit q*z + a lane a of parity block q */
    uint32_t z, mb, core, s0, steps;
    uint32_t* step_row;    /* steps */
    uint32_t* step_target; /* steps */
    int32_t* par_shift;    /* mb x mb: shift of parity block q in block row r, -1: none */
    /* DENSE: parity word w = the sum of gen[i * gen_words + w] over the information bits i that are 1 */
    uint32_t gen_words;
    uint32_t* gen;
} ldpc_enc_desc;

/* The description of code's encoder, or GPUFEC_ERR_UNSUPPORTED (with the reason in diag) for a
 * code of another family, or a generic one whose generator would exceed LDPC_ENC_DENSE_MAX_BITS. */
gpufec_status ldpc_enc_desc_build(ldpc_enc_desc* d, const gpufec_code* code, gpufec_diag* diag);
void ldpc_enc_desc_free(ldpc_enc_desc* d);
/* "staircase", "qc dual-diagonal", "dense generator". */
const char* ldpc_enc_variant(const ldpc_enc_desc* d);
/* Shared memory a frame's block needs (bytes). */
size_t ldpc_enc_desc_shared_bytes(const ldpc_enc_desc* d);

/* The two phases on the host, for the tests (exported for them; not public API). */
GPUFEC_API gpufec_status ldpc_enc_desc_run_host(const gpufec_code* code, const uint8_t* info, size_t n_frames,
                                                uint8_t* out, char* variant, size_t variant_len);

#endif
