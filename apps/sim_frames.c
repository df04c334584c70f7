/* Compiled with -ffp-contract=off (apps/CMakeLists.txt): the soft values must be those the device
 * computes from the same counters (sim_random.h). */
#include "sim_frames.h"

#include "sim_random.h"

#include <math.h>

void sim_frame_info(sim_key key, uint64_t frame, uint32_t k, uint8_t* bits)
{
    for (uint32_t j = 0; j * 128u < k; j++) {
        const sim_block b = sim_philox(key.seed, key.point, frame, j, SIM_DOMAIN_INFO);
        const uint32_t end = k - j * 128u < 128u ? k - j * 128u : 128u;
        for (uint32_t i = 0; i < end; i++)
            bits[j * 128u + i] = (uint8_t)sim_info_bit(b, i);
    }
}

void sim_frame_awgn_bpsk(sim_key key, uint64_t frame, const uint8_t* coded, uint32_t n, double sigma2, float* llr)
{
    const double sigma = sqrt(sigma2), scale = 2.0 / sigma2;
    for (uint32_t j = 0; j * 4u < n; j++) { /* four coded bits per block: two Box-Muller pairs */
        const sim_block b = sim_philox(key.seed, key.point, frame, j, SIM_DOMAIN_NOISE);
        double z[4];
        sim_gauss2(b.w[0], b.w[1], &z[0], &z[1]);
        sim_gauss2(b.w[2], b.w[3], &z[2], &z[3]);
        for (uint32_t t = 0; t < 4 && j * 4u + t < n; t++) {
            const uint32_t i = j * 4u + t;
            const double y = (coded[i] ? -1.0 : 1.0) + sigma * z[t];
            llr[i] = (float)(scale * y);
        }
    }
}

void sim_frame_bsc(sim_key key, uint64_t frame, const uint8_t* coded, uint32_t n, double p, float* llr)
{
    const float mag = (float)log((1.0 - p) / p);
    const uint64_t threshold = (uint64_t)floor(p * 4294967296.0); /* a word below it flips its bit */
    for (uint32_t j = 0; j * 4u < n; j++) {
        const sim_block b = sim_philox(key.seed, key.point, frame, j, SIM_DOMAIN_FLIP);
        for (uint32_t t = 0; t < 4 && j * 4u + t < n; t++) {
            const uint32_t i = j * 4u + t;
            const uint8_t bit = coded[i] ^ (uint8_t)((uint64_t)b.w[t] < threshold);
            llr[i] = bit ? -mag : mag;
        }
    }
}
