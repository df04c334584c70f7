/* Soft-bit input types (gpufec_input_type): one conversion to the float LLR every decoder starts
 * from, compiled into the CPU path and (through nvcc) into the device conversion kernel, so both
 * backends see the same values. int8: LLR = value * input_scale. float16: IEEE binary16, widened
 * exactly. */
#ifndef GPUFEC_SOFT_INPUT_H
#define GPUFEC_SOFT_INPUT_H

#include <gpufec/decoder.h>

#include <stdint.h>
#include <string.h>

#if defined(__CUDACC__)
#define SOFT_HD static __host__ __device__ __forceinline__
#else
#define SOFT_HD static inline
#endif

/* Bytes of one soft bit. */
SOFT_HD size_t soft_input_bytes(gpufec_input_type t) { return t == GPUFEC_INPUT_INT8 ? 1 : t == GPUFEC_INPUT_FLOAT16 ? 2 : 4; }

/* IEEE binary16 bits -> float, exactly (subnormals, infinities and NaN included). */
SOFT_HD float soft_half_to_float(uint16_t h)
{
    const uint32_t sign = (uint32_t)(h & 0x8000u) << 16, exp = (h >> 10) & 0x1fu, man = h & 0x3ffu;
    uint32_t bits;
    if (exp == 0x1fu) {
        bits = sign | 0x7f800000u | (man << 13); /* Inf, NaN */
    } else if (exp) {
        bits = sign | ((exp + 112u) << 23) | (man << 13);
    } else if (man) { /* subnormal: man * 2^-24 */
        uint32_t e = 113u, m = man;
        while (!(m & 0x400u)) {
            m <<= 1;
            e--;
        }
        bits = sign | (e << 23) | ((m & 0x3ffu) << 13);
    } else {
        bits = sign; /* +-0 */
    }
    float f;
    memcpy(&f, &bits, sizeof f);
    return f;
}

/* Soft bit i of a buffer of type t, as a float LLR (not yet sanitised: NaN and Inf pass through
 * to the decoders' one sanitising rule). */
SOFT_HD float soft_input_value(const void* buf, size_t i, gpufec_input_type t, float int8_scale)
{
    if (t == GPUFEC_INPUT_INT8)
        return (float)((const int8_t*)buf)[i] * int8_scale;
    if (t == GPUFEC_INPUT_FLOAT16)
        return soft_half_to_float(((const uint16_t*)buf)[i]);
    return ((const float*)buf)[i];
}

#endif
