/* The simulator's random numbers (lib/core/sim_random.h) against independent facts: Philox4x32-10
 * gives Random123's published known-answer vectors; the logarithm, sine and cosine built from
 * exact operations agree with the C library to 1e-14; Box-Muller variates have the moments of
 * N(0, 1); a frame's bits and soft values do not depend on which frames are made with it or in
 * which order (apps/sim_frames.c). */
#include "test_util.h"

#include "../../apps/sim_frames.h"
#include "sim_random.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void known_answers(void)
{
    /* Random123 kat_vectors, philox4x32 with 10 rounds: (counter, key) -> output. The key here is
     * (seed low word, seed high word ^ point * 0x9E3779B9), so point 0 passes the key through. */
    const struct {
        uint64_t frame, seed;
        uint32_t block, domain, want[4];
    } kat[] = {
        {0, 0, 0, 0, {0x6627e8d5u, 0xe169c58du, 0xbc57ac4cu, 0x9b00dbd8u}},
        {0xffffffffffffffffull, 0xffffffffffffffffull, 0xffffffffu, 0xffffffffu,
         {0x408f276du, 0x41c83b0eu, 0xa20bc7c6u, 0x6d5451fdu}},
        {0x85a308d3243f6a88ull, 0x299f31d0a4093822ull, 0x13198a2eu, 0x03707344u,
         {0xd16cfe09u, 0x94fdccebu, 0x5001e420u, 0x24126ea1u}},
    };
    for (size_t i = 0; i < 3; i++) {
        const sim_block b = sim_philox(kat[i].seed, 0, kat[i].frame, kat[i].block, kat[i].domain);
        CHECK(memcmp(b.w, kat[i].want, sizeof b.w) == 0, "Philox KAT %zu: %08x %08x %08x %08x", i, b.w[0], b.w[1],
              b.w[2], b.w[3]);
    }
}

static void functions(void)
{
    double worst_log = 0, worst_trig = 0;
    for (uint32_t i = 0; i < 1000000; i++) {
        const uint32_t w = (uint32_t)(test_rand() >> 32);
        const double x = sim_unit(w), l = sim_log(x);
        if (fabs(l - log(x)) > worst_log * fabs(log(x)))
            worst_log = fabs(l - log(x)) / fabs(log(x));
        const double t = (double)w / 4294967296.0;
        double s, c;
        sim_sincos_turn(t, &s, &c);
        const double e = fmax(fabs(s - sin(2 * M_PI * t)), fabs(c - cos(2 * M_PI * t)));
        worst_trig = e > worst_trig ? e : worst_trig;
    }
    printf("sim_log: worst relative error %.2e; sim_sincos_turn: worst absolute error %.2e\n", worst_log, worst_trig);
    CHECK(worst_log < 1e-14 && worst_trig < 1e-14, "log %.2e, sin/cos %.2e", worst_log, worst_trig);
}

static void gaussian_moments(void)
{
    double m1 = 0, m2 = 0, m4 = 0;
    long tail = 0;
    const long n = 2000000;
    for (long f = 0; f < n / 4; f++) {
        const sim_block b = sim_philox(12345, 7, (uint64_t)f, 3, SIM_DOMAIN_NOISE);
        double z[4];
        sim_gauss2(b.w[0], b.w[1], &z[0], &z[1]);
        sim_gauss2(b.w[2], b.w[3], &z[2], &z[3]);
        for (int i = 0; i < 4; i++) {
            m1 += z[i], m2 += z[i] * z[i], m4 += z[i] * z[i] * z[i] * z[i];
            tail += fabs(z[i]) > 3.0;
        }
    }
    m1 /= n, m2 /= n, m4 /= n;
    const double p3 = (double)tail / n; /* P(|Z| > 3) = 0.0026998 */
    printf("Gaussian variates: mean %.5f, variance %.5f, 4th moment %.4f, P(|Z|>3) %.6f\n", m1, m2, m4, p3);
    CHECK(fabs(m1) < 0.004 && fabs(m2 - 1) < 0.006 && fabs(m4 - 3) < 0.05 && fabs(p3 - 0.0026998) < 0.0003,
          "moments off");
}

