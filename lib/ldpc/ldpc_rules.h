/* Check-node and variable-node rules of binary LDPC decoding, written once and compiled both
 * into the CPU decoders and (through nvcc) into the CUDA kernels.
 *
 * A check node consumes its variable-to-check messages v_e one at a time (push), then produces
 * the extrinsic check-to-variable message of every edge (output). Keeping the accumulator state
 * small (min-sum: two minima, their position and a sign parity; SPA: one product and a zero
 * count) lets a schedule stream the edges twice without storing them, on CPU and GPU alike. */
#ifndef GPUFEC_LDPC_RULES_H
#define GPUFEC_LDPC_RULES_H

#include "soft_value.h"

#include <gpufec/decoder.h>
#include <gpufec/ldpc.h>

/* What an algorithm is, decided here once (never by enum order): the hard-decision decoders
 * read only signs; the min-sum family's check output is plain (0), normalised (1) or offset (2);
 * mode 3, normalised then offset, is normalised min-sum at int8 storage with norm_offset
 * (ldpc_rule_mode). */
GPUFEC_HD int ldpc_is_hard(int algorithm)
{
    return algorithm == GPUFEC_ALG_GALLAGER_A || algorithm == GPUFEC_ALG_GALLAGER_B || algorithm == GPUFEC_ALG_PGAB;
}
GPUFEC_HD int ldpc_is_min_sum(int algorithm)
{
    return algorithm == GPUFEC_ALG_MS || algorithm == GPUFEC_ALG_NMS || algorithm == GPUFEC_ALG_OMS;
}
GPUFEC_HD int ldpc_ms_mode(int algorithm)
{
    return algorithm == GPUFEC_ALG_NMS ? 1 : algorithm == GPUFEC_ALG_OMS ? 2 : 0;
}

/* Largest SPA message magnitude: 2 atanh(1 - 2^-23), where a float tanh product saturates. */
#define GPUFEC_SPA_CLAMP 0.99999988f

/* ---- min-sum family (seed 004: min1 / min2 / argmin / sign reductions) ---- */
typedef struct {
    float min1, min2;  /* smallest and second smallest |v| */
    uint32_t arg1;     /* position of min1 among the pushed messages */
    uint32_t parity;   /* XOR of the sign bits of all pushed messages */
} ms_acc;

GPUFEC_HD void ms_init(ms_acc* a)
{
    a->min1 = a->min2 = INFINITY;
    a->arg1 = 0xffffffffu;
    a->parity = 0;
}

GPUFEC_HD void ms_push(ms_acc* a, float v, uint32_t pos)
{
    float m = fabsf(v);
    a->parity ^= (uint32_t)(v < 0.0f);
    if (m < a->min1) {
        a->min2 = a->min1;
        a->min1 = m;
        a->arg1 = pos;
    } else if (m < a->min2) {
        a->min2 = m;
    }
}

/* Merges the accumulators of two disjoint sets of messages; equal to pushing them one by one in
 * position order (the first position wins a tie for min1), so parallel reductions stay
 * bit-exact with the sequential rule. */
GPUFEC_HD void ms_merge(ms_acc* a, const ms_acc* b)
{
    int take_b = b->min1 < a->min1 || (b->min1 == a->min1 && b->arg1 < a->arg1);
    float hi = fmaxf(a->min1, b->min1), lo2 = fminf(a->min2, b->min2);
    a->min2 = fminf(hi, lo2);
    if (take_b) {
        a->min1 = b->min1;
        a->arg1 = b->arg1;
    }
    a->parity ^= b->parity;
}

/* mode 0: plain min-sum; 1: normalised (times `scale`); 2: offset (minus `offset`, floor 0). */
GPUFEC_HD float ms_output(const ms_acc* a, float v, uint32_t pos, int mode, float scale,
                          float offset)
{
    float m = pos == a->arg1 ? a->min2 : a->min1;
    m = fminf(m, GPUFEC_LLR_LIMIT); /* a degree-1 check has no second minimum */
    if (mode == 1)
        m *= scale;
    else if (mode == 2)
        m = fmaxf(m - offset, 0.0f);
    uint32_t neg = a->parity ^ (uint32_t)(v < 0.0f);
    return neg ? -m : m;
}

/* ---- storage precision (gpufec_precision) ----
 * Arithmetic stays float32; what is stored (posteriors, check messages) is rounded by one of
 * these functions. They are exact and portable, so the CPU reference and the GPU kernels store
 * the same values; the GPU then keeps them in 16 or 8 bits without further loss. */
