/* One block of a simulated frame, written once for the host (sim_frames.c, loops over blocks) and
 * the device (sim_gpu.cu, a thread per block): the frame's information bits, 128 per block, and
 * its channel values, four coded bits per block (BPSK, BSC, BEC) or one symbol (QAM). `coded`
 * NULL means the all-zero codeword. Compiled without fused multiply-adds (sim_random.h). */
#ifndef GPUFEC_SIM_FRAMES_RULES_H
#define GPUFEC_SIM_FRAMES_RULES_H

#include "sim_frames.h"
#include "sim_random.h"

SIM_HD void sim_info_block(sim_key key, uint64_t frame, uint32_t j, uint32_t k, uint8_t* bits)
{
    const sim_block b = sim_philox(key.seed, key.point, frame, j, SIM_DOMAIN_INFO);
    const uint32_t end = k - j * 128u < 128u ? k - j * 128u : 128u;
    for (uint32_t i = 0; i < end; i++)
        bits[j * 128u + i] = (uint8_t)sim_info_bit(b, i);
}

SIM_HD uint8_t sim_coded_bit(const uint8_t* coded, uint32_t i) { return coded ? coded[i] : (uint8_t)0; }

/* BPSK over real AWGN: LLR 2y/sigma2, y = +-1 + sigma z. */
SIM_HD void sim_bpsk_block(sim_key key, uint64_t frame, uint32_t j, const uint8_t* coded, uint32_t n, double sigma,
                           double sigma2, float* llr)
{
    const sim_block b = sim_philox(key.seed, key.point, frame, j, SIM_DOMAIN_NOISE);
    double z[4];
    sim_gauss2(b.w[0], b.w[1], &z[0], &z[1]);
    sim_gauss2(b.w[2], b.w[3], &z[2], &z[3]);
    const double scale = 2.0 / sigma2;
    for (uint32_t t = 0; t < 4 && j * 4u + t < n; t++) {
        const uint32_t i = j * 4u + t;
        const double y = (sim_coded_bit(coded, i) ? -1.0 : 1.0) + sigma * z[t];
        llr[i] = (float)(scale * y);
    }
}

/* BSC (erase = 0) or BEC (erase = 1): a word below `threshold` flips or erases its bit. */
SIM_HD void sim_binary_block(sim_key key, uint64_t frame, uint32_t j, const uint8_t* coded, uint32_t n,
                             uint64_t threshold, float mag, int erase, float* llr)
{
    const sim_block b = sim_philox(key.seed, key.point, frame, j, SIM_DOMAIN_FLIP);
    for (uint32_t t = 0; t < 4 && j * 4u + t < n; t++) {
        const uint32_t i = j * 4u + t;
        const int hit = (uint64_t)b.w[t] < threshold;
        const uint8_t bit = (uint8_t)(sim_coded_bit(coded, i) ^ (erase ? 0 : hit));
        llr[i] = erase && hit ? 0.0f : bit ? -mag : mag;
    }
}

/* The Gray-mapped level of one dimension of M-QAM before normalisation: h = m/2 bits, the first
 * the sign (0: positive), the rest the magnitude in Gray order (16-QAM: 3, 1; 64-QAM: 7, 5, 3, 1). */
SIM_HD double sim_pam_level(const uint8_t* b, int h)
{
    double mag = 1.0;
    if (h == 2)
        mag = 2.0 + (1 - 2 * b[1]);
    else if (h == 3)
        mag = 4.0 + (1 - 2 * b[1]) * (2.0 + (1 - 2 * b[2]));
    return (1 - 2 * b[0]) * mag;
}

/* Unit average symbol energy: QPSK 1/sqrt(2), 16-QAM 1/sqrt(10), 64-QAM 1/sqrt(42). */
SIM_HD double sim_qam_scale(int m) { return m == 2 ? sqrt(0.5) : m == 4 ? sqrt(0.1) : sqrt(1.0 / 42.0); }

/* Symbol s of Gray square QAM with m bits over complex AWGN of variance sigma2 per dimension:
 * max-log LLRs of its m bits (two symbols per block: the Gaussian pair (w0, w1) for even s,
 * (w2, w3) for odd). Bits 0 .. m/2-1 choose the in-phase level; a symbol past n is padded with 0. */
SIM_HD void sim_qam_symbol(sim_key key, uint64_t frame, uint32_t s, const uint8_t* coded, uint32_t n, int m,
                           double sigma, double sigma2, float* llr)
{
    const int h = m / 2, levels = 1 << h;
    const double scale = sim_qam_scale(m);
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
            bits[t] = i < n ? sim_coded_bit(coded, i) : (uint8_t)0;
        }
        const double y = scale * sim_pam_level(bits, h) + sigma * z[d];
        for (int t = 0; t < h; t++) {
            const uint32_t i = s * (uint32_t)m + (uint32_t)(d * h + t);
            if (i >= n)
                continue;
            double best0 = 1e300, best1 = 1e300; /* max-log: the nearest level with the bit 0 / 1 */
            for (int v = 0; v < levels; v++) {
                uint8_t p[3];
                for (int u = 0; u < h; u++)
                    p[u] = (uint8_t)((v >> (h - 1 - u)) & 1);
                const double e = (y - scale * sim_pam_level(p, h)) * (y - scale * sim_pam_level(p, h));
                if (p[t])
                    best1 = e < best1 ? e : best1;
                else
                    best0 = e < best0 ? e : best0;
            }
            llr[i] = (float)((best1 - best0) / (2.0 * sigma2));
        }
    }
}

#endif
