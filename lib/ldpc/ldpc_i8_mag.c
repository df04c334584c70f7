/* The search behind ldpc_i8_mag.h. fma rounds once, and in [1024, 2048) binary16's unit is 1: z
 * is 1024 plus the magnitude rounded to nearest, ties to even, where the rule takes floor(x + 0.5)
 * of a float32 product. A factor or addend nudged by a unit or two settles such ties the rule's
 * way; each candidate is checked on every m, exactly in double (m * S + B has at most 40
 * significant bits), so a pair found holds bit for bit. */
#include "ldpc_i8_mag.h"

#include "ldpc_rules.h"
#include "soft_input.h"

#include <math.h>

/* Bits of a positive normal binary16 value v (v exact in binary16), or 0 where v is not one. */
static uint16_t half_bits_of(double v)
{
    int e = 0;
    const double f = frexp(v, &e); /* v = f 2^e, f in [0.5, 1) */
    const int biased = e - 1 + 15;
    const double man = (2.0 * f - 1.0) * 1024.0;
    if (!(v > 0.0) || biased < 1 || biased > 30 || man != floor(man))
        return 0;
    return (uint16_t)((unsigned)biased << 10 | (unsigned)man);
}

double ldpc_i8_mag_eval(double m, uint16_t s_bits, uint16_t b_bits)
{
    const double x = m * (double)soft_half_to_float(s_bits) + (double)soft_half_to_float(b_bits); /* exact */
    /* round to binary16, nearest even: a unit of 1 in [1024, 2048), of 0.5 in [512, 1024) */
    const double z = x >= 1024.0 ? rint(x) : rint(2.0 * x) / 2.0;
    return z > 1024.0 ? z - 1024.0 : 0.0;
}

int ldpc_i8_mag_arith(int mode, float scale, float offset, uint16_t* s_bits, uint16_t* b_bits)
{
    const float factor = mode == 1 || mode == 3 ? scale : 1.0f, off = mode == 2 || mode == 3 ? offset : 0.0f;
    if (!(factor >= 6.103515625e-05f && factor <= 1.0f && off >= 0.0f && off < 64.0f))
        return 0; /* (a factor below binary16's normal range, or no magnitude left) */
    const int lim = (int)LDPC_I8_MIN_MAX;
    float tab[(int)LDPC_I8_MIN_MAX + 1];
    for (int m = 0; m <= lim; m++)
        tab[m] = ms_magnitude((float)m, mode, scale, offset, LDPC_PREC_I8);
    const uint16_t s0 = half_bits_of((double)ldpc_round_half(factor));
    for (int k = 0; k <= 48; k++) {
        const int ds = k % 2 ? -(k + 1) / 2 : k / 2; /* 0, -1, +1, -2, ... units */
        const uint16_t sb = (uint16_t)(s0 + ds);
        if (!(soft_half_to_float(sb) > 0.0f) || (sb & 0x7c00u) == 0x7c00u)
            continue;
        /* B: the binary16 values within 2 of 1024 - off (halves below 1024, integers from it) */
        for (double b = floor((1024.0 - off - 2.0) * 2.0) / 2.0; b <= 1024.0 - off + 2.0; b += 0.5) {
            if (b >= 1024.0 && b != floor(b))
                continue;
            const uint16_t bb = half_bits_of(b);
            int ok = bb != 0;
            for (int m = 0; m <= lim && ok; m++)
                ok = ldpc_i8_mag_eval((double)m, sb, bb) == (double)tab[m];
            if (ok) {
                *s_bits = sb;
                *b_bits = bb;
                return 1;
            }
        }
    }
    return 0;
}