#define LDPC_PREC_F32 0
#define LDPC_PREC_F16 1
#define LDPC_PREC_I8 2
#define LDPC_PREC_I8P16 3
#define LDPC_I8_MAX 127.0f
#define LDPC_F16_MAX 65504.0f
/* int8p16 (GPUFEC_PRECISION_INT8_P16): int8's channel values, minima and messages, with
 * posteriors that saturate only at +-2047. A posterior is its channel value (at most 127 steps)
 * plus its column's messages (at most 63 each), so on a column of degree d <= 30 it stays within
 * 127 + 63 d <= 2017 and never saturates: every value the rule forms (posterior, app - old,
 * app - old + new) is an integer of at most 11 bits, exact in binary16, and two frames per
 * half2 word compute the rule without a clamp. int8's posteriors saturate at 127, which a
 * column of degree 2 can reach; their clamp was 5-9% of the GPU's 5G NR and DVB-S2 kernels
 * (docs/performance.md, twenty-fourth pass). */
#define LDPC_I8P16_MAX 2047.0f

/* The fixed-point precisions: channel values, minima and messages in whole steps of quant_step. */
GPUFEC_HD int ldpc_prec_fixed(int prec) { return prec == LDPC_PREC_I8 || prec == LDPC_PREC_I8P16; }

#if defined(__CUDA_ARCH__)
#define LDPC_MUL(a, b) __fmul_rn(a, b) /* never fused into a following add */
#else
#define LDPC_MUL(a, b) ((a) * (b))
#endif

/* Nearest binary16 value (ties to even), saturating at +-65504. */
GPUFEC_HD float ldpc_round_half(float x)
{
    float a = fminf(fabsf(x), LDPC_F16_MAX);
    if (a < 6.103515625e-05f) { /* below 2^-14: binary16 subnormals, steps of 2^-24 */
        a = LDPC_MUL(rintf(LDPC_MUL(a, 16777216.0f)), 5.9604644775390625e-08f);
    } else { /* keep 10 of the 23 mantissa bits, rounding to nearest even */
        union { float f; uint32_t u; } b;
        b.f = a;
        b.u += 0x0fffu + ((b.u >> 13) & 1u);
        b.u &= ~0x1fffu;
        a = fminf(b.f, LDPC_F16_MAX);
    }
    return x < 0.0f ? -a : a;
}

/* int8: a posterior updated with a message saturates at the two's complement byte range
 * [-128, 127], once: the new posterior is sat(app - old + new), computed exactly. The value a
 * check sees, app - old, is not saturated (within +-191: exact in float and in binary16); it
 * enters the minima as min(|v|, 63) (ms_init_prec). So byte arithmetic that saturates it
 * (AVX2 subs_epi8, CUDA __vsubss4) finds the same minima and signs, and forms the update as
 * app + (new - old) in one saturating add, the change within +-126 (LDPC_I8_MIN_MAX); two
 * frames per word in half2 clamp only the update. (Until 2026-11-29 app - old saturated as well,
 * a second rounding of the posterior at a strong signal; its clamps were about a tenth of a
 * 5G NR row's instructions, docs/performance.md.) Channel values stay within
 * +-LDPC_I8_CHANNEL_MAX but for known bits, message magnitudes within ms_magnitude(63). */
GPUFEC_HD float ldpc_i8_sat(float x) { return fminf(fmaxf(x, -128.0f), LDPC_I8_MAX); }

/* A posterior or message value as stored. int8 values are already whole steps. */
GPUFEC_HD float ldpc_store(float x, int prec)
{
    if (prec == LDPC_PREC_I8)
        return ldpc_i8_sat(x);
    if (prec == LDPC_PREC_I8P16)
        return fminf(fmaxf(x, -LDPC_I8P16_MAX), LDPC_I8P16_MAX);
    if (prec == LDPC_PREC_F16)
        return ldpc_round_half(x);
    return x;
}

/* Whether a precision's stored values saturate asymmetrically: int8's at [-128, 127]
 * (ldpc_i8_sat); int8p16's at +-LDPC_I8P16_MAX, float16's at +-LDPC_F16_MAX, float32's not at
 * all. What gpufec_decoder_symmetric reports, through each backend's caps. */
GPUFEC_HD int ldpc_prec_asymmetric(int prec) { return prec == LDPC_PREC_I8; }

