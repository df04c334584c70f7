/* Check-node and variable-node rules of binary LDPC decoding, written once and compiled both
 * into the CPU decoders and (through nvcc) into the CUDA kernels.
 *
 * A check node consumes its variable-to-check messages v_e one at a time (push), then produces
 * the extrinsic check-to-variable message of every edge (output). Keeping the accumulator state
 * small (min-sum: two minima, their position and a sign parity; SPA: one product and a zero
 * count) lets a schedule stream the edges twice without storing them, on CPU and GPU alike. */
#ifndef GPUFEC_LDPC_RULES_H
#define GPUFEC_LDPC_RULES_H

#include <math.h>
#include <stdint.h>

#if defined(__CUDACC__)
#define GPUFEC_HD static __host__ __device__ __forceinline__
#else
#define GPUFEC_HD static inline
#endif

/* Largest SPA message magnitude: 2 atanh(1 - 2^-23), where a float tanh product saturates. */
#define GPUFEC_SPA_CLAMP 0.99999988f
/* Channel LLRs are clamped to this magnitude (keeps sums finite for any input). */
#define GPUFEC_LLR_LIMIT 1.0e4f

/* NaN -> 0 (erasure), +-Inf and huge values -> +-GPUFEC_LLR_LIMIT. */
GPUFEC_HD float ldpc_sanitize_llr(float x)
{
    if (!(x == x))
        return 0.0f;
    return fminf(fmaxf(x, -GPUFEC_LLR_LIMIT), GPUFEC_LLR_LIMIT);
}

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

/* mode 0: plain min-sum; 1: normalised (times `scale`); 2: offset (minus `offset`, floor 0). */
GPUFEC_HD float ms_output(const ms_acc* a, float v, uint32_t pos, int mode, float scale,
                          float offset)
{
    float m = pos == a->arg1 ? a->min2 : a->min1;
    if (mode == 1)
        m *= scale;
    else if (mode == 2)
        m = fmaxf(m - offset, 0.0f);
    uint32_t neg = a->parity ^ (uint32_t)(v < 0.0f);
    return neg ? -m : m;
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

GPUFEC_HD float spa_term(float v) { return tanhf(0.5f * v); }

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
    p = fminf(fmaxf(p, -GPUFEC_SPA_CLAMP), GPUFEC_SPA_CLAMP);
    return 2.0f * atanhf(p);
}

/* Hard decision of a posterior LLR (positive means 0). */
GPUFEC_HD uint8_t ldpc_hard_bit(float app) { return (uint8_t)(app < 0.0f); }

/* ---- hard-decision decoders: Gallager-A, Gallager-B, probabilistic Gallager-B ----
 * Bits vote +1 for 0 and -1 for 1. A variable's state is the sum of its channel vote and the
 * votes of all its incoming check messages; removing one edge's own vote gives that edge's
 * extrinsic majority (seed 003, "data pass"). */
GPUFEC_HD int gal_vote(uint32_t bit) { return 1 - 2 * (int)bit; }

/* Gallager-B / PGaB variable-to-check bit: majority of the channel vote and the other checks;
 * a tie keeps the channel bit w. */
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
