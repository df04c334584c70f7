/* The LDPC rules' helpers that the CUDA plan relies on, checked on the CPU (no GPU needed):
 * ldpc_i8_mag_arith, the search for int8's outgoing magnitudes in two binary16 instructions.
 * Every pair it returns is checked here against the rule's ms_magnitude by an integer model of
 * binary16's fused multiply-add (independent of the search's own evaluation); the defaults must
 * find one, and a case known to have none (the GPU equivalence test's "no exact pair") must not. */
#include "test_util.h"

#include "ldpc_i8_mag.h"
#include "ldpc_rules.h"

/* relu(round16(m S + B) - 1024) in integers: S and B as binary16 bits (positive, normal), the
 * sum in units of 2^-40, rounded to the unit 1 with ties to even (binary16's unit in [1024,
 * 2048); anything below 1024 ends at 0 either way). */
static int64_t model(int m, uint16_t s, uint16_t b)
{
    const int64_t sm = 1024 + (s & 0x3ff), bm = 1024 + (b & 0x3ff);
    const int se = ((s >> 10) & 0x1f) - 25, be = ((b >> 10) & 0x1f) - 25; /* value = mant 2^e */
    if (se + 40 < 0 || be + 40 < 0)
        return -1;
    const int64_t x = (int64_t)m * sm * ((int64_t)1 << (se + 40)) + bm * ((int64_t)1 << (be + 40));
    const int64_t one = (int64_t)1 << 40, half = one >> 1;
    int64_t q = x >> 40;
    const int64_t r = x & (one - 1);
    if (r > half || (r == half && (q & 1)))
        q++;
    return q > 1024 ? q - 1024 : 0;
}

/* Whether (mode, scale, offset) finds a pair; each pair found is checked on every m. */
static int found(int mode, float scale, float offset)
{
    uint16_t s = 0, b = 0;
    if (!ldpc_i8_mag_arith(mode, scale, offset, &s, &b))
        return 0;
    CHECK((s & 0x8000u) == 0 && (b & 0x8000u) == 0 && ((s >> 10) & 0x1f) != 0 && ((b >> 10) & 0x1f) != 0,
          "mode %d scale %g offset %g: S %04x B %04x positive normal", mode, scale, offset, s, b);
    int bad = 0;
    for (int m = 0; m <= (int)LDPC_I8_MIN_MAX; m++) {
        const int64_t want = (int64_t)ms_magnitude((float)m, mode, scale, offset, LDPC_PREC_I8);
        const int64_t got = model(m, s, b);
        if (got != want && !bad++)
            CHECK(0, "mode %d scale %g offset %g, m %d: fma gives %lld, the rule %lld (S %04x B %04x)", mode, scale,
                  offset, m, (long long)got, (long long)want, s, b);
        CHECK(ldpc_i8_mag_eval(m, s, b) == (double)got, "ldpc_i8_mag_eval at m %d", m);
    }
    return 1;
}

int main(void)
{
    /* the library's defaults at int8 (ldpc_options.c): 0.6875 and 0.75 alone, 0.8125 then half a
     * step; min-sum (mode 0) and offsets in whole and half steps */
    CHECK(found(0, 1.0f, 0.0f), "plain min-sum");
    CHECK(found(1, 0.6875f, 0.0f), "NMS 0.6875");
    CHECK(found(1, 0.75f, 0.0f), "NMS 0.75");
    CHECK(found(3, 0.8125f, 0.5f), "NMS 0.8125 then half a step");
    for (int k = 0; k <= 8; k++)
        CHECK(found(2, 1.0f, 0.5f * (float)k), "OMS %g steps", 0.5 * k);
    /* a sweep of factors in 64ths: every pair found holds (checked inside found) */
    int n = 0;
    for (int k = 16; k <= 64; k++)
        n += found(1, (float)k / 64.0f, 0.0f);
    CHECK(n >= 40, "factors k/64 found: %d of 49", n);
    /* the case with no exact pair (test_cuda_equivalence's table records): 0.625, then a quarter step */
    uint16_t s, b;
    CHECK(!ldpc_i8_mag_arith(3, 0.625f, 0.25f, &s, &b), "0.625 then a quarter step has no exact pair");
    /* out of the searched range: no pair, nothing written that a caller could take */
    CHECK(!ldpc_i8_mag_arith(1, 1.5f, 0.0f, &s, &b), "a factor above 1");
    CHECK(!ldpc_i8_mag_arith(1, 0.0f, 0.0f, &s, &b), "a factor of 0");
    CHECK(!ldpc_i8_mag_arith(2, 1.0f, 64.0f, &s, &b), "an offset of 64 steps");
    printf("factors k/64 with a pair: %d of 49\n", n);
    TEST_DONE();
}