/* int8: the largest magnitude a row's minima take, so that messages stay well inside the
 * posteriors' range. A posterior that saturated at 127 has lost what its other messages said; a
 * single message near 127 of the wrong sign then flips it, and frames that decode at float32
 * fell into garbage at a strong signal (DVB-S2 short 1/2 at 7 dB: 1.3e-4 with minima up to 127,
 * none in 40,000 with 64; Wi-Fi 1944 5/6 at 4 dB: 1.6e-4, 9e-5). Lower costs elsewhere: at 48 a
 * bit of degree one sent wrong at the channel clamp (32) may stay wrong (the DVB-S2 2/3 QPSK demo
 * lost 2 frames of 101 at 3 dB), at 40 the waterfall pays (DVB-S2 short 1/2 at 2 dB: 5.2e-2
 * against 3.8e-2); at 64 the waterfall is level with 127 on every code measured (docs/codes.md,
 * "int8 at a strong signal"). 63 rather than 64 since 2026-11-29: a message's magnitude is then at
 * most 63 (the factor is at most 1, the offset not negative), so that a message's change
 * (new - old) is within +-126 and fits a byte, which the posterior update needs (ldpc_i8_sat). */
#define LDPC_I8_MIN_MAX 63.0f

/* ms_init at a storage precision. int8 starts both minima at LDPC_I8_MIN_MAX, so that they fit
 * a byte and a larger magnitude counts as that: the same as min(|v|, 63) entering them, whichever
 * edge a tie at 63 names, since min2 is then 63 too; a row of degree one sends ms_magnitude(63). */
GPUFEC_HD void ms_init_prec(ms_acc* a, int prec)
{
    ms_init(a);
    if (ldpc_prec_fixed(prec))
        a->min1 = a->min2 = LDPC_I8_MIN_MAX;
}

/* The value a check row sees from a posterior and its old message, at a storage precision.
 * int8 keeps it exact (ldpc_i8_sat). float16 rounds it to binary16 (saturating) like every
 * stored value, so that binary16 arithmetic computes the whole row update: HSUB2 and HADD2 on
 * two frames per word give these values bit for bit (binary32 has 24 >= 2 x 11 + 2 bits, so
 * rounding a binary32 sum or difference of two binary16 values to binary16 is the same as
 * rounding the exact one). */
GPUFEC_HD float ldpc_extrinsic(float app, float msg, int prec)
{
    return prec == LDPC_PREC_F16 ? ldpc_round_half(app - msg) : app - msg;
}

/* int8 channel values stop at a quarter of the byte's range. The posteriors saturate at +-127
 * (ldpc_i8_sat); a channel value near that leaves a posterior no room for
 * its messages, and layered updates then lose what saturation cut off. With channel values up to
 * +-127 the frame error rate grew with the signal (WiMAX 576 1/2: 7.5e-6 at 6 dB, 1.2e-3 at 8 dB;
 * DVB-S2 short 1/2: 6.4e-3 at 7 dB, float32 none). With this and LDPC_I8_MIN_MAX none of that
 * shows and the waterfall is unchanged; at +-16 Wi-Fi 5/6 lost a factor of 30 at 4 dB
 * (docs/codes.md, "int8 at a strong signal"). */
#define LDPC_I8_CHANNEL_MAX 32.0f

/* A sanitised channel LLR as the decoder starts from it; int8 counts steps of 1 / inv_step, at
 * most LDPC_I8_CHANNEL_MAX, except a value at the sanitiser's limit: a known bit (a filler bit,
 * or the caller's +-Inf) keeps the whole range, +-127. */
GPUFEC_HD float ldpc_channel(float llr, int prec, float inv_step)
{
    if (ldpc_prec_fixed(prec)) {
        if (fabsf(llr) >= GPUFEC_LLR_LIMIT)
            return llr < 0.0f ? -LDPC_I8_MAX : LDPC_I8_MAX;
        return fminf(fmaxf(rintf(LDPC_MUL(llr, inv_step)), -LDPC_I8_CHANNEL_MAX), LDPC_I8_CHANNEL_MAX);
    }
    return ldpc_store(llr, prec);
}

/* The erased-frame rule at a storage precision: a sanitised channel value tells the decoder
 * nothing when it is an erasure or, at int8, rounds to zero steps (|llr| below half a
 * quant_step). A frame of nothing else is never reported decoded: the decoder would see zeros and
 * "converge" on the all-zero word (soft bits scaled by 0.01 at quant_step 0.25 did). */
GPUFEC_HD int ldpc_channel_says_nothing(float llr, int prec, float inv_step)
{
    return ldpc_prec_fixed(prec) ? ldpc_channel(llr, prec, inv_step) == 0.0f : soft_is_erasure(llr);
}

