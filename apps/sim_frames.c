/* Compiled with -ffp-contract=off (apps/CMakeLists.txt): the soft values must be those the device
 * computes from the same counters (sim_random.h, sim_frames_rules.h). */
#include "sim_frames.h"

#include "sim_frames_rules.h"

#include <math.h>

void sim_frame_info(sim_key key, uint64_t frame, uint32_t k, uint8_t* bits)
{
    for (uint32_t j = 0; j * 128u < k; j++)
        sim_info_block(key, frame, j, k, bits);
}

void sim_frame_awgn_bpsk(sim_key key, uint64_t frame, const uint8_t* coded, uint32_t n, double sigma2, float* llr)
{
    const double sigma = sqrt(sigma2);
    for (uint32_t j = 0; j * 4u < n; j++)
        sim_bpsk_block(key, frame, j, coded, n, sigma, sigma2, llr);
}

void sim_frame_awgn_qam(sim_key key, uint64_t frame, const uint8_t* coded, uint32_t n, int m, double sigma2,
                        float* llr)
{
    const double sigma = sqrt(sigma2);
    for (uint32_t s = 0; s * (uint32_t)m < n; s++)
        sim_qam_symbol(key, frame, s, coded, n, m, sigma, sigma2, llr);
}

uint64_t sim_threshold(double p) { return (uint64_t)floor(p * 4294967296.0); }

void sim_frame_bsc(sim_key key, uint64_t frame, const uint8_t* coded, uint32_t n, double p, float* llr)
{
    const float mag = (float)log((1.0 - p) / p);
    for (uint32_t j = 0; j * 4u < n; j++)
        sim_binary_block(key, frame, j, coded, n, sim_threshold(p), mag, 0, llr);
}

void sim_frame_bec(sim_key key, uint64_t frame, const uint8_t* coded, uint32_t n, double p, float* llr)
{
    for (uint32_t j = 0; j * 4u < n; j++)
        sim_binary_block(key, frame, j, coded, n, sim_threshold(p), SIM_BEC_LLR, 1, llr);
}
