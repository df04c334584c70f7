/* int8's outgoing magnitudes in two binary16 instructions: the search for a factor S and an
 * addend B with which relu(fma(m, S, B) - 1024) equals the rule's ms_magnitude for every minimum m
 * the int8 rule keeps (the integers in [0, LDPC_I8_MIN_MAX]). The CUDA plan runs it at create
 * (the half2 kernels then need no magnitude table); it lives here so that the CPU tests check it. */
#ifndef GPUFEC_LDPC_I8_MAG_H
#define GPUFEC_LDPC_I8_MAG_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* 1 and S, B as binary16 bits where such a pair exists near the rule's factor and offset (mode,
 * scale, offset as ms_magnitude takes them at int8, offset in steps), else 0 (the table stays). */
int ldpc_i8_mag_arith(int mode, float scale, float offset, uint16_t* s_bits, uint16_t* b_bits);

/* relu(fma(m, S, B) - 1024) as binary16 computes it (one rounding, to nearest even), exactly. */
double ldpc_i8_mag_eval(double m, uint16_t s_bits, uint16_t b_bits);

#ifdef __cplusplus
}
#endif

#endif
