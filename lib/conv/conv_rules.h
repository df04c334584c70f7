/* The convolutional family's rules, written once for the CPU decoder and (through nvcc) the
 * kernels: the trellis (state = the K-1 previous inputs, the newest at bit K-2), a branch's
 * metric, the add-compare-select step, and the traceback step. Both backends evaluate the same
 * float expressions in the same order, so they take the same decisions. */
#ifndef GPUFEC_CONV_RULES_H
#define GPUFEC_CONV_RULES_H

#include "soft_value.h"

#include <stdint.h>

/* A metric no path reaches (finite, so that sums and differences stay defined). */
#define CONV_UNREACHED (-1.0e30f)

GPUFEC_HD uint32_t conv_parity(uint32_t x)
{
    x ^= x >> 16;
    x ^= x >> 8;
    x ^= x >> 4;
    x ^= x >> 2;
    x ^= x >> 1;
    return x & 1u;
}

/* The n output bits (bit j: generator j) of the step from state p with input u. */
GPUFEC_HD uint32_t conv_output_word(const uint32_t* generators, uint32_t n, uint32_t K, uint32_t p, uint32_t u)
{
    const uint32_t r = (u << (K - 1)) | p; /* the K register bits, current input on top */
    uint32_t c = 0;
    for (uint32_t j = 0; j < n; j++)
        c |= conv_parity(r & generators[j]) << j;
    return c;
}

/* The input that led to state s, and its predecessor given the survivor decision d. */
GPUFEC_HD uint32_t conv_input_of(uint32_t s, uint32_t K) { return s >> (K - 2); }
GPUFEC_HD uint32_t conv_prev_state(uint32_t s, uint32_t d, uint32_t S) { return ((s << 1) & (S - 1)) | d; }

/* Correlation of output word c with a step's n LLRs (positive = bit 0): sum of +L_j where bit j
 * of c is 0 and -L_j where it is 1, added in j order. */
GPUFEC_HD float conv_branch_metric(const float* L, uint32_t n, uint32_t c)
{
    float m = 0.0f;
    for (uint32_t j = 0; j < n; j++)
        m = m + (((c >> j) & 1u) ? -L[j] : L[j]);
    return m;
}

/* Add-compare-select of a state's two candidates (from predecessors 2i, 2i+1: metric plus branch
 * metric); d = 1 when the odd predecessor survives (strictly better). norm, subtracted from every
 * new metric, keeps them near zero: state 0's metric of the step before. */
GPUFEC_HD float conv_acs(float m0, float m1, float norm, uint32_t* d)
{
    *d = m1 > m0;
    return (m1 > m0 ? m1 : m0) - norm;
}

/* Bit `pos` of the mother codeword of the decided information bits u (k of them): u itself below
 * k, else output j of step t = (pos - k) / n re-encoded from the inputs of steps t-K+1 .. t
 * (before step 0: zeros, or with tail biting the last bits; from step k on: the zero tail). What
 * the decoders emit, so that no output needs the whole codeword encoded. */
GPUFEC_HD uint32_t conv_mother_bit(const uint8_t* u, uint32_t k, uint32_t n, uint32_t K, const uint32_t* generators,
                                   int tail_biting, uint32_t pos)
{
    if (pos < k)
        return u[pos];
    const uint32_t q = pos - k, step = q / n, j = q % n;
    uint32_t r = 0;
    for (uint32_t m = 0; m < K; m++) { /* register bit K-1-m: the input of step - m */
        const int x = (int)step - (int)m;
        const uint32_t b = x < 0 ? (tail_biting ? u[(int)k + x] : 0u) : (x < (int)k ? u[x] : 0u);
        r |= b << (K - 1 - m);
    }
    return conv_parity(r & generators[j]);
}

#endif
