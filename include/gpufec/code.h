/* gr-gpufec public C API: code objects. A code belongs to a family (gpufec_family; each family's
 * own header describes its codes); every family has a mother codeword of n_full bits carrying k
 * information bits, an encoder, and a transmission map saying which mother positions a frame of
 * n bits sends (puncturing, shortening, repetition). The LDPC-specific readers are below. */
#ifndef GPUFEC_CODE_H
#define GPUFEC_CODE_H

#include "common.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum {
    GPUFEC_FAMILY_LDPC = 0,  /* binary LDPC: parity-check matrix H */
    GPUFEC_FAMILY_TURBO = 1, /* 3GPP LTE turbo */
    GPUFEC_FAMILY_NBLDPC = 2, /* non-binary GF(q) LDPC */
    GPUFEC_FAMILY_CONV = 3    /* convolutional codes, Viterbi decoding (conv.h) */
} gpufec_family;

/* "ldpc", "turbo", "nbldpc" ("unknown" out of range). */
GPUFEC_API const char* gpufec_family_name(gpufec_family family);
/* The families this build has, in the registry's order: index 0 .. gpufec_family_count() - 1
 * (GPUFEC_ERR_INVALID_ARGUMENT beyond). Tools and GRC iterate these rather than name families. */
GPUFEC_API size_t gpufec_family_count(void);
GPUFEC_API gpufec_status gpufec_family_at(size_t index, gpufec_family* family);
/* "LDPC", "LTE turbo", "GF(q) LDPC": how tools show the family (NULL: not a family). */
GPUFEC_API const char* gpufec_family_label(gpufec_family family);
/* The decoder option that names the family's decoders: "algorithm", "turbo_algorithm",
 * "nb_algorithm" (NULL: not a family). */
GPUFEC_API const char* gpufec_family_algorithm_option(gpufec_family family);
/* Whether the family's decoders read decoder option `name` beyond the common ones: its own options
 * and those it shares with another family (GF(q) LDPC reads `schedule`). 0 for common options. */
GPUFEC_API int gpufec_family_reads_option(gpufec_family family, const char* name);

/* Opaque, immutable once created: one code object may be shared by any number of decoders and
 * threads. */
typedef struct gpufec_code gpufec_code;

typedef struct {
    uint32_t n;           /* transmitted bits per frame: encoder output, decoder input */
    uint32_t n_full;      /* mother codeword length (columns of H for LDPC) */
    uint32_t punctured;   /* mother positions not transmitted, decoded as erasures */
    uint32_t shortened;   /* filler bits: information positions fixed to 0, not transmitted */
    /* LDPC codes (0 for other families): */
    uint32_t m;           /* number of parity checks (rows of H) */
    uint32_t k;           /* information bits per frame: n_full - rank(H) - shortened */
    uint32_t rank;        /* GF(2) rank of H (< m for matrices with redundant rows) */
    uint32_t edges;       /* non-zero entries of H */
    uint32_t max_var_degree;
    uint32_t max_check_degree;
    double rate;          /* k / n, over the transmitted bits */
    uint32_t qc_lifting;  /* Z of a quasi-cyclic code, 0 when no QC structure is known */
    int structured_encoder; /* 1: linear-time encoder (QC dual-diagonal, DVB-S2); 0: generic */
    uint32_t layers;      /* layers of the layered schedule (rows in a layer share no variable) */
    uint32_t layer_lifting; /* Z when every layer is Z rows of circulant structure (QC codes,
                               DVB-S2's 360-groups): the GPU then derives edges instead of
                               loading them; 0 otherwise */
    gpufec_family family;
    uint32_t repeated;    /* transmitted bits that repeat a position already sent (n counts
                             them; the decoder sums their soft values) */
} gpufec_code_info;

/* Limits the readers enforce so that no input can make them allocate without bound. */
#define GPUFEC_MAX_CODE_LENGTH 4000000u /* columns */
#define GPUFEC_MAX_EDGES 64000000u
/* The generic encoder (any H) triangulates H by peeling and solves the rows that do not
 * triangulate (the gap, g of them) densely: g^2/8 bytes at open, twice that once encoding
 * starts. Codes whose gap exceeds this many rows are refused with GPUFEC_ERR_TOO_LARGE. */
#define GPUFEC_ENCODER_MAX_GAP 8192u

/* ---- Binary LDPC ---- */

/* Reads a MacKay alist matrix. Accepts '#' comment lines, CRLF line ends, index lists padded
 * with zeros or not. Rejects every inconsistency with GPUFEC_ERR_PARSE and, when diag is not
 * NULL, a message naming the line. */
GPUFEC_API gpufec_status gpufec_code_from_alist_file(gpufec_code** out, const char* path,
                                                     gpufec_diag* diag);
GPUFEC_API gpufec_status gpufec_code_from_alist_text(gpufec_code** out, const char* text,
                                                     size_t length, gpufec_diag* diag);

/* Reads a quasi-cyclic prototype matrix: one line per block row, one entry per block column,
 * an entry s >= 0 is the Z x Z identity cyclically shifted right by s (row r has its one in
 * column (r + s) mod Z), '-' or -1 is the zero block. `lifting` is Z; 0 takes Z from a
 * "Z=<n>" in a leading '#' comment (as in the IEEE 802.11n tables). */
GPUFEC_API gpufec_status gpufec_code_from_qc_file(gpufec_code** out, const char* path,
                                                  uint32_t lifting, gpufec_diag* diag);
