/* The simulator's frames, each made alone from (seed, point, frame index) by the counter-based
 * generator of lib/core/sim_random.h: the same bits and soft values for a frame whatever the batch,
 * thread, GPU or rank that makes it. */
#ifndef GPUFEC_SIM_FRAMES_H
#define GPUFEC_SIM_FRAMES_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct {
    uint64_t seed;
    uint32_t point; /* index of the point in the sweep */
} sim_key;

/* k information bits of frame `frame`. */
void sim_frame_info(sim_key key, uint64_t frame, uint32_t k, uint8_t* bits);
/* BPSK (0 -> +1, 1 -> -1) over real AWGN of variance sigma2: LLRs 2y/sigma2 of n coded bits. */
void sim_frame_awgn_bpsk(sim_key key, uint64_t frame, const uint8_t* coded, uint32_t n, double sigma2, float* llr);
/* Gray-mapped square QAM with m bits per symbol (2: QPSK, 4: 16-QAM, 6: 64-QAM; unit average
 * symbol energy) over complex AWGN of variance sigma2 per dimension: max-log LLRs ln(P0/P1) of n
 * coded bits. Bits 0 .. m/2-1 of a symbol choose the in-phase level, the others the quadrature
 * one; within a dimension the first bit is the sign (0: positive). A last symbol that n does not
 * fill is padded with zeros. */
void sim_frame_awgn_qam(sim_key key, uint64_t frame, const uint8_t* coded, uint32_t n, int m, double sigma2,
                        float* llr);
/* Binary symmetric channel with crossover p: LLRs +-ln((1-p)/p). */
void sim_frame_bsc(sim_key key, uint64_t frame, const uint8_t* coded, uint32_t n, double p, float* llr);
/* Binary erasure channel with erasure probability p: LLR 0 for an erased bit, else +-SIM_BEC_LLR. */
#define SIM_BEC_LLR 20.0f
void sim_frame_bec(sim_key key, uint64_t frame, const uint8_t* coded, uint32_t n, double p, float* llr);

/* A word below it flips (BSC) or erases (BEC) its bit: floor(p 2^32). */
uint64_t sim_threshold(double p);
/* A NULL coded pointer stands for the all-zero codeword (--all-zero). */

#ifdef __cplusplus
}
#endif

#endif
