/* gr-gpufec public C API: convolutional codes, the fourth code family, decoded by the Viterbi
 * algorithm (soft decision).
 *
 * Code names (gpufec_code_open):
 *   conv-k<K>-<g0>-<g1>[-<g2>...]  rate 1/n feedforward code of constraint length K = 2..9 from
 *                                  n = 2..8 octal generator polynomials; the most significant
 *                                  of a generator's K bits taps the current input (171 = 1111001)
 *   cc-k7-<r>                      the K = 7 (171, 133) code of CCSDS 131.0-B and DVB-S (EN 300
 *                                  421), r = 1_2, 2_3, 3_4, 5_6, 7_8 with DVB-S's puncturing
 *                                  (2/3: X 10 Y 11; 3/4: X 101 Y 110; 5/6: X 10101 Y 11010;
 *                                  7/8: X 1000101 Y 1111010); CCSDS's inverted second output is
 *                                  not applied
 *   lte-tbcc-<k>                   the LTE tail-biting code of TS 36.212 5.1.3.1: K = 7, rate
 *                                  1/3, (133, 171, 165), k = 8..8192 information bits
 * Options after the name:
 *   :k=<bits>                      information bits per frame (conv-*, cc-*: default 1024;
 *                                  1..65536)
 *   :term=zero|tb|trunc            zero: K-1 zero tail bits end the frame in state 0 (default);
 *                                  tb: tail-biting, the frame starts in the state it ends in
 *                                  (the last K-1 information bits); trunc: truncated, no tail
 *   :punct=<row0>-<row1>[-...]     a puncturing pattern, one row of 0/1 per generator, all of
 *                                  one period (1..64); output j of step t is sent when row j
 *                                  has a 1 at t mod period
 * Mother codeword: the k information bits (never transmitted), then the coded bits in time
 * order, output 0 .. n-1 of each step: position k + n t + j. A frame transmits the coded bits
 * the pattern keeps, in that order (n (k + K - 1) of them for zero termination, n k otherwise,
 * unpunctured).
 *
 * Decoding: soft-decision Viterbi, maximum-likelihood for zero-terminated and truncated frames
 * (float path metrics; the CPU runs 16 frames per vector, the GPU a thread per state pair, with
 * the same decisions). Tail-biting frames use the wrap-around Viterbi algorithm: up to
 * max_iterations passes over the frame, each starting from the previous pass's end metrics,
 * stopping at the first pass whose best path starts and ends in the same state; such a frame
 * counts as decoded. Zero-terminated and truncated frames count as decoded unless every soft
 * bit is an erasure. */
#ifndef GPUFEC_CONV_H
#define GPUFEC_CONV_H

#include "code.h"

#ifdef __cplusplus
extern "C" {
#endif

#define GPUFEC_CONV_MAX_K 9u /* constraint length */
#define GPUFEC_CONV_MAX_N 8u /* generators (rate 1/n) */

typedef enum {
    GPUFEC_CONV_TERM_ZERO = 0,        /* K-1 zero tail bits */
    GPUFEC_CONV_TERM_TAIL_BITING = 1, /* start state = end state */
    GPUFEC_CONV_TERM_TRUNCATED = 2    /* no tail, any end state */
} gpufec_conv_termination;

typedef struct {
    uint32_t K;                          /* constraint length */
    uint32_t n;                          /* generators: mother rate 1/n */
    uint32_t generators[GPUFEC_CONV_MAX_N]; /* K bits each, MSB = current input */
    uint32_t k;                          /* information bits per frame */
    uint32_t steps;                      /* trellis steps: k, or k + K - 1 with zero tail */
    gpufec_conv_termination termination;
    uint32_t punct_period;               /* 0: unpunctured */
} gpufec_conv_info;

/* GPUFEC_ERR_UNSUPPORTED for codes of another family. */
GPUFEC_API gpufec_status gpufec_code_conv_info(const gpufec_code* code, gpufec_conv_info* info);

#ifdef __cplusplus
}
#endif

#endif