/* Magnitude of an outgoing min-sum message from the minimum m it is based on, as stored:
 * ms_output's rule (mode 3: the factor, then the offset), then rounded (int8: to the nearest
 * whole step, half up). For int8, `offset` is in steps. */
GPUFEC_HD float ms_magnitude(float m, int mode, float scale, float offset, int prec)
{
    m = fminf(m, GPUFEC_LLR_LIMIT);
    if (mode == 1 || mode == 3)
        m = LDPC_MUL(m, scale);
    if (mode == 2 || mode == 3)
        m = fmaxf(m - offset, 0.0f);
    if (ldpc_prec_fixed(prec))
        return fminf(floorf(m + 0.5f), LDPC_I8_MAX);
    if (prec == LDPC_PREC_F16)
        return ldpc_round_half(m);
    return m;
}

/* ms_output at a storage precision (equal to ms_output for LDPC_PREC_F32). */
GPUFEC_HD float ms_output_prec(const ms_acc* a, float v, uint32_t pos, int mode, float scale,
                               float offset, int prec)
{
    float m = ms_magnitude(pos == a->arg1 ? a->min2 : a->min1, mode, scale, offset, prec);
    return (a->parity ^ (uint32_t)(v < 0.0f)) ? -m : m;
}

/* ---- sum-product, tanh rule: c = 2 atanh( prod_{k != e} tanh(v_k / 2) ) ---- */
typedef struct {
    float product; /* product of the non-zero tanh terms */
    uint32_t zeros;/* number of exactly-zero terms (erased inputs) */
} spa_acc;

GPUFEC_HD void spa_init(spa_acc* a)
{
    a->product = 1.0f;
    a->zeros = 0;
}

/* exp(x) for -88 < x <= 0: 2^k times a degree-6 polynomial of 2^f, f in [-1/2, 1/2];
 * relative error about 2e-7. Portable so that CPU and GPU compute the same function cheaply
 * (libm's expf/expm1f cost more than the rest of a check update). */
GPUFEC_HD float ldpc_exp_neg(float x)
{
    float t = x * 1.44269504f;
    float k = (float)(int)(t - 0.5f); /* round towards nearest for t <= 0 */
    float f = t - k;
    if (f > 0.5f) { /* keep f in [-1/2, 1/2] */
        f -= 1.0f;
        k += 1.0f;
    }
    float p = 1.0f + f * (0.69314718f + f * (0.24022651f + f * (0.05550411f +
              f * (0.00961813f + f * (0.00133336f + f * 0.00015404f)))));
    int ki = (int)k;
    if (ki < -126)
        return 0.0f;
    union { float f; int32_t i; } u;
    u.f = p;
    u.i += ki * (1 << 23);
    return u.f;
}

/* log(y) for y >= 1 (finite): y = m 2^e with m in [0.707, 1.414), log m = 2 atanh(s),
 * s = (m-1)/(m+1), |s| <= 0.172, series to s^9; absolute error about 1e-7. */
GPUFEC_HD float ldpc_log_ge1(float y)
{
    union { float f; int32_t i; } u;
    u.f = y;
    int e = ((u.i >> 23) & 0xff) - 127;
    u.i = (u.i & 0x007fffff) | 0x3f800000; /* m in [1, 2) */
    float m = u.f;
    if (m > 1.41421356f) {
        m *= 0.5f;
        e += 1;
    }
    float s = (m - 1.0f) / (m + 1.0f), s2 = s * s;
    float l = 2.0f * s * (1.0f + s2 * (0.33333333f + s2 * (0.2f + s2 * (0.14285714f + s2 * 0.11111111f))));
    return (float)e * 0.69314718f + l;
}

/* tanh(v/2) = (1 - e^-|v|) / (1 + e^-|v|), signed. Near 0 the numerator loses relative but not
 * absolute precision, and only absolute precision matters in a product of terms <= 1. */
GPUFEC_HD float spa_term(float v)
{
    float x = ldpc_exp_neg(-fminf(fabsf(v), 80.0f));
    float t = (1.0f - x) / (1.0f + x);
    return v < 0.0f ? -t : t;
}

GPUFEC_HD void spa_push(spa_acc* a, float t)
{
    if (t == 0.0f)
        a->zeros++;
    else
        a->product *= t;
}

/* t is the edge's own term spa_term(v_e). Dividing it out avoids storing partial products;
 * zero terms are counted apart so that an erasure never divides by zero. */
