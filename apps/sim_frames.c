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

/* The Gray-mapped level of one dimension of M-QAM: h = m/2 bits, the first the sign, the rest
 * the magnitude (2^h - 1, ..., 3, 1 in Gray order: 16-QAM 3 + (1-2b1) ... ), in units before
 * normalisation. */
static double pam_level(const uint8_t* b, int h)
{
    double mag = 1.0;
    if (h == 2)
        mag = 2.0 + (1 - 2 * b[1]);
    else if (h == 3)
        mag = 4.0 + (1 - 2 * b[1]) * (2.0 + (1 - 2 * b[2]));
    return (1 - 2 * b[0]) * mag;
}

void sim_frame_awgn_qam(sim_key key, uint64_t frame, const uint8_t* coded, uint32_t n, int m, double sigma2,
                        float* llr)
{
    const int h = m / 2, levels = 1 << h;
    /* unit average symbol energy: QPSK 1/sqrt(2), 16-QAM 1/sqrt(10), 64-QAM 1/sqrt(42) */
    const double scale = h == 1 ? sqrt(0.5) : h == 2 ? sqrt(0.1) : sqrt(1.0 / 42.0);
    const double sigma = sqrt(sigma2);
    double level[8];
    uint8_t pattern[8][3];
    for (int v = 0; v < levels; v++) { /* every level of a dimension with its bits */
        for (int t = 0; t < h; t++)
            pattern[v][t] = (uint8_t)((v >> (h - 1 - t)) & 1);
        level[v] = scale * pam_level(pattern[v], h);
    }
    const uint32_t symbols = (n + (uint32_t)m - 1) / (uint32_t)m;
    for (uint32_t s = 0; s < symbols; s++) {
        /* two symbols per block: Gaussian pair (w0, w1) for symbol 2j, (w2, w3) for 2j + 1 */
        const sim_block b = sim_philox(key.seed, key.point, frame, s / 2, SIM_DOMAIN_NOISE);
        double z[2];
        if (s % 2 == 0)
            sim_gauss2(b.w[0], b.w[1], &z[0], &z[1]);
        else
            sim_gauss2(b.w[2], b.w[3], &z[0], &z[1]);
        for (int d = 0; d < 2; d++) { /* in-phase, quadrature */
            uint8_t bits[3] = {0, 0, 0};
            for (int t = 0; t < h; t++) {
                const uint32_t i = s * (uint32_t)m + (uint32_t)(d * h + t);
                bits[t] = i < n ? coded[i] : 0;
            }
            const double y = scale * pam_level(bits, h) + sigma * z[d];
            for (int t = 0; t < h; t++) {
                const uint32_t i = s * (uint32_t)m + (uint32_t)(d * h + t);
                if (i >= n)
                    continue;
                double best0 = 1e300, best1 = 1e300; /* max-log: nearest level with the bit 0 / 1 */
                for (int v = 0; v < levels; v++) {
                    const double e = (y - level[v]) * (y - level[v]);
                    if (pattern[v][t])
                        best1 = e < best1 ? e : best1;
                    else
                        best0 = e < best0 ? e : best0;
                }
                llr[i] = (float)((best1 - best0) / (2.0 * sigma2));
            }
        }
    }
}

void sim_frame_bec(sim_key key, uint64_t frame, const uint8_t* coded, uint32_t n, double p, float* llr)
{
    const uint64_t threshold = (uint64_t)floor(p * 4294967296.0); /* a word below it erases its bit */
    for (uint32_t j = 0; j * 4u < n; j++) {
        const sim_block b = sim_philox(key.seed, key.point, frame, j, SIM_DOMAIN_FLIP);
        for (uint32_t t = 0; t < 4 && j * 4u + t < n; t++) {
            const uint32_t i = j * 4u + t;
            llr[i] = (uint64_t)b.w[t] < threshold ? 0.0f : coded[i] ? -SIM_BEC_LLR : SIM_BEC_LLR;
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
