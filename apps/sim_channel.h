/* Random sources and channel models for the error-rate simulator. */
#ifndef GPUFEC_SIM_CHANNEL_H
#define GPUFEC_SIM_CHANNEL_H

#include <stddef.h>
#include <stdint.h>

typedef struct {
    uint64_t s[4];
} sim_rng; /* xoshiro256** */

void sim_rng_seed(sim_rng* r, uint64_t seed, uint64_t stream_a, uint64_t stream_b);
uint64_t sim_rng_next(sim_rng* r);
double sim_rng_uniform(sim_rng* r); /* [0, 1) */
double sim_rng_gauss(sim_rng* r);   /* N(0, 1) */

/* BPSK (0 -> +1, 1 -> -1) over real AWGN of variance sigma2; writes LLRs 2y/sigma2. */
void sim_awgn_bpsk(sim_rng* r, const uint8_t* bits, size_t count, double sigma2, float* llr);
/* Binary symmetric channel with crossover p; writes LLRs +-ln((1-p)/p). */
void sim_bsc(sim_rng* r, const uint8_t* bits, size_t count, double p, float* llr);

#endif
