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

#endif
