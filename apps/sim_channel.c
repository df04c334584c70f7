#include "sim_channel.h"

#include <math.h>

static uint64_t splitmix(uint64_t* x)
{
    uint64_t z = (*x += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

void sim_rng_seed(sim_rng* r, uint64_t seed, uint64_t a, uint64_t b)
{
    uint64_t x = seed ^ (a * 0xd1b54a32d192ed03ull) ^ (b * 0xabc98388fb8fac03ull);
    for (int i = 0; i < 4; i++)
        r->s[i] = splitmix(&x);
}

static inline uint64_t rotl(uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }

uint64_t sim_rng_next(sim_rng* r)
{
    uint64_t* s = r->s;
    uint64_t result = rotl(s[1] * 5, 7) * 9, t = s[1] << 17;
    s[2] ^= s[0];
    s[3] ^= s[1];
    s[1] ^= s[2];
    s[0] ^= s[3];
    s[2] ^= t;
    s[3] = rotl(s[3], 45);
    return result;
}

double sim_rng_uniform(sim_rng* r) { return (double)(sim_rng_next(r) >> 11) * 0x1.0p-53; }

double sim_rng_gauss(sim_rng* r)
{
    /* Marsaglia polar method; the second variate is dropped to keep the stream simple. */
    double u, v, q;
    do {
        u = 2.0 * sim_rng_uniform(r) - 1.0;
        v = 2.0 * sim_rng_uniform(r) - 1.0;
        q = u * u + v * v;
    } while (q >= 1.0 || q == 0.0);
    return u * sqrt(-2.0 * log(q) / q);
}

void sim_awgn_bpsk(sim_rng* r, const uint8_t* bits, size_t count, double sigma2, float* llr)
{
    const double sigma = sqrt(sigma2), scale = 2.0 / sigma2;
    for (size_t i = 0; i < count; i++) {
        double y = (bits[i] ? -1.0 : 1.0) + sigma * sim_rng_gauss(r);
        llr[i] = (float)(scale * y);
    }
}

void sim_bsc(sim_rng* r, const uint8_t* bits, size_t count, double p, float* llr)
{
    const float mag = (float)log((1.0 - p) / p);
    for (size_t i = 0; i < count; i++) {
        uint8_t b = bits[i] ^ (uint8_t)(sim_rng_uniform(r) < p);
        llr[i] = b ? -mag : mag;
    }
}
