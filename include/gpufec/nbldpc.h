/* gr-gpufec public C API: non-binary LDPC codes over GF(q = 2^p), q = 4..256, the third code
 * family (seeds 000 and 001).
 *
 * Code names (gpufec_code_open):
 *   nb-qc-gf32-744, nb-qc-gf32-837, nb-qc-gf64-1512   quasi-cyclic codes of seed 001 built by
 *                                      array dispersion (docs/nbldpc.md gives the base array)
 *   nb-gf<q>-<bits>                    a regular code over GF(q) carrying about <bits>
 *                                      information bits at rate 1/2 (seed 000's codes, e.g.
 *                                      nb-gf64-5040), built by progressive edge growth with
 *                                      seeded coefficients: a name always builds the same code
 *   FILE.kn                            a parity-check matrix in the Kaiserslautern ".kn" format
 *   FILE.nbalist                       our own alist-like text format with coefficients
 *                                      (docs/formats.md; gpufec_code_export_nbalist writes it)
 * Lengths in the names are in bits; gpufec_nbldpc_info gives them in symbols.
 *
 * Binary image: symbol j of the codeword occupies mother positions j p .. j p + p - 1; position
 * j p + i carries bit i (the coefficient of alpha^i in the polynomial basis) of the symbol. The
 * decoders take one soft bit per position (LLR ln P(0)/P(1), as every family) and build symbol
 * likelihoods from them; they output bits in the same order. */
#ifndef GPUFEC_NBLDPC_H
#define GPUFEC_NBLDPC_H

#include "code.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum {
    GPUFEC_NB_FFT_BP = 0, /* belief propagation, check nodes through the Walsh-Hadamard transform
                             (the FFT over GF(2^p)); messages are log-domain costs (seed 000) */
    GPUFEC_NB_MIN_MAX = 1 /* min-max (Savin), forward / backward / merger check update with the
                             merger free of GF multiplications (seed 001) */
} gpufec_nb_algorithm;

typedef struct {
    uint32_t q, p;       /* field size and bits per symbol */
    uint32_t poly;       /* primitive polynomial, bit i = coefficient of x^i (GF(64): 0x43) */
    uint32_t n, m, k;    /* codeword, check and information symbols (k = n - rank) */
    uint32_t rank;       /* rank of H over GF(q) */
    uint32_t edges;      /* non-zero entries of H */
    uint32_t max_var_degree, max_check_degree;
    uint32_t qc_lifting; /* circulant size of a quasi-cyclic code (its block rows are the
                            layers of the layered schedule); 0 when none is known */
    int can_encode;      /* 0 when H is too large for the dense systematic encoder */
} gpufec_nbldpc_info;

/* GPUFEC_ERR_UNSUPPORTED for codes of another family. */
GPUFEC_API gpufec_status gpufec_code_nbldpc_info(const gpufec_code* code, gpufec_nbldpc_info* info);

/* The default primitive polynomial of GF(q) (q = 4..256; 0 when q is not one of them). */
GPUFEC_API uint32_t gpufec_nb_default_poly(uint32_t q);

/* Writes H in the ".nbalist" format (docs/formats.md); GF(q) LDPC codes only. */
GPUFEC_API gpufec_status gpufec_code_export_nbalist(const gpufec_code* code, const char* path);

/* "fft-bp", "min-max". */
GPUFEC_API const char* gpufec_nb_algorithm_name(gpufec_nb_algorithm a);

#ifdef __cplusplus
}
#endif

#endif