GPUFEC_API gpufec_status gpufec_code_from_qc_text(gpufec_code** out, const char* text,
                                                  size_t length, uint32_t lifting,
                                                  gpufec_diag* diag);

/* ---- Every family ---- */

/* Opens a code of any family: a built-in name (see gpufec_code_builtin_name), else a file (LDPC:
 * ".qc"/".txt" prototype matrices, anything else as alist). Options follow the name after ':'
 * as key=value; LDPC: ":k=<K'>" shortens the code to K' information bits (the last K - K'
 * information positions become filler bits: known zeros, not transmitted), as 5G NR does. */
GPUFEC_API gpufec_status gpufec_code_open(gpufec_code** out, const char* name_or_path,
                                          gpufec_diag* diag);

/* Number of built-in codes and the name of the i-th (NULL when out of range). */
GPUFEC_API size_t gpufec_code_builtin_count(void);
GPUFEC_API const char* gpufec_code_builtin_name(size_t index);
/* The family of the i-th built-in code (GPUFEC_ERR_INVALID_ARGUMENT when out of range). */
GPUFEC_API gpufec_status gpufec_code_builtin_family(size_t index, gpufec_family* family);

GPUFEC_API gpufec_status gpufec_code_destroy(gpufec_code* code);

/* One line, from the code's family, on what the code is beyond its sizes, e.g. "GF(2)",
 * "GF(64) N=168 K=84 symbols", "turbo, mother code N=18444", "K=7 (171, 133), zero tail"
 * (gpufec-info's last column). text receives at most length bytes, NUL-terminated. */
GPUFEC_API gpufec_status gpufec_code_summary(const gpufec_code* code, char* text, size_t length);
GPUFEC_API gpufec_status gpufec_code_get_info(const gpufec_code* code, gpufec_code_info* info);

/* Replaces what a frame transmits (custom rate matching): frame bit t carries mother codeword
 * position positions[t], t < n. A position may be named several times (repetition: the decoder
 * sums the soft values of its copies); positions never named are punctured (erasures); filler
 * bits may not be named. The code's filler bits and information bits stay; n may be smaller or
 * larger than n_full. Call it on a code no decoder uses yet. */
GPUFEC_API gpufec_status gpufec_code_set_transmission(gpufec_code* code, const uint32_t* positions, uint32_t n,
                                                      gpufec_diag* diag);

/* The k positions of the full codeword (0..n_full-1) that carry the information bits, ascending.
 * The encoder places information bit i at position positions[i]; the decoder's information
 * output reads them back in the same order. `positions` must hold info.k entries. */
GPUFEC_API gpufec_status gpufec_code_info_positions(const gpufec_code* code, uint32_t* positions);

/* Encodes n_frames frames: info holds n_frames * k bits, frames receives n_frames * n
 * transmitted bits (punctured and filler positions left out, the others in codeword order);
 * one bit per byte (0 or 1; any non-zero input byte is read as 1). */
GPUFEC_API gpufec_status gpufec_code_encode(const gpufec_code* code, const uint8_t* info,
                                            size_t n_frames, uint8_t* frames);

/* Same, but writes whole codewords of n_full bits (what H checks). */
GPUFEC_API gpufec_status gpufec_code_encode_full(const gpufec_code* code, const uint8_t* info,
                                                 size_t n_frames, uint8_t* codewords);

/* Number of unsatisfied parity checks of one codeword of n_full bits (0: it is a codeword);
 * GPUFEC_ERR_UNSUPPORTED for a family without parity checks. */
GPUFEC_API gpufec_status gpufec_code_syndrome_weight(const gpufec_code* code, const uint8_t* word,
                                                     uint32_t* weight);

/* Copies the information bits (k of them) out of n_frames codewords of n_full bits. */
GPUFEC_API gpufec_status gpufec_code_extract_info(const gpufec_code* code,
                                                  const uint8_t* codewords, size_t n_frames,
                                                  uint8_t* info);

/* HARQ soft combining (5G NR rate matching, TS 38.212 5.4.2). Every rate-matched code of one
 * code block (any rv, E, qm) maps its transmitted soft values into one buffer per frame: the
 * soft bits in the order the block's mother code transmits them, the code named in harq_code
 * (e.g. "5gnr-bg1-z384:k=8448:crc=24b": the circular buffer without filler bits). Retransmissions
 * add up there (soft values of one bit are log-likelihood ratios: they sum), and the decoder of
 * the mother code decodes the sum. Codes without rate matching: GPUFEC_ERR_UNSUPPORTED.
 *   gpufec_code_harq_info: len, the buffer's values per frame; harq_code (length bytes,
 *     NUL-terminated; may be NULL) the name of the code that decodes it.
 *   gpufec_code_harq_combine: buffer[f * len + ...] += the n_frames frames' n soft values (NaN
 *     reads as 0, an erasure; +-Inf as +-GPUFEC_LLR_MAX, and sums are held to that range).
 *     Start from a zeroed buffer. */
GPUFEC_API gpufec_status gpufec_code_harq_info(const gpufec_code* code, uint32_t* len, char* harq_code,
                                               size_t length);
GPUFEC_API gpufec_status gpufec_code_harq_combine(const gpufec_code* code, const float* soft, size_t n_frames,
                                                  float* buffer);

/* Writes H as an alist file (no padding, LF line ends); LDPC codes only (else
 * GPUFEC_ERR_UNSUPPORTED). */
GPUFEC_API gpufec_status gpufec_code_export_alist(const gpufec_code* code, const char* path);

#ifdef __cplusplus
}
#endif

#endif
