/* What every family does to a channel soft value before decoding, written once for the host and
 * (through nvcc) the device: NaN is an erasure, infinities and huge values are clamped, and a
 * value of 0, -0 or NaN says nothing about its bit. */
#ifndef GPUFEC_SOFT_VALUE_H
#define GPUFEC_SOFT_VALUE_H

#include <math.h>
#include <stdint.h>

#if defined(__CUDACC__)
#define GPUFEC_HD static __host__ __device__ __forceinline__
#else
#define GPUFEC_HD static inline
#endif

/* Channel soft values are clamped to this magnitude (keeps sums finite for any input). */
#define GPUFEC_LLR_LIMIT 1.0e4f

/* NaN -> 0 (erasure), +-Inf and huge values -> +-GPUFEC_LLR_LIMIT. */
GPUFEC_HD float soft_sanitize(float x)
{
    if (!(x == x))
        return 0.0f;
#if defined(__CUDA_ARCH__)
    return fminf(fmaxf(x, -GPUFEC_LLR_LIMIT), GPUFEC_LLR_LIMIT);
#else
    /* On the host, comparisons: NaN is gone, so they give the same values, and gcc inlines them
     * (it called libm's fminf here: a fifth of the int8 CPU decoder's time). */
    x = x > GPUFEC_LLR_LIMIT ? GPUFEC_LLR_LIMIT : x;
    return x < -GPUFEC_LLR_LIMIT ? -GPUFEC_LLR_LIMIT : x;
#endif
}

/* A soft value that says nothing about its bit: 0, -0 or NaN. A frame made only of such values
 * (a dead or squelched receiver) carries no information: every family and backend reports it as
 * not decoded. */
GPUFEC_HD int soft_is_erasure(float x) { return soft_sanitize(x) == 0.0f; }

#endif
