/* The simulator's random numbers, written once for the host and (through nvcc) the device, so that
 * a frame's data are the same wherever it is made: a counter-based generator (Philox4x32-10,
 * Salmon et al., SC 2011) keyed by (seed, point) with the counter (frame index, block, domain),
 * so any frame, and any block of a frame, can be made alone, in any order, on any thread, GPU or
 * rank; and Gaussian variates from Box-Muller with a logarithm, sine and cosine computed here from
 * + - * / and sqrt only (IEEE-exact operations), so that host and device give the same bits.
 * Files that use it must not contract a * b + c into fused multiply-adds (-ffp-contract=off on the
 * host, -fmad=false for nvcc): a fused operation rounds once and changes the last bit. */
#ifndef GPUFEC_SIM_RANDOM_H
#define GPUFEC_SIM_RANDOM_H

#include <math.h>
#include <stdint.h>

#if defined(__CUDACC__)
#define SIM_HD static __host__ __device__ __forceinline__
#else
#define SIM_HD static inline
#endif

/* What a block of four 32-bit words is for: the counter's last word. */
enum { SIM_DOMAIN_INFO = 0, SIM_DOMAIN_NOISE = 1, SIM_DOMAIN_FLIP = 2 };

typedef struct {
    uint32_t w[4];
} sim_block;

SIM_HD void sim_mulhilo(uint32_t a, uint32_t b, uint32_t* hi, uint32_t* lo)
{
    const uint64_t p = (uint64_t)a * (uint64_t)b;
    *hi = (uint32_t)(p >> 32);
    *lo = (uint32_t)p;
}

/* Philox4x32 with 10 rounds: four words from the counter (frame, block, domain) and the key
 * (seed, point). */
SIM_HD sim_block sim_philox(uint64_t seed, uint32_t point, uint64_t frame, uint32_t block, uint32_t domain)
{
    uint32_t c0 = (uint32_t)frame, c1 = (uint32_t)(frame >> 32), c2 = block, c3 = domain;
    uint32_t k0 = (uint32_t)seed, k1 = (uint32_t)(seed >> 32) ^ (point * 0x9E3779B9u);
    for (int r = 0; r < 10; r++) {
        uint32_t hi0, lo0, hi1, lo1;
        sim_mulhilo(0xD2511F53u, c0, &hi0, &lo0);
        sim_mulhilo(0xCD9E8D57u, c2, &hi1, &lo1);
        const uint32_t n0 = hi1 ^ c1 ^ k0, n2 = hi0 ^ c3 ^ k1;
        c0 = n0;
        c1 = lo1;
        c2 = n2;
        c3 = lo0;
        k0 += 0x9E3779B9u;
        k1 += 0xBB67AE85u;
    }
    sim_block b = {{c0, c1, c2, c3}};
    return b;
}

/* A word to (0, 1): (w + 1/2) / 2^32, exact in double and never 0 or 1. */
SIM_HD double sim_unit(uint32_t w) { return ((double)w + 0.5) * (1.0 / 4294967296.0); }

/* ln x for x in (0, 1], from + - * / only: x = m 2^e with m in [sqrt(1/2), sqrt(2)),
 * ln m = 2 atanh(s), s = (m - 1) / (m + 1), |s| <= 0.172, by its series to s^23 (error below
 * 1e-18 relative). e is found by exact scaling by 2 (no frexp: the device's may differ). The
 * coefficients are constant expressions, each the correctly rounded 1/n on host and device. */
SIM_HD double sim_log(double x)
{
    int e = 0;
    while (x < 0.70710678118654752) {
        x *= 2.0;
        e--;
    }
    const double s = (x - 1.0) / (x + 1.0), s2 = s * s;
    double sum = 1.0 / 23.0;
    sum = sum * s2 + 1.0 / 21.0;
    sum = sum * s2 + 1.0 / 19.0;
    sum = sum * s2 + 1.0 / 17.0;
    sum = sum * s2 + 1.0 / 15.0;
    sum = sum * s2 + 1.0 / 13.0;
    sum = sum * s2 + 1.0 / 11.0;
    sum = sum * s2 + 1.0 / 9.0;
    sum = sum * s2 + 1.0 / 7.0;
    sum = sum * s2 + 1.0 / 5.0;
    sum = sum * s2 + 1.0 / 3.0;
    sum = sum * s2 + 1.0;
    /* ln 2 split in two so that e * ln2_hi is exact for |e| < 2^11 */
    const double ln2_hi = 6.93147180369123816490e-01, ln2_lo = 1.90821492927058770002e-10;
    return (double)e * ln2_hi + ((double)e * ln2_lo + 2.0 * s * sum);
}

