#include "soft_convert.h"

#include <math.h>
#include <stdint.h>
#include <string.h>

size_t soft_bytes(gpufec_input_type t) { return t == GPUFEC_INPUT_INT8 ? 1 : t == GPUFEC_INPUT_FLOAT16 ? 2 : 4; }

static uint16_t half_bits(float x)
{
    uint32_t u;
    memcpy(&u, &x, sizeof u);
    const uint16_t sign = (uint16_t)((u >> 16) & 0x8000u);
    if (x != x)
        return (uint16_t)(sign | 0x7e00u);
    float a = fminf(fabsf(x), 65504.0f);
    if (a < 6.103515625e-05f) /* binary16 subnormal: a multiple of 2^-24 */
        return (uint16_t)(sign | (uint16_t)rintf(a * 16777216.0f));
    memcpy(&u, &a, sizeof u);
    u += 0x0fffu + ((u >> 13) & 1u); /* round the 13 dropped mantissa bits to nearest even */
    const uint32_t e = (u >> 23) - 112u, m = (u >> 13) & 0x3ffu;
    return (uint16_t)(sign | (e << 10) | m);
}

void soft_from_float(const float* llr, size_t count, gpufec_input_type t, float int8_scale, void* out)
{
    if (t == GPUFEC_INPUT_INT8) {
        int8_t* o = out;
        for (size_t i = 0; i < count; i++) {
            const float v = llr[i] / int8_scale;
            o[i] = v != v ? 0 : (int8_t)fminf(fmaxf(rintf(v), -127.0f), 127.0f);
        }
    } else if (t == GPUFEC_INPUT_FLOAT16) {
        uint16_t* o = out;
        for (size_t i = 0; i < count; i++)
            o[i] = half_bits(llr[i]);
    } else {
        memcpy(out, llr, count * sizeof(float));
    }
}
