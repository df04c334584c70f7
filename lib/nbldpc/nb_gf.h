/* GF(2^p) arithmetic for q = 4..256, written once for the host and (through nvcc) the device:
 * elements are integers 0..q-1 in the polynomial basis (bit i = coefficient of alpha^i), so
 * addition is XOR; products go through the log / antilog tables of the code's primitive
 * polynomial. */
#ifndef GPUFEC_NB_GF_H
#define GPUFEC_NB_GF_H

#include "soft_value.h"

#define NB_MAX_Q 256u
#define NB_MAX_P 8u

typedef struct {
    uint32_t q, p, poly;
    uint8_t exp[2 * NB_MAX_Q]; /* alpha^i for i < 2 (q - 1): a product never needs a modulo */
    int16_t log[NB_MAX_Q];     /* log_alpha(x); log[0] = -1 */
} nb_gf;

GPUFEC_HD uint32_t nb_gf_mul(const nb_gf* f, uint32_t a, uint32_t b)
{
    return a && b ? f->exp[f->log[a] + f->log[b]] : 0u;
}

/* a / b, b != 0. */
GPUFEC_HD uint32_t nb_gf_div(const nb_gf* f, uint32_t a, uint32_t b)
{
    return a ? f->exp[f->log[a] + (int)(f->q - 1) - f->log[b]] : 0u;
}

GPUFEC_HD uint32_t nb_gf_inv(const nb_gf* f, uint32_t a) { return f->exp[(int)(f->q - 1) - f->log[a]]; }

/* alpha^e for any e >= 0. */
GPUFEC_HD uint32_t nb_gf_pow(const nb_gf* f, uint32_t e) { return f->exp[e % (f->q - 1)]; }

/* Fills the tables; GPUFEC_ERR_INVALID_ARGUMENT when q is not 4..256 or poly is not primitive
 * of degree p. */
int nb_gf_init(nb_gf* f, uint32_t q, uint32_t poly);

#endif