/* sin and cos of x in [0, pi/4] by their Taylor series in Horner form (to x^17 and x^18: error
 * below 1e-18). */
SIM_HD void sim_sincos_small(double x, double* s, double* c)
{
    const double x2 = x * x;
    double ts = 1.0 / 355687428096000.0;  /* 1/17! */
    ts = ts * x2 - 1.0 / 1307674368000.0; /* 1/15! */
    ts = ts * x2 + 1.0 / 6227020800.0;    /* 1/13! */
    ts = ts * x2 - 1.0 / 39916800.0;      /* 1/11! */
    ts = ts * x2 + 1.0 / 362880.0;        /* 1/9! */
    ts = ts * x2 - 1.0 / 5040.0;
    ts = ts * x2 + 1.0 / 120.0;
    ts = ts * x2 - 1.0 / 6.0;
    ts = ts * x2 + 1.0;
    double tc = -1.0 / 6402373705728000.0; /* 1/18! */
    tc = tc * x2 + 1.0 / 20922789888000.0; /* 1/16! */
    tc = tc * x2 - 1.0 / 87178291200.0;    /* 1/14! */
    tc = tc * x2 + 1.0 / 479001600.0;      /* 1/12! */
    tc = tc * x2 - 1.0 / 3628800.0;        /* 1/10! */
    tc = tc * x2 + 1.0 / 40320.0;
    tc = tc * x2 - 1.0 / 720.0;
    tc = tc * x2 + 1.0 / 24.0;
    tc = tc * x2 - 1.0 / 2.0;
    tc = tc * x2 + 1.0;
    *s = x * ts;
    *c = tc;
}

/* sin and cos of 2 pi t for t in [0, 1): the octant from t (exact), then the small-angle series. */
SIM_HD void sim_sincos_turn(double t, double* s, double* c)
{
    const double pi_4 = 0.78539816339744830962;
    const double e = t * 8.0; /* exact */
    const int oct = (int)e;
    const double f = e - (double)oct; /* exact, in [0, 1) */
    double a, b;
    if (oct & 1)
        sim_sincos_small((1.0 - f) * pi_4, &a, &b); /* the mirrored half of the octant pair */
    else
        sim_sincos_small(f * pi_4, &a, &b);
    /* (sin, cos) of the angle within its quadrant, then the quadrant's rotation */
    double qs, qc;
    if (oct & 1) {
        qs = b;
        qc = a;
    } else {
        qs = a;
        qc = b;
    }
    switch ((oct >> 1) & 3) {
    case 0: *s = qs, *c = qc; break;
    case 1: *s = qc, *c = -qs; break;
    case 2: *s = -qs, *c = -qc; break;
    default: *s = -qc, *c = qs; break;
    }
}

/* Two independent N(0, 1) variates from two words (Box-Muller). */
SIM_HD void sim_gauss2(uint32_t w0, uint32_t w1, double* z0, double* z1)
{
    const double r = sqrt(-2.0 * sim_log(sim_unit(w0)));
    double s, c;
    sim_sincos_turn(sim_unit(w1) - 0.5 / 4294967296.0, &s, &c); /* [0, 1) */
    *z0 = r * c;
    *z1 = r * s;
}

/* Information bit i of frame `frame`: bit (i mod 128) of block i / 128 in the info domain. */
SIM_HD int sim_info_bit(sim_block b, uint32_t i) { return (int)(b.w[(i >> 5) & 3u] >> (i & 31u)) & 1; }

#endif