static void frames_stand_alone(void)
{
    const uint32_t k = 300, n = 601;
    uint8_t u1[300], u2[300], c[601];
    float a[601], b[601];
    const sim_key key = {99, 4};
    for (uint32_t i = 0; i < n; i++)
        c[i] = (uint8_t)(test_rand() & 1);
    sim_frame_info(key, 1000, k, u1);
    sim_frame_awgn_bpsk(key, 1000, c, n, 0.5, a);
    for (uint64_t f = 0; f < 5; f++) { /* other frames made in between change nothing */
        sim_frame_info(key, f, k, u2);
        sim_frame_awgn_bpsk(key, f, c, n, 0.5, b);
    }
    sim_frame_info(key, 1000, k, u2);
    sim_frame_awgn_bpsk(key, 1000, c, n, 0.5, b);
    CHECK(memcmp(u1, u2, k) == 0 && memcmp(a, b, sizeof a) == 0, "frame 1000 depends on what was made before");
    sim_frame_info(key, 1001, k, u2);
    int same = 0;
    for (uint32_t i = 0; i < k; i++)
        same += u1[i] == u2[i];
    CHECK(same > 100 && same < 200, "frames 1000 and 1001 share %d of 300 bits", same);
    const sim_key other = {99, 5};
    sim_frame_info(other, 1000, k, u2);
    CHECK(memcmp(u1, u2, k) != 0, "another point gives the same bits");
    /* BSC: the share of flipped bits is p */
    long flips = 0;
    for (uint64_t f = 0; f < 2000; f++) {
        sim_frame_bsc(key, f, c, n, 0.05, a);
        for (uint32_t i = 0; i < n; i++)
            flips += (a[i] < 0) != (c[i] != 0);
    }
    const double share = (double)flips / (2000.0 * n);
    CHECK(fabs(share - 0.05) < 0.002, "BSC crossover %.4f instead of 0.05", share);
}

/* Q(x) = P(N(0,1) > x). */
static double q_func(double x) { return 0.5 * erfc(x / sqrt(2.0)); }

/* Gray-mapped M-QAM with max-log LLRs: the sign of each LLR is the nearest level's bit, so the raw
 * bit error rate must be the one computed from the decision regions of the constellation (each
 * level, each bit: the probability of landing in a region whose nearest level has the other bit).
 * The levels are rebuilt here from the Gray rule (adjacent levels differ in one bit), not from the
 * simulator's code. */
static void qam_bit_error_rates(void)
{
    const int ms[] = {2, 4, 6};
    const double esn0_db[] = {6.0, 12.0, 17.0};
    for (int t = 0; t < 3; t++) {
        const int m = ms[t], h = m / 2, L = 1 << h;
        /* Gray code of level index v (from the most negative level up): the sign bit first */
        double level[8];
        int bit[8][3] = {{0}};
        double energy = 0;
        for (int v = 0; v < L; v++) {
            level[v] = 2.0 * v - (L - 1);
            energy += level[v] * level[v];
            const int g = v ^ (v >> 1);                 /* reflected binary Gray code, 0 at the bottom */
            for (int b = 0; b < h; b++)
                bit[v][b] = (g >> (h - 1 - b)) & 1;
            bit[v][0] ^= 1;                              /* the sign bit is 0 for positive levels */
        }
        const double scale = 1.0 / sqrt(2.0 * energy / L), esn0 = pow(10.0, esn0_db[t] / 10.0);
        const double sigma = sqrt(1.0 / (2.0 * esn0));
        double expected = 0;
        for (int v = 0; v < L; v++)
            for (int b = 0; b < h; b++)
                for (int w = 0; w < L; w++) {
                    if (bit[w][b] == bit[v][b])
                        continue;
                    const double lo = w == 0 ? -INFINITY : (level[w] - 1.0) * scale,
                                 hi = w == L - 1 ? INFINITY : (level[w] + 1.0) * scale, s = level[v] * scale;
                    expected += q_func((lo - s) / sigma) - q_func((hi - s) / sigma);
                }
        expected /= (double)(L * h);
        const uint32_t n = 6000;
        uint8_t* c = malloc(n);
        float* llr = malloc(n * sizeof *llr);
        long errors = 0, total = 0;
        const sim_key key = {3, 1};
        for (uint64_t f = 0; f < 400; f++) {
            for (uint32_t i = 0; i < n; i++)
                c[i] = (uint8_t)(test_rand() & 1);
            sim_frame_awgn_qam(key, f, c, n, m, 1.0 / (2.0 * esn0), llr);
            for (uint32_t i = 0; i < n; i++)
                errors += (llr[i] < 0) != (c[i] != 0);
            total += n;
        }
        const double measured = (double)errors / (double)total;
        printf("%d-QAM at Es/N0 %.0f dB: raw BER %.4e, decision regions give %.4e\n", 1 << m, esn0_db[t], measured,
               expected);
        CHECK(fabs(measured - expected) < 0.05 * expected + 3.0 * sqrt(expected / (double)total),
              "%d-QAM raw BER %.4e, expected %.4e", 1 << m, measured, expected);
        free(c), free(llr);
    }
}

int main(void)
{
    test_rng_init();
    known_answers();
    functions();
    gaussian_moments();
    frames_stand_alone();
    qam_bit_error_rates();
    TEST_DONE();
}