GPUFEC_HD float spa_output(const spa_acc* a, float t)
{
    float p;
    if (a->zeros == 0)
        p = a->product / t;
    else if (a->zeros == 1 && t == 0.0f)
        p = a->product;
    else
        return 0.0f;
    /* 2 atanh(p) = log((1 + |p|) / (1 - |p|)), signed; |p| capped where float saturates. */
    float q = fabsf(p) < GPUFEC_SPA_CLAMP ? fabsf(p) : GPUFEC_SPA_CLAMP;
    float r = ldpc_log_ge1((1.0f + q) / (1.0f - q));
    return p < 0.0f ? -r : r;
}

#ifdef __CUDACC__
/* The same SPA rule with the GPU's approximate instructions (ex2, lg2 and the fast reciprocal,
 * through __expf, __logf and __fdividef) in place of the portable polynomials and IEEE
 * divisions: about a fifth of the instructions per edge. __expf and __fdividef err by a few
 * ulp, __logf by at most 2^-21.4 absolute on [0.5, 2] and a few ulp elsewhere, so messages
 * differ from spa_output's in the last bits; the CPU cannot reproduce these instructions, so a
 * decoder using them agrees with the CPU reference within SPA's tolerance, not bit for bit. */
__device__ __forceinline__ float spa_term_fast(float v)
{
    const float x = __expf(-fminf(fabsf(v), 80.0f));
    const float t = __fdividef(1.0f - x, 1.0f + x);
    return v < 0.0f ? -t : t;
}

__device__ __forceinline__ float spa_output_fast(const spa_acc* a, float t)
{
    float p;
    if (a->zeros == 0)
        p = __fdividef(a->product, t);
    else if (a->zeros == 1 && t == 0.0f)
        p = a->product;
    else
        return 0.0f;
    const float q = fminf(fabsf(p), GPUFEC_SPA_CLAMP);
    const float r = __logf(__fdividef(1.0f + q, 1.0f - q));
    return p < 0.0f ? -r : r;
}
#endif

/* Hard decision of a posterior LLR (positive means 0). */
GPUFEC_HD uint8_t ldpc_hard_bit(float app) { return (uint8_t)(app < 0.0f); }

/* ---- hard-decision decoders: Gallager-A, Gallager-B, probabilistic Gallager-B ----
 * Bits vote +1 for 0 and -1 for 1. A variable's state is the sum of its channel vote and the
 * votes of all its incoming check messages; removing one edge's own vote gives that edge's
 * extrinsic majority (seed 003, "data pass"). */
GPUFEC_HD int gal_vote(uint32_t bit) { return 1 - 2 * (int)bit; }

/* Gallager-B / PGaB variable-to-check bit: majority of the channel vote (PGaB: perturbed) and the
 * other checks; a tie keeps the received channel bit w, never the perturbed one. */
GPUFEC_HD uint8_t galb_v2c(int total, uint32_t own_c2v, uint32_t w)
{
    int extrinsic = total - gal_vote(own_c2v);
    return (uint8_t)(extrinsic < 0 ? 1u : extrinsic > 0 ? 0u : w);
}

/* Gallager-A: flip the channel bit w only when every other check disagrees with it.
 * disagree = number of all incoming checks that disagree with w. */
GPUFEC_HD uint8_t gala_v2c(uint32_t disagree, uint32_t degree, uint32_t own_c2v, uint32_t w)
{
    uint32_t others = disagree - (own_c2v != w);
    return (uint8_t)(degree > 1 && others == degree - 1 ? w ^ 1u : w);
}

/* Decision of all decoders of this family: majority of channel and all checks, tie: channel. */
GPUFEC_HD uint8_t gal_decide(int total, uint32_t w)
{
    return (uint8_t)(total < 0 ? 1u : total > 0 ? 0u : w);
}

/* PGaB perturbation: a Bernoulli(p) bit from a counter-based hash of (seed, frame, iteration,
 * variable), so that the CPU and the GPU draw the same bits in any order. p24 = p * 2^24. */
GPUFEC_HD uint32_t pgab_flip(uint64_t seed, uint64_t frame, uint32_t iteration, uint32_t var,
                             uint32_t p24)
{
    uint64_t z = seed ^ (frame * 0x9e3779b97f4a7c15ull) ^ ((uint64_t)iteration << 40) ^
                 ((uint64_t)var * 0xc2b2ae3d27d4eb4full);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    z ^= z >> 31;
    return (uint32_t)(z >> 40) < p24;
}

#endif
