/* The QC layered min-sum kernel with several frames per 32-bit word, at int8 and float16 (its
 * builds: qc_kernels_packed.cu; its lane policies and group helpers also serve the pair kernel,
 * qc_lean_pair_kernel.cuh). One thread block decodes a group of frames,
 * one thread per lane of a layer as in k_qc_layered; every posterior, message and minimum is a
 * word holding one value per frame, so one instruction stream advances every frame of the group.
 * Three word layouts (the lane policies below), one kernel:
 *   - lanes_h2 (int8): two frames per word in half2, using the native half2 instructions (HADD2,
 *     HMNMX2, HSET2). Every value of the int8 rule is an integer in [-255, 255], exact in fp16,
 *     so the float16 arithmetic computes exactly the int8 rule. The default.
 *   - lanes_b4 (int8): four frames per word in bytes, with the byte-SIMD intrinsics (__vsubss4,
 *     __vabsss4, ...), which the GPU emulates with several instructions each.
 *   - lanes_f16 (float16): two frames per word in half2; the float16 rule rounds every value it
 *     keeps, the extrinsic one included (ldpc_extrinsic), to binary16, which is what HSUB2 and
 *     HADD2 do, with a clamp for its saturation.
 * The saturating arithmetic is the rule of ldpc_rules.h (ldpc_i8_sat, ldpc_round_half,
 * ms_init_prec), so the decisions equal the CPU's at the same precision, iteration counts
 * included: a frame that has converged is frozen (its lanes no longer written) while the others
 * go on.
 *
 * Row state per group: M1, M2 (the two stored magnitudes per frame), ARG (the position of the
 * first minimum per frame) and sign words (bit t of a frame's lane: the sign of its message on
 * edge t; a lane of B bits holds B edges), in global memory laid out [layer][uint4 k][lane] so
 * that a warp's loads are contiguous. The outgoing magnitude (ms_magnitude) comes, at int8, from
 * a table built on the host with the rule's own function, one lookup per frame and row; at
 * float16 from the function itself, once per frame and row. */
#ifndef GPUFEC_QC_PACKED_KERNEL_CUH
#define GPUFEC_QC_PACKED_KERNEL_CUH

#include "qc_common.cuh"

#include <cuda_fp16.h>

#define PACKED_MAX_DEGREE 40u
#define PACKED_BYTE_POST_DMAX 32 /* lanes_h2b: the longest row it runs (in registers) */
#define PACKED_MAX_THREADS 384u /* two groups per SM at most 85 registers: 5G NR's largest Z */
#ifndef PACKED_MIN_BLOCKS_SHORT
#define PACKED_MIN_BLOCKS_SHORT 3 /* short rows: at most 56 registers, three groups per SM */
#endif

namespace {

/* Four int8 frames per word. */
struct lanes_b4 {
    static constexpr int PREC = LDPC_PREC_I8;
    static constexpr bool BYTE_POST = false; /* posteriors: one word per position (see lanes_h2b) */
    static constexpr uint32_t FR = 4, BITS = 8, SIGN = 0x80808080u;
    /* INIT: LDPC_I8_MIN_MAX (63) in each byte, where the minima start (ms_init_prec) */
    static constexpr uint32_t MAX127 = 0x7f7f7f7fu, INIT = 0x3f3f3f3fu, NONE = 0xffffffffu;
    static_assert(LDPC_I8_MIN_MAX == 63.0f, "INIT holds LDPC_I8_MIN_MAX");
    static __device__ __forceinline__ uint32_t pos(uint32_t t) { return t * 0x01010101u; }
    /* The value a check sees, app - old, saturated: its sign and min(|v|, 63) are the exact
     * value's (ldpc_i8_sat). The update cannot start from it, so the row keeps each edge's
     * posterior and old message (KEEP) and adds the message's change, exact within +-126. */
    static constexpr bool KEEP = true;
    static __device__ __forceinline__ uint32_t ext(uint32_t a, uint32_t m) { return __vsubss4(a, m); }
    static __device__ __forceinline__ uint32_t update(uint32_t, uint32_t a, uint32_t m, uint32_t out)
    {
        return __vaddss4(a, __vsub4(out, m));
    }
    static __device__ __forceinline__ uint32_t mag(uint32_t v) { return __vabsss4(v); } /* min(|v|, 127) */
    static __device__ __forceinline__ uint32_t lt(uint32_t a, uint32_t b) { return __vcmpgtu4(b, a); }
    static __device__ __forceinline__ uint32_t eq(uint32_t a, uint32_t b) { return __vcmpeq4(a, b); }
    static __device__ __forceinline__ uint32_t vmin(uint32_t a, uint32_t b) { return __vminu4(a, b); }
    static __device__ __forceinline__ uint32_t vmax(uint32_t a, uint32_t b) { return __vmaxu4(a, b); }
    /* mag negated in the lanes whose SIGN bit is set in neg (two's complement) */
    static __device__ __forceinline__ uint32_t apply_sign(uint32_t mag, uint32_t neg)
    {
        const uint32_t m = ((neg & SIGN) >> 7) * 0xffu;
        return __vsub4(mag ^ m, m);
    }
    static __device__ __forceinline__ uint32_t magnitude(const qc_args&, const uint8_t* tab, uint32_t m)
    {
        return (uint32_t)tab[m & 0xffu] | (uint32_t)tab[(m >> 8) & 0xffu] << 8 |
               (uint32_t)tab[(m >> 16) & 0xffu] << 16 | (uint32_t)tab[m >> 24] << 24;
    }
    static __device__ __forceinline__ void put(uint32_t* app, size_t p, uint32_t f, float q)
    {
        reinterpret_cast<int8_t*>(app)[p * 4 + f] = (int8_t)q;
    }
    static __device__ __forceinline__ uint8_t hard(const uint32_t* app, size_t p, uint32_t f)
    {
        return (uint8_t)(reinterpret_cast<const int8_t*>(app)[p * 4 + f] < 0);
    }
};

/* Two int8-rule frames per word in half2 (integers, exact). The values never become -0 (the
 * channel values are converted from integers; a sum is -0 only from -0 operands, and x - x is
 * +0), so a sign bit is the sign of the value. */
struct lanes_h2 {
    static constexpr int PREC = LDPC_PREC_I8;
    static constexpr bool BYTE_POST = false;
    static constexpr uint32_t FR = 2, BITS = 16, SIGN = 0x80008000u;
    /* MAX127: 127.0; INIT: 63.0, LDPC_I8_MIN_MAX (ms_init_prec); NONE: NaN, equals nothing */
    static constexpr uint32_t MAX127 = 0x57f057f0u, INIT = 0x53e053e0u, NONE = 0xffffffffu;
    static_assert(LDPC_I8_MIN_MAX == 63.0f, "INIT holds LDPC_I8_MIN_MAX");
    static __device__ __forceinline__ __half2 h(uint32_t x) { return *reinterpret_cast<__half2*>(&x); }
    static __device__ __forceinline__ uint32_t u(__half2 x) { return *reinterpret_cast<uint32_t*>(&x); }
    /* t (below 2048) as binary16 bits in both halves, computed with integer operations so that
     * an unrolled loop's positions are constants */
    static __host__ __device__ constexpr uint32_t pos(uint32_t t)
    {
        return half_bits(t) * 0x00010001u;
    }
    static __host__ __device__ constexpr uint32_t half_bits(uint32_t t)
    {
        return t == 0 ? 0u : ((exp2_floor(t) + 15u) << 10) | ((t << (10u - exp2_floor(t))) & 0x3ffu);
    }
    static __host__ __device__ constexpr uint32_t exp2_floor(uint32_t t) { return t > 1 ? 1u + exp2_floor(t >> 1) : 0u; }
    static constexpr uint32_t M128 = 0xd800d800u, P1024 = 0x64006400u; /* -128.0, 1024.0 */
    static __device__ __forceinline__ uint32_t sat(__half2 x) { return u(__hmin2(__hmax2(x, h(M128)), h(MAX127))); }
    /* app - old exact (within +-191), then sat(app - old + new): the int8 rule (ldpc_i8_sat) */
    static constexpr bool KEEP = false;
    static __device__ __forceinline__ uint32_t ext(uint32_t a, uint32_t m) { return u(__hsub2(h(a), h(m))); }
    static __device__ __forceinline__ uint32_t update(uint32_t v, uint32_t, uint32_t, uint32_t out)
    {
        return sat(__hadd2(h(v), h(out)));
    }
    /* |v| (at most 191), an operand modifier of its users: min(|v|, 63) is what a row's minima
     * take (ms_init_prec), and with minima from 63 a value above 63 moves neither them nor the
     * first minimum's position, whatever it is */
    static __device__ __forceinline__ uint32_t mag(uint32_t v) { return u(__habs2(h(v))); }
    static __device__ __forceinline__ uint32_t lt(uint32_t a, uint32_t b) { return __hlt2_mask(h(a), h(b)); }
    static __device__ __forceinline__ uint32_t eq(uint32_t a, uint32_t b) { return __heq2_mask(h(a), h(b)); }
    static __device__ __forceinline__ uint32_t vmin(uint32_t a, uint32_t b) { return u(__hmin2(h(a), h(b))); }
    static __device__ __forceinline__ uint32_t vmax(uint32_t a, uint32_t b) { return u(__hmax2(h(a), h(b))); }
    static __device__ __forceinline__ uint32_t apply_sign(uint32_t mag, uint32_t neg) { return mag ^ (neg & SIGN); }
    /* ms_magnitude of the minima (integers in [0, 63]) where the plan found two half2
     * instructions exact for every one (ldpc_i8_mag.h): z = fma(m, S, B) rounds once, to 1024 plus
     * an integer, and relu(z - 1024) is exact, +0 below: four instructions per row for both
     * minima, where the table's two lookups per word took about sixteen. */
    static __device__ __forceinline__ uint32_t magnitude_arith(const qc_args& a, uint32_t m)
    {
        const __half2 z = __hfma2(h(m), h(a.i8_mag_s2), h(a.i8_mag_b2));
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
        return u(__hfma2_relu(z, h(0x3c003c00u), h(M1024)));
#else
        return u(__hmax2(__hadd2(z, h(M1024)), h(0u)));
#endif
    }
    static constexpr uint32_t M1024 = 0xe400e400u; /* -1024.0 */
    /* else the rule's table: 1024 + m (m an integer below 1024) has m in its low ten bits, both
     * indices in one add */
    static __device__ __forceinline__ uint32_t magnitude_table(const uint8_t* tab, uint32_t m)
    {
        const uint32_t i = u(__hadd2(h(m), h(P1024))) & 0x03ff03ffu;
        const uint16_t* t16 = reinterpret_cast<const uint16_t*>(tab + 128);
        return (uint32_t)t16[i & 0xffffu] | (uint32_t)t16[i >> 16] << 16;
    }
    /* ... of m with the same value in both lanes (edge pairs' merged minima): one lookup, four
     * instructions, which the arithmetic's branch would not shorten (one 5G NR block at rate
     * 0.79 measured 49-54 us with it against 49-50 us, H200, docs/performance.md) */
    static __device__ __forceinline__ uint32_t magnitude_both(const qc_args&, const uint8_t* tab, uint32_t m)
    {
        const uint32_t i = u(__hadd2(h(m), h(P1024))) & 0x3ffu;
        return (uint32_t)reinterpret_cast<const uint16_t*>(tab + 128)[i] * 0x00010001u;
    }
    /* a channel value's lane bits: never -0 (rintf can give it) */
    static __device__ __forceinline__ uint32_t lane(float q) { return __half_as_ushort(__int2half_rn((int)q)); }
    /* ldpc_channel(soft_sanitize(v)) at int8 without the conversion pipe, bit for bit: rintf as
     * the addition and subtraction of 1.5 * 2^23 (exact for |y| < 2^22, ties to even as rintf;
     * anything larger clamps either way), and +0 where rintf gives -0; a known bit +-127 */
    static __device__ __forceinline__ float channel_q(float v, float inv_step)
    {
        constexpr float RND = 12582912.0f;
        const float x = soft_sanitize(v), y = LDPC_MUL(x, inv_step);
        const float q = fminf(fmaxf(__fsub_rn(__fadd_rn(y, RND), RND), -LDPC_I8_CHANNEL_MAX), LDPC_I8_CHANNEL_MAX);
        return fabsf(x) >= GPUFEC_LLR_LIMIT ? copysignf(LDPC_I8_MAX, x) : q;
    }
    /* ... as a lane's bits (lane(), exactly: an integer), the high half +0, by the packing
     * conversion (F2FP). The conversions this replaces (FRND, F2I, I2F; F2F alike) run at a
     * quarter of the rate: three per value held one 5G block's load to about 2,000 cycles. Zero
     * bits: the value tells the decoder nothing (ldpc_channel_says_nothing). */
    static __device__ __forceinline__ uint32_t channel_bits(float v, float inv_step)
    {
        return u(__floats2half2_rn(channel_q(v, inv_step), 0.0f));
    }
    /* ... two values as a word's lanes (v1 high), one conversion for both */
    static __device__ __forceinline__ uint32_t channel_bits2(float v0, float v1, float inv_step)
    {
        return u(__floats2half2_rn(channel_q(v0, inv_step), channel_q(v1, inv_step)));
    }
    static __device__ __forceinline__ void put(uint32_t* app, size_t p, uint32_t f, float q)
    {
        reinterpret_cast<uint16_t*>(app)[p * 2 + f] = (uint16_t)lane(q);
    }
    static __device__ __forceinline__ uint32_t put2(float q0, float q1) { return lane(q0) | lane(q1) << 16; }
    static __device__ __forceinline__ uint8_t hard(const uint32_t* app, size_t p, uint32_t f)
    {
        return (uint8_t)(reinterpret_cast<const uint16_t*>(app)[p * 2 + f] >> 15);
    }
};

/* lanes_h2 at int8p16 (LDPC_PREC_I8P16): the same messages and minima (PREC is their rule), the
 * posteriors not clamped. The plan takes it only where no column has more than
 * QC_I8P16_MAX_DEGREE edges, where no posterior reaches the rule's saturation (LDPC_I8P16_MAX)
 * and every value stays an integer of at most 11 bits: HADD2 alone is then the rule's update. */
#define QC_I8P16_MAX_DEGREE 30u
static_assert(LDPC_I8_MAX + QC_I8P16_MAX_DEGREE * LDPC_I8_MIN_MAX <= LDPC_I8P16_MAX &&
                  LDPC_I8P16_MAX <= 2048.0f, "int8p16 posteriors exact in binary16 and never saturated");
struct lanes_h2w : lanes_h2 {
    static __device__ __forceinline__ uint32_t update(uint32_t v, uint32_t, uint32_t, uint32_t out)
    {
        return u(__hadd2(h(v), h(out)));
    }
};

/* lanes_h2's arithmetic with each posterior kept in a byte per frame (a position's two frames in
 * 16 bits): a group's posteriors take half lanes_h2's shared memory, so that they fit on chip
 * where 4 bytes per position do not (a DVB-S2 normal frame pair: 130 KB, not 259 KB). The rule's
 * posteriors are integers in [-128, 127]; a byte holds x + 128, and a word's half is that byte
 * as binary16 1024 + x + 128 (the byte in the low mantissa bits under exponent 10) less 1152: one
 * byte permute and one HADD2 each way, exact. */
struct lanes_h2b : lanes_h2 {
    static constexpr bool BYTE_POST = true;
    static constexpr uint32_t P1152 = 0x64806480u, M1152 = 0xe480e480u; /* +-1152.0 */
    static __device__ __forceinline__ uint32_t unpack(uint32_t c) /* c's low 16 bits */
    {
        return u(__hadd2(h(__byte_perm(c, 0x64u, 0x4140u)), h(M1152)));
    }
    /* the low 16 bits: the two halves' bytes (the upper 16 bits are not defined) */
    static __device__ __forceinline__ uint32_t pack(uint32_t w) { return __byte_perm(u(__hadd2(h(w), h(P1152))), 0u, 0x0020u); }
    static __device__ __forceinline__ void put(uint32_t* app, size_t p, uint32_t f, float q)
    {
        reinterpret_cast<uint8_t*>(app)[p * 2 + f] = (uint8_t)pack(lane(q)); /* the low half's byte */
    }
    static __device__ __forceinline__ uint8_t hard(const uint32_t* app, size_t p, uint32_t f)
    {
        return (uint8_t)(reinterpret_cast<const uint8_t*>(app)[p * 2 + f] < 128u);
    }
};

/* lanes_h2b's posteriors of n positions in shared memory */
__host__ __device__ inline size_t byte_post_bytes(uint32_t n) { return ((size_t)n * 2 + 15) & ~(size_t)15; }

/* A group's posterior words at position j (BYTE_POST: expanded from their bytes), and their store.
 * Every frame's lanes are stored, frozen frames' too: their output bits were written when they
 * froze (k_qc_packed), so nothing keeps their posteriors. */
template <class L> __device__ __forceinline__ uint32_t post_load(const uint32_t* app, uint32_t j)
{
    if constexpr (L::BYTE_POST)
        return L::unpack(reinterpret_cast<const uint16_t*>(app)[j]);
    else
        return app[j];
}
template <class L> __device__ __forceinline__ void post_store(uint32_t* app, uint32_t j, uint32_t w)
{
    if constexpr (L::BYTE_POST)
        reinterpret_cast<uint16_t*>(app)[j] = (uint16_t)L::pack(w);
    else
        app[j] = w;
}

/* Two float16-rule frames per word in half2. The rule's values are binary16 values, and each
 * operation on them is one half2 instruction: the extrinsic value and the new posterior are
 * HSUB2 and HADD2 (correctly rounded, as ldpc_round_half after the float32 operation), clamped
 * to +-65504 (its saturation); the minima HMNMX2; a magnitude and a sign are bits. Posteriors
 * never hold -0 (the loader stores +0 for any zero, and -0 is the result of neither x - y nor
 * x + y unless an operand is -0), so a sign bit is the rule's test x < 0. */
struct lanes_f16 {
    static constexpr int PREC = LDPC_PREC_F16;
    static constexpr bool BYTE_POST = false;
    static constexpr uint32_t FR = 2, BITS = 16, SIGN = 0x80008000u;
    static constexpr uint32_t INIT = 0x7c007c00u, NONE = 0xffffffffu; /* +inf (ms_init_prec); NaN */
    static constexpr uint32_t PMAX = 0x7bff7bffu, NMAX = 0xfbfffbffu; /* +-65504 */
    static __device__ __forceinline__ __half2 h(uint32_t x) { return lanes_h2::h(x); }
    static __device__ __forceinline__ uint32_t u(__half2 x) { return lanes_h2::u(x); }
    static __host__ __device__ constexpr uint32_t pos(uint32_t t) { return lanes_h2::pos(t); }
    static __device__ __forceinline__ uint32_t sat(__half2 x) { return u(__hmin2(__hmax2(x, h(NMAX)), h(PMAX))); }
    /* binary16 differences and sums, saturating (ldpc_extrinsic, ldpc_store) */
    static constexpr bool KEEP = false;
    static __device__ __forceinline__ uint32_t ext(uint32_t a, uint32_t m) { return sat(__hsub2(h(a), h(m))); }
    static __device__ __forceinline__ uint32_t update(uint32_t v, uint32_t, uint32_t, uint32_t out)
    {
        return sat(__hadd2(h(v), h(out)));
    }
    static __device__ __forceinline__ uint32_t mag(uint32_t v) { return u(__habs2(h(v))); } /* folds into its users */
    static __device__ __forceinline__ uint32_t lt(uint32_t a, uint32_t b) { return __hlt2_mask(h(a), h(b)); }
    static __device__ __forceinline__ uint32_t eq(uint32_t a, uint32_t b) { return __heq2_mask(h(a), h(b)); }
    static __device__ __forceinline__ uint32_t vmin(uint32_t a, uint32_t b) { return u(__hmin2(h(a), h(b))); }
    static __device__ __forceinline__ uint32_t vmax(uint32_t a, uint32_t b) { return u(__hmax2(h(a), h(b))); }
    static __device__ __forceinline__ uint32_t apply_sign(uint32_t mag, uint32_t neg) { return mag ^ (neg & SIGN); }
    /* ms_magnitude: in half2 arithmetic where the plan found that exact (f16_mag_exact: three
     * instructions for both frames instead of about 37 through float32), else the
     * function itself per frame (binary16 in, binary16 out: exact both ways) */
    static constexpr uint32_t LIMIT2 = 0x70e270e2u; /* GPUFEC_LLR_LIMIT, 10000.0 */
    static __device__ __forceinline__ uint32_t magnitude(const qc_args& a, const uint8_t*, uint32_t m)
    {
        if (a.f16_mag) {
            __half2 y = __hmin2(h(m), h(LIMIT2));
            if (a.mode == 1)
                y = __hmul2(y, h(a.f16_scale2));
            else if (a.mode == 2)
                y = __hmax2(__hsub2(y, h(a.f16_offset2)), h(0u));
            return u(y) & 0x7fff7fffu; /* +0, never -0 (ldpc_round_half's sign is the value's) */
        }
        const __half2 x = h(m);
        return u(__floats2half2_rn(ms_magnitude(__low2float(x), a.mode, a.scale, a.offset, LDPC_PREC_F16),
                                   ms_magnitude(__high2float(x), a.mode, a.scale, a.offset, LDPC_PREC_F16)));
    }
    /* ... of m with the same value in both lanes (edge pairs' merged minima): the function once */
    static __device__ __forceinline__ uint32_t magnitude_both(const qc_args& a, const uint8_t* tab, uint32_t m)
    {
        if (a.f16_mag)
            return magnitude(a, tab, m);
        const __half y = __float2half_rn(ms_magnitude(__low2float(h(m)), a.mode, a.scale, a.offset, LDPC_PREC_F16));
        return (uint32_t)__half_as_ushort(y) * 0x00010001u;
    }
    /* a channel value's lane bits: +0 for -0 */
    static __device__ __forceinline__ uint32_t lane(float q) { return __half_as_ushort(__float2half_rn(q == 0.0f ? 0.0f : q)); }
    static __device__ __forceinline__ void put(uint32_t* app, size_t p, uint32_t f, float q)
    {
        reinterpret_cast<uint16_t*>(app)[p * 2 + f] = (uint16_t)lane(q);
    }
    static __device__ __forceinline__ uint32_t put2(float q0, float q1) { return lane(q0) | lane(q1) << 16; }
    static __device__ __forceinline__ uint8_t hard(const uint32_t* app, size_t p, uint32_t f)
    {
        return (uint8_t)(reinterpret_cast<const uint16_t*>(app)[p * 2 + f] >> 15);
    }
};

/* A row's two outgoing magnitude words, of its minima m1 and m2. int8 in half2 (lanes_h2 and
 * its kinds, which have no magnitude of their own): with one branch for both, and none where
 * ARITH (the plan runs such a kernel only where the search found S and B: qc_pair_kz). */
template <class L, bool ARITH = false>
__device__ __forceinline__ void row_magnitudes(const qc_args& a, const uint8_t* tab, uint32_t m1, uint32_t m2, uint32_t& o1,
                                               uint32_t& o2)
{
    if constexpr (L::PREC == LDPC_PREC_I8 && L::FR == 2) {
        if (ARITH || a.i8_mag) {
            o1 = L::magnitude_arith(a, m1);
            o2 = L::magnitude_arith(a, m2);
        } else {
            o1 = L::magnitude_table(tab, m1);
            o2 = L::magnitude_table(tab, m2);
        }
    } else {
        o1 = L::magnitude(a, tab, m1);
        o2 = L::magnitude(a, tab, m2);
    }
}

/* Magnitude tables: 128 bytes (the int8 values), then 128 half-precision bit patterns. */
#define PACKED_TABLE_BYTES 384u

/* Sign words per row for a lane width and a maximum row degree; uint4 per row state. */
__host__ __device__ constexpr int packed_sign_words(uint32_t bits, uint32_t maxd) { return (int)((maxd + bits - 1) / bits); }
__host__ __device__ constexpr int packed_state_vec(int sw) { return sw <= 1 ? 1 : 2; }

#define PAIR_NO_ARG 31u /* bytes: as a position, "none": beyond every row, it matches no edge */

/* An edge's position as the pair rows compare it with a row's first minimum. 16-bit lanes: t + 1
 * as an integer in each lane (0: none), which binary16 instructions take as a subnormal, exactly
 * (no flush to zero without .ftz): HSET2 compares it, and HFMA2 (1.0 or 0.0 times it, plus the
 * position so far) records it on the FMA pipe; a stored position needs no conversion. Bytes:
 * L::pos(t), none PAIR_NO_ARG. */
template <class L> __host__ __device__ constexpr uint32_t pair_pos(uint32_t t)
{
    return L::FR == 2 ? (t + 1u) * 0x00010001u : L::pos(t);
}
template <class L> __host__ __device__ constexpr uint32_t pair_none() { return L::FR == 2 ? 0u : L::pos(PAIR_NO_ARG); }

/* The pair rows' per-edge choices on the FMA pipe (16-bit lanes). The kernel is bound by the
 * ALU pipe, which runs at half the issue rate on sm_90 (Nsight Compute: 82% of its peak with 67%
 * of issue slots used at rate 0.79), where the selects were bit operations (LOP3) on masks. Here
 * a comparison gives 1.0 or 0.0 per lane (HSET2.BF) and the choices are exact fused
 * multiply-adds: pair_pick is m2 where hit is 1.0, else m1 (int8: m1 + hit * (m2 - m1), the
 * difference taken once per row; both integers below 256, every step exact; float16: hit * m2 +
 * (m1 - hit * m1), exact for 0.0 and 1.0). */
template <class L> __device__ __forceinline__ uint32_t pair_hit(uint32_t a, uint32_t b)
{
    return L::u(__heq2(L::h(a), L::h(b)));
}
template <class L> __device__ __forceinline__ uint32_t pair_pick(uint32_t hit, uint32_t m1, uint32_t m2, uint32_t d21)
{
    if constexpr (L::PREC == LDPC_PREC_I8)
        return L::u(__hfma2(L::h(hit), L::h(d21), L::h(m1)));
    else
        return L::u(__hfma2(L::h(hit), L::h(m2), __hfma2(__hneg2(L::h(hit)), L::h(m1), L::h(m1))));
}
template <class L> __device__ __forceinline__ uint32_t pair_diff(uint32_t m1, uint32_t m2) /* pair_pick's d21 */
{
    if constexpr (L::FR == 2 && L::PREC == LDPC_PREC_I8)
        return L::u(__hsub2(L::h(m2), L::h(m1)));
    else
        return 0u;
}

template <class L> struct packed_acc {
    uint32_t min1, min2, arg, parity;
    __device__ __forceinline__ void init()
    {
        min1 = min2 = L::INIT; /* ms_init_prec */
        arg = L::NONE;
        parity = 0;
    }
    /* ms_push on every frame: a strictly smaller magnitude takes min1 and the position. */
    __device__ __forceinline__ void push(uint32_t v, uint32_t T)
    {
        const uint32_t m = L::mag(v), lower = L::lt(m, min1);
        min2 = L::vmin(min2, L::vmax(min1, m));
        min1 = L::vmin(min1, m);
        arg = (arg & ~lower) | (T & lower);
        parity ^= v;
    }
    /* the same without the position, which the second pass finds (pair_hit) */
    __device__ __forceinline__ void push_min(uint32_t v)
    {
        const uint32_t m = L::mag(v);
        min2 = L::vmin(min2, L::vmax(min1, m));
        min1 = L::vmin(min1, m);
        parity ^= v;
    }
};

/* The row state as registers. */
struct packed_row {
    uint32_t m1, m2, arg;
    uint32_t s[5];
};

template <int SV> __device__ __forceinline__ packed_row packed_load(const uint4* st)
{
    packed_row r = {st[0].x, st[0].y, st[0].z, {st[0].w, 0, 0, 0, 0}};
    if (SV > 1) {
        r.s[1] = st[1].x;
        r.s[2] = st[1].y;
        r.s[3] = st[1].z;
        r.s[4] = st[1].w;
    }
    return r;
}

/* The new state where `live`, the old one elsewhere (frozen frames). */
template <int SV>
__device__ __forceinline__ void packed_store(uint4* st, const packed_row& o, const packed_row& n, uint32_t live)
{
#define PK_SEL(x, y) (((x) & live) | ((y) & ~live))
    st[0] = make_uint4(PK_SEL(n.m1, o.m1), PK_SEL(n.m2, o.m2), PK_SEL(n.arg, o.arg), PK_SEL(n.s[0], o.s[0]));
    if (SV > 1)
        st[1] = make_uint4(PK_SEL(n.s[1], o.s[1]), PK_SEL(n.s[2], o.s[2]), PK_SEL(n.s[3], o.s[3]),
                           PK_SEL(n.s[4], o.s[4]));
#undef PK_SEL
}

/* The stored message of an edge from a row's old state: M2 where T (the edge's position) is the
 * frame's first minimum, else M1, with bit b of each lane of the sign word sw. */
template <class L>
__device__ __forceinline__ uint32_t packed_message(const packed_row& o, uint32_t sw, uint32_t b, uint32_t T)
{
    const uint32_t e = L::eq(o.arg, T);
    const uint32_t mag = (o.m2 & e) | (o.m1 & ~e);
    return L::apply_sign(mag, sw << (L::BITS - 1 - b));
}

/* The outgoing message of an edge; its sign bits (bit b of each lane) are added to *sw. */
template <class L>
__device__ __forceinline__ uint32_t packed_output(const packed_acc<L>& c, const packed_row& n, uint32_t v, uint32_t b,
                                                  uint32_t T, uint32_t* sw)
{
    const uint32_t e = L::eq(c.arg, T);
    const uint32_t mag = (n.m2 & e) | (n.m1 & ~e);
    const uint32_t neg = (c.parity ^ v) & L::SIGN;
    *sw |= neg >> (L::BITS - 1 - b);
    return L::apply_sign(mag, neg);
}

/* An edge's variable (ent_var) in a layer where some lane may skip an edge (SK), or in one where
 * none does: the entry's skip field is then zero, so the shift needs no mask, and no edge is
 * skipped. */
template <bool SK> __device__ __forceinline__ uint32_t packed_var(uint2 e, uint32_t lane, uint32_t z, bool* skip)
{
    if constexpr (SK)
        return ent_var(e, lane, z, skip);
    *skip = false;
    const uint32_t u = lane + e.y;
    return e.x + min(u, u - z);
}

/* A row of exactly D edges, the layer's degree, in a layer where no lane skips an edge (every
 * layer but DVB-S2's wrapped staircase row, which packed_row_large runs): the extrinsic words stay
 * in registers between the two passes, and the addresses up to 8 edges (longer rows derive them
 * again: a broadcast shared load and a few operations, cheaper than the occupancy more registers
 * would cost). Every frame's lanes are updated, frozen ones too: their decisions were taken when
 * they froze (k_qc_packed), so no merge per edge keeps their posteriors (H200,
 * docs/performance.md: the skip tests and merges were a fifth of DVB-S2 1/2's instructions). */
template <class L, int SV, int D>
__device__ __forceinline__ void packed_row_exact(const qc_args& a, uint32_t* app, const uint8_t* tab, const uint2* ents,
                                                 uint32_t e0, uint32_t lane, uint4* st)
{
    const packed_row old = packed_load<SV>(st);
    constexpr int DJ = D <= 8 ? D : 1, DK = L::KEEP ? D : 1;
    uint32_t v[D], jv[DJ], pk[DK] = {}, mk[DK] = {}; /* KEEP: each edge's posterior and old message */
    bool unused;
#pragma unroll
    for (int t = 0; t < D; t++) {
        const uint32_t j = packed_var<false>(ents[e0 + t], lane, a.z, &unused);
        if (D <= 8)
            jv[t % DJ] = j;
        v[t] = post_load<L>(app, j);
    }
    /* PP (int8 in half2): the first minimum's position found in the second pass, as the pair
     * rows do (pair_hit; positions pair_pos), two instructions per edge fewer in the first pass
     * and one more in the second. A layer always runs the same body, so its stored positions
     * keep one form. */
    constexpr bool PP = L::FR == 2 && L::PREC == LDPC_PREC_I8;
    const uint32_t d21 = pair_diff<L>(old.m1, old.m2);
    packed_acc<L> c;
    c.init();
#pragma unroll
    for (int t = 0; t < D; t++) {
        uint32_t msg;
        if constexpr (PP)
            msg = L::apply_sign(pair_pick<L>(pair_hit<L>(old.arg, pair_pos<L>((uint32_t)t)), old.m1, old.m2, d21),
                                old.s[t / L::BITS] << (L::BITS - 1 - t % L::BITS));
        else
            msg = packed_message<L>(old, old.s[t / L::BITS], t % L::BITS, L::pos((uint32_t)t));
        if constexpr (L::KEEP) {
            pk[t % DK] = v[t];
            mk[t % DK] = msg;
        }
        v[t] = L::ext(v[t], msg);
        if constexpr (PP)
            c.push_min(v[t]);
        else
            c.push(v[t], L::pos((uint32_t)t));
    }
    packed_row ns = {0u, 0u, c.arg, {0, 0, 0, 0, 0}};
    row_magnitudes<L>(a, tab, c.min1, c.min2, ns.m1, ns.m2);
    const uint32_t n21 = pair_diff<L>(ns.m1, ns.m2);
    if constexpr (PP)
        ns.arg = pair_none<L>();
#pragma unroll
    for (int t = 0; t < D; t++) {
        uint32_t out;
        if constexpr (PP) { /* tied edges' positions add up to a meaningless one, harmless as a tie makes M2 equal M1 */
            const uint32_t hit = pair_hit<L>(L::mag(v[t]), c.min1), neg = (c.parity ^ v[t]) & L::SIGN;
            ns.arg = L::u(__hfma2(L::h(hit), L::h(pair_pos<L>((uint32_t)t)), L::h(ns.arg)));
            ns.s[t / L::BITS] |= neg >> (L::BITS - 1 - t % L::BITS);
            out = L::apply_sign(pair_pick<L>(hit, ns.m1, ns.m2, n21), neg);
        } else {
            out = packed_output<L>(c, ns, v[t], t % L::BITS, L::pos((uint32_t)t), &ns.s[t / L::BITS]);
        }
        const uint32_t j = D <= 8 ? jv[t % DJ] : packed_var<false>(ents[e0 + t], lane, a.z, &unused);
        post_store<L>(app, j, L::update(v[t], pk[t % DK], mk[t % DK], out));
    }
    packed_store<SV>(st, old, ns, 0xffffffffu);
}

/* packed_row_exact for the layer's degree d, 1 <= d <= DHI */
template <class L, int SV, int DHI, int D = 1>
__device__ __forceinline__ void packed_row_upto(const qc_args& a, uint32_t* app, const uint8_t* tab, const uint2* ents,
                                                uint32_t e0, uint32_t d, uint32_t lane, uint4* st)
{
    if constexpr (D < DHI) {
        if (d != D)
            return packed_row_upto<L, SV, DHI, D + 1>(a, app, tab, ents, e0, d, lane, st);
    }
    packed_row_exact<L, SV, D>(a, app, tab, ents, e0, lane, st);
}

/* Longer rows, and rows of a layer where a lane may skip an edge (SK; ent_var): no per-edge
 * registers; the second pass reloads each posterior (no other row of the layer touches it) and
 * recomputes its extrinsic word. Edges go by sign word (w, unrolled: registers are not indexed
 * at run time) and bit b within it; a skipped edge is not in the minima, the parity or the
 * stores, which is the rule without it. */
template <class L, int SV, bool SK>
__device__ __forceinline__ void packed_row_large(const qc_args& a, uint32_t* app, const uint8_t* tab,
                                                 const uint2* ents, uint32_t e0, uint32_t d, uint32_t lane, uint4* st)
{
    constexpr int SWN = SV > 1 ? 5 : 1;
    const packed_row old = packed_load<SV>(st);
    packed_acc<L> c;
    c.init();
#pragma unroll
    for (int w = 0; w < SWN; w++)
        for (uint32_t b = 0, t = w * L::BITS; b < L::BITS && t < d; b++, t++) {
            bool skip;
            const uint32_t j = packed_var<SK>(ents[e0 + t], lane, a.z, &skip), T = L::pos(t);
            if (!skip)
                c.push(L::ext(post_load<L>(app, j), packed_message<L>(old, old.s[w], b, T)), T);
        }
    packed_row ns = {0u, 0u, c.arg, {0, 0, 0, 0, 0}};
    row_magnitudes<L>(a, tab, c.min1, c.min2, ns.m1, ns.m2);
#pragma unroll
    for (int w = 0; w < SWN; w++)
        for (uint32_t b = 0, t = w * L::BITS; b < L::BITS && t < d; b++, t++) {
            bool skip;
            const uint32_t j = packed_var<SK>(ents[e0 + t], lane, a.z, &skip), T = L::pos(t);
            if (skip)
                continue;
            const uint32_t p = post_load<L>(app, j), msg = packed_message<L>(old, old.s[w], b, T), v = L::ext(p, msg);
            post_store<L>(app, j, L::update(v, p, msg, packed_output<L>(c, ns, v, b, T, &ns.s[w])));
        }
    packed_store<SV>(st, old, ns, 0xffffffffu);
}

/* Lanes all ones for frames f < nf. */
template <class L> __device__ __forceinline__ uint32_t packed_frames_mask(uint32_t nf)
{
    return nf >= L::FR ? 0xffffffffu : (1u << (L::BITS * nf)) - 1u;
}

/* A group's shared memory: the per-layer tables, the magnitude table, the posteriors (unless
 * GPOST: in global memory, a.gpost, n words per group, for codes whose n words do not fit shared
 * memory, such as DVB-S2 normal frames; they stay mostly in L2). */
struct packed_mem {
    unsigned char* base; /* what byte-scaled entries count from: shared memory, or the group's posteriors (GPOST) */
    uint2* ents;
    uint32_t* ent_ptr;
    uint8_t* ncolor;
    uint8_t* tab;
    uint32_t* app;
};

/* The per-layer tables, then the magnitude table, from `at`: the part every layout order shares. */
__device__ __forceinline__ void packed_tables_at(const qc_args& a, unsigned char* at, packed_mem& m)
{
    m.ents = reinterpret_cast<uint2*>(at);
    m.ent_ptr = reinterpret_cast<uint32_t*>(m.ents + a.entries);
    m.ncolor = reinterpret_cast<uint8_t*>(m.ent_ptr + a.layers + 1);
    m.tab = at + qc_table_bytes(a.entries, a.layers);
}

template <bool GPOST> __device__ __forceinline__ packed_mem packed_layout(const qc_args& a, unsigned char* smem, uint32_t g)
{
    packed_mem m;
    packed_tables_at(a, smem, m);
    m.app = GPOST ? a.gpost + (size_t)g * a.n : reinterpret_cast<uint32_t*>(m.tab + PACKED_TABLE_BYTES);
    m.base = GPOST ? reinterpret_cast<unsigned char*>(m.app) : smem;
    return m;
}

/* One frame in a group's two 16-bit lanes (the lean pair kernel's latency form, EP): position p
 * in half p % 2 of word p / 2, so that a row's edges go two by two into a word's halves. */
struct one_slot {
    uint32_t word, half;
};
__device__ __forceinline__ one_slot one_at(uint32_t p) { return {p >> 1, p & 1u}; }
/* A frame value at position p, frame f of the group (ONE: the frame's halves by one_at). */
template <class L, bool ONE> __device__ __forceinline__ void packed_put(uint32_t* app, uint32_t p, uint32_t f, float q)
{
    if constexpr (ONE) {
        const one_slot s = one_at(p);
        L::put(app, s.word, s.half, q);
    } else {
        L::put(app, (size_t)p, f, q);
    }
}

/* A group's start: tables, posteriors zeroed (punctured positions stay erasures, +0 in every
 * layout), every stored message +0 (nwords uint4 of row state), then each frame's channel
 * values, repeated positions' sums and filler bits. Returns, in all threads, a bit per frame that
 * tells the decoder something (ldpc_channel_says_nothing). flags: three shared words. ONE: one
 * frame in (n + 1) / 2 words (one_at). SRC: the soft bits' source (with_soft). */
template <class L, bool ONE = false, bool QUADS = ONE, int SRC = 0>
__device__ __forceinline__ uint32_t packed_group_load(const qc_args& a, const packed_mem& m, uint4* state, uint32_t nwords,
                                                      uint32_t f0, uint32_t nf, uint32_t* flags, uint32_t tid, uint32_t nt)
{
    /* QUADS (one frame, or a chunk of one group per SM): the first values in flight while the
     * tables load and the memory clears, one global round trip fewer before the first layer
     * (about 2 us of one 5G block's 10 fixed) */
    constexpr bool BOTH = L::FR == 2 && !ONE; /* both frames' values of a position in one pass and one word */
    constexpr int NI = BOTH ? 2 : 1, B = ONE ? QC_LOAD_BATCH_ONE : QC_LOAD_BATCH;
    channel_quads<NI, B / 4> first;
    bool quads = false;
    if constexpr (QUADS) {
        const size_t in0 = (size_t)f0 * a.n_tx, in1 = BOTH && nf > 1 ? in0 + a.n_tx : in0;
        quads = channel_by_quads(a);
        if (quads)
            with_soft<SRC>(a, [&](const auto& src) { first.fetch(a, src, in0, in1, tid, nt); });
    }
    qc_load_tables(a, m.ents, m.ent_ptr, m.ncolor, tid, nt);
    if (L::PREC == LDPC_PREC_I8)
        for (uint32_t t = tid; t < PACKED_TABLE_BYTES; t += nt)
            m.tab[t] = a.mag_tab[t];
    for (uint32_t p = tid; p < (ONE || L::BYTE_POST ? (a.n + 1) / 2 : a.n); p += nt)
        m.app[p] = L::BYTE_POST ? 0x80808080u : 0u; /* (BYTE_POST: +0 is the byte 128) */
    for (uint32_t r = tid; r < nwords; r += nt)
        state[r] = make_uint4(0u, 0u, 0u, 0u);
    if (tid < 3)
        flags[tid] = 0;
    __syncthreads();
    uint32_t loaded = 0;
    if constexpr (BOTH) {
        const size_t in0 = (size_t)f0 * a.n_tx, in1 = nf > 1 ? in0 + a.n_tx : in0; /* a lone frame: its lane 1 stays +0 */
        uint32_t any = 0; /* int8 in half2: the words' bits, zero in a frame's half where it told nothing */
        const auto use = [&](int32_t p, float v0, float v1) {
            /* int8 in half2: the rule without the conversion pipe (channel_bits2), whose three
             * conversions per value, and the rule again for the erased-frame test, made the
             * many-group load of 5G R = 1/3 about 6% of the kernel (H200, docs/performance.md) */
            if constexpr (L::PREC == LDPC_PREC_I8 && L::BITS == 16) {
                const uint32_t w = L::channel_bits2(v0, nf > 1 ? v1 : 0.0f, a.inv_step);
                any |= w;
                if (p >= 0)
                    post_store<L>(m.app, (uint32_t)p, w);
            } else {
                const float x0 = soft_sanitize(v0), x1 = soft_sanitize(v1);
                loaded |= (uint32_t)!ldpc_channel_says_nothing(x0, L::PREC, a.inv_step) |
                          (uint32_t)(nf > 1 && !ldpc_channel_says_nothing(x1, L::PREC, a.inv_step)) << 1;
                if (p >= 0)
                    post_store<L>(m.app, (uint32_t)p,
                                  L::put2(ldpc_channel(x0, L::PREC, a.inv_step), nf > 1 ? ldpc_channel(x1, L::PREC, a.inv_step) : 0.0f));
            }
        };
        with_soft<SRC>(a, [&](const auto& src) {
            if (quads)
                channel_quads_from(a, src, in0, in1, tid, nt, first, use);
            else
                channel_batches<2>(a, src, in0, in1, tid, nt, use);
        });
        loaded |= (uint32_t)((any & 0xffffu) != 0) | (uint32_t)((any >> 16) != 0) << 1;
    }
    for (uint32_t f = 0; f < nf; f++) {
        const size_t in = (size_t)(f0 + f) * a.n_tx;
        if constexpr (L::FR != 2 || ONE) { /* (two frames per word: above) */
            uint32_t any = 0;
            const auto use = [&](int32_t p, float v, float) {
                if constexpr (ONE && L::PREC == LDPC_PREC_I8 && L::BITS == 16) {
                    const uint32_t h = L::channel_bits(v, a.inv_step);
                    any |= h;
                    if (p >= 0)
                        reinterpret_cast<uint16_t*>(m.app)[p] = (uint16_t)h; /* one_at: position p's half */
                } else {
                    const float x = soft_sanitize(v);
                    loaded |= (uint32_t)!ldpc_channel_says_nothing(x, L::PREC, a.inv_step) << f;
                    if (p >= 0)
                        packed_put<L, ONE>(m.app, (uint32_t)p, f, ldpc_channel(x, L::PREC, a.inv_step));
                }
            };
            with_soft<SRC>(a, [&](const auto& src) {
                if (quads && f == 0)
                    channel_quads_from(a, src, in, in, tid, nt, first, use);
                else
                    channel_batches<1, B>(a, src, in, in, tid, nt, use);
            });
            loaded |= (uint32_t)(any != 0) << f;
        }
        for (uint32_t r = tid; r < a.n_rep; r += nt)
            packed_put<L, ONE>(m.app, a.rep[r].x, f, ldpc_channel(qc_soft_mother<SRC>(a, a.rep[r].y, in), L::PREC, a.inv_step));
        for (uint32_t t = tid; t < a.n_fill; t += nt)
            packed_put<L, ONE>(m.app, a.fill_int[t], f, ldpc_channel(GPUFEC_LLR_LIMIT, L::PREC, a.inv_step));
    }
    if (loaded)
        atomicOr(&flags[0], loaded);
    __syncthreads();
    return flags[0];
}

/* Whether the schedule checks the syndrome after iteration `it` (counted from 1): every
 * interval-th iteration with early termination, and after the last. */
__device__ __forceinline__ bool qc_check_due(const qc_args& a, int it)
{
    return (a.early && it % a.interval == 0) || it == a.max_iterations;
}

/* The live frames (`all`: their sign bits) with a failing check in some thread's `bad`, for the
 * whole block: a barrier's own reduction per frame. The checks run their first layer, then this,
 * then the other layers only where a frame passed the first: a frame that has not converged
 * nearly always fails a check of its first layer (5G NR's first rows touch every information
 * column), and skipping the rest takes most of the check's cost off every iteration that does
 * not stop (at BG1 rate 1/3, 46 layers, the check cost about a quarter of an iteration). The
 * result is the full check's: the rest runs wherever it could change it. */
template <class L> __device__ __forceinline__ uint32_t block_failed(uint32_t bad, uint32_t all)
{
    uint32_t failed = 0;
#pragma unroll
    for (uint32_t f = 0; f < L::FR; f++) {
        const uint32_t bit = 1u << (L::BITS * f + L::BITS - 1);
        if (all & bit) /* (uniform: every thread's live frames are the block's) */
            failed |= __syncthreads_or(bad & bit) ? bit : 0u;
    }
    return failed;
}

/* This thread's failing checks (the sign bits of the live frames `all` whose rows fail), the
 * first layer first: rows(l0, l1) checks layers l0 to l1 - 1, and the other layers run only
 * where a live frame passed the first one in the whole block (block_failed). SETTLE: where the
 * first layer failed every live frame, the block's verdict is known, and then the result is
 * `all` with FIRST_SETTLED (a bit no lane's sign uses), so that packed_group_settle skips its
 * own reduction and barrier (the one-wave builds, 2-3% on a 5G slot under early stopping).
 * Without SETTLE, for builds held to 80 registers, whose second path there made the compiler
 * spill (H200: 8192 BG1 R = 1/3 blocks 3.5% slower). The one-frame kernels' form is
 * qc_parity_holds, which returns the block's verdict itself. */
#define FIRST_SETTLED 1u
template <class L, bool SETTLE = false, class F>
__device__ __forceinline__ uint32_t first_layer_first(uint32_t all, uint32_t layers, F rows)
{
    static_assert((L::SIGN & FIRST_SETTLED) == 0, "a bit no sign uses");
    const uint32_t bad = rows(0u, 1u);
    const uint32_t failed = block_failed<L>(bad, all);
    if (SETTLE && all && failed == all)
        return all | FIRST_SETTLED;
    return failed != all ? bad | rows(1u, layers) : bad;
}

/* A group's progress from its failing checks `bad` (this thread's rows; the sign bit of each live
 * frame whose checks fail; where SETTLE and with FIRST_SETTLED, the block's, first_layer_first's):
 * converged frames are recorded (ok, iters) and, with early stopping, frozen (removed from live).
 * Returns true when no frame is left to run. ONE: one frame in both lanes, whose rows' checks
 * are in bit 15. */
template <class L, bool ONE = false, bool SETTLE = false>
__device__ __forceinline__ bool packed_group_settle(const qc_args& a, int it, uint32_t bad, uint32_t* live,
                                                    uint32_t* ok, int (&iters)[L::FR], uint32_t* flags,
                                                    uint32_t* sflag, uint32_t tid)
{
    uint32_t any_bad;
    if (SETTLE && (bad & FIRST_SETTLED)) { /* every live frame failed: no barrier, no flag word */
        any_bad = ONE ? L::SIGN : bad & ~FIRST_SETTLED;
    } else if constexpr (ONE) { /* a failing check fails the one frame, in both lanes: the barrier's own reduction */
        any_bad = __syncthreads_or(bad & L::SIGN) ? L::SIGN : 0u;
    } else {
        /* one atomic per warp, not per failing row (they serialise on one word) */
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
        bad = __reduce_or_sync(__activemask(), bad); /* (a block need not be whole warps) */
        if (bad && (tid & 31u) == 0)
            atomicOr(&flags[*sflag], bad);
#else
        if (bad)
            atomicOr(&flags[*sflag], bad);
#endif
        __syncthreads();
        any_bad = flags[*sflag];
        if (tid == 0)
            flags[*sflag ^ 3u] = 0; /* the word the next check uses (1 <-> 2) */
        *sflag ^= 3u;
    }
    uint32_t conv = 0; /* lanes of the live frames whose syndrome is zero */
#pragma unroll
    for (uint32_t f = 0; f < L::FR; f++)
        if (!((any_bad >> (L::BITS * f + L::BITS - 1)) & 1u))
            conv |= (L::BITS == 32 ? 0xffffffffu : ((1u << L::BITS) - 1u)) << (L::BITS * f);
    conv &= *live;
    const bool last = it == a.max_iterations;
    const uint32_t stop = a.early || last ? conv : 0u;
    *ok |= stop;
#pragma unroll
    for (uint32_t f = 0; f < L::FR; f++)
        if (((*live >> (L::BITS * f)) & 1u) && (((stop >> (L::BITS * f)) & 1u) || last))
            iters[f] = it;
    if (a.early)
        *live &= ~conv;
    return a.early && !*live;
}


/* The packed kernel's check after iteration `it` where the schedule asks for it (qc_check_due),
 * the syndrome by the layers' entries; the signs are the hard decisions. */
template <class L>
__device__ __forceinline__ bool packed_group_check(const qc_args& a, const packed_mem& m, int it, uint32_t* live,
                                                   uint32_t* ok, int (&iters)[L::FR], uint32_t* flags, uint32_t* sflag,
                                                   uint32_t tid, uint32_t nt)
{
    if (!qc_check_due(a, it))
        return false;
    const uint32_t* app = m.app, all = *live & L::SIGN;
    const auto hard = [&](uint32_t j) { return post_load<L>(app, j); };
    const uint32_t bad = first_layer_first<L>(all, a.layers, [&](uint32_t l0, uint32_t l1) {
        return qc_syndrome_bad(a, m.ents, m.ent_ptr, tid, nt, all, hard, l0, l1);
    });
    return packed_group_settle<L>(a, it, bad, live, ok, iters, flags, sflag, tid);
}

/* The low 16 bits of x at the even bits (bit m at bit 2m). */
__device__ __forceinline__ uint32_t spread_bits16(uint32_t x)
{
    x &= 0xffffu;
    x = (x | x << 8) & 0x00ff00ffu;
    x = (x | x << 4) & 0x0f0f0f0fu;
    x = (x | x << 2) & 0x33333333u;
    return (x | x << 1) & 0x55555555u;
}

/* One frame's output bits where they are one run from an even position (5G NR's K information
 * bits) and the output allows 16-byte stores: sixteen per thread and store, from eight words of
 * two halves each (one_at; a hard decision is a half's sign bit), instead of a byte store and
 * its address per bit (one 5G block: 22 per thread). False where it does not apply. */
__device__ __forceinline__ bool one_store_by_16(const qc_args& a, const uint32_t* app, uint8_t* out, uint32_t tid,
                                                uint32_t nt)
{
    if (!a.out_run || (a.out0 & 1u) || ((reinterpret_cast<uintptr_t>(out) | a.n_out) & 15u))
        return false;
    const uint32_t* w = app + a.out0 / 2u;
    for (uint32_t i = tid; i < a.n_out / 16u; i += nt) {
        uint32_t b[4];
#pragma unroll
        for (int k = 0; k < 4; k++) { /* bits 16i + 4k .. + 3: two words' sign bits to four bytes */
            const uint32_t lo = (w[8u * i + 2u * k] >> 15) & 0x00010001u, hi = (w[8u * i + 2u * k + 1u] >> 15) & 0x00010001u;
            b[k] = __byte_perm(lo, hi, 0x6420);
        }
        reinterpret_cast<uint4*>(out)[i] = make_uint4(b[0], b[1], b[2], b[3]);
    }
    return true;
}

/* ... packed (a.pack) where the bits are one run from an even position, a multiple of 32 of them,
 * and the block whole warps: each warp's 32 lanes read 32 words (64 positions) side by side and
 * two votes gather their sign bits, which two lanes interleave into two output words, where a
 * word per thread would read 16 words from one bank. False where it does not apply. */
__device__ __forceinline__ bool one_store_packed(const qc_args& a, const uint32_t* app, uint8_t* out, uint32_t tid,
                                                 uint32_t nt)
{
    if (!a.out_run || (a.out0 & 1u) || (a.n_out & 31u) || (nt & 31u) || (reinterpret_cast<uintptr_t>(out) & 3u) ||
        a.crc_tab || a.pack_len != a.n_out) /* (a CRC: output_frame) */
        return false;
    const uint32_t* w = app + a.out0 / 2u;
    const uint32_t lane = tid & 31u, words = a.n_out / 2u, outs = a.n_out / 32u;
    for (uint32_t i = tid >> 5; 64u * i < a.n_out; i += nt >> 5) { /* warp-uniform: every lane votes */
        const uint32_t q = 32u * i + lane, x = q < words ? w[q] : 0u;
        const uint32_t lo = __ballot_sync(0xffffffffu, (x >> 15) & 1u), hi = __ballot_sync(0xffffffffu, x >> 31);
        const uint32_t o = 2u * i + lane;
        if (lane < 2u && o < outs) { /* positions 32o .. 32o + 31: bit 2m of lo's half m, bit 2m + 1 of hi's */
            const uint32_t m = spread_bits16(lo >> (16u * lane)) | spread_bits16(hi >> (16u * lane)) << 1;
            /* bit p is position p; in memory the first position is the first byte's top bit */
            reinterpret_cast<uint32_t*>(out)[o] = __byte_perm(__brev(m), 0u, 0x0123);
        }
    }
    return true;
}

/* Output bits of the group's frames f < nf whose bit f is set in `frames`; bit f of the result:
 * frame f's CRC fails (output_frame). */
template <class L, bool ONE = false>
__device__ __forceinline__ uint32_t packed_frames_out(const qc_args& a, const packed_mem& m, uint32_t f0, uint32_t nf,
                                                      uint32_t frames, uint32_t tid, uint32_t nt)
{
    uint32_t crc_fails = 0;
    for (uint32_t f = 0; f < nf; f++) {
        if (!((frames >> f) & 1u))
            continue;
        uint8_t* out = frame_out(a, f0 + f);
        if constexpr (ONE && L::BITS == 16)
            if (a.pack ? one_store_packed(a, m.app, out, tid, nt) : one_store_by_16(a, m.app, out, tid, nt))
                continue;
        const bool crc_ok = output_frame(a, out, tid, nt, [&](uint32_t j) {
            if constexpr (ONE) {
                const one_slot s = one_at(j);
                return L::hard(m.app, s.word, s.half);
            } else {
                return L::hard(m.app, j, f);
            }
        });
        crc_fails |= (uint32_t)!crc_ok << f;
    }
    return crc_fails;
}

/* A group's end: the output bits of the frames in `frames` (bit f: frame f; the others' were
 * stored when they froze, their CRC failures in crc_fails), and every frame's iterations and flag
 * (erased frames are never decoded; a failed CRC clears it). */
template <class L, bool ONE = false>
__device__ __forceinline__ void packed_group_store(const qc_args& a, const packed_mem& m, uint32_t f0, uint32_t nf,
                                                   uint32_t ok, uint32_t has_info, const int (&iters)[L::FR],
                                                   uint32_t tid, uint32_t nt, uint32_t frames = ~0u,
                                                   uint32_t crc_fails = 0)
{
    crc_fails |= packed_frames_out<L, ONE>(a, m, f0, nf, frames, tid, nt);
#pragma unroll
    for (uint32_t f = 0; f < L::FR; f++)
        if (tid == f && f < nf) {
            a.iters[f0 + f] = iters[f];
            a.conv[f0 + f] =
                (uint8_t)(((ok >> (L::BITS * f)) & 1u) && ((has_info >> f) & 1u) && !((crc_fails >> f) & 1u));
        }
}

/* Bit f for each frame f whose lanes are set in `lanes`. */
template <class L> __device__ __forceinline__ uint32_t packed_frame_bits(uint32_t lanes)
{
    uint32_t b = 0;
#pragma unroll
    for (uint32_t f = 0; f < L::FR; f++)
        b |= ((lanes >> (L::BITS * f)) & 1u) << f;
    return b;
}

/* ncolor's top bit, set on chip (packed_mark_skips): some lane of the layer skips an edge, so
 * its rows run packed_row_large's tests; every other layer runs rows without them. Only
 * DVB-S2's staircase has a skipped edge, in one layer. A layer's colours stay below the bit
 * (QV_MAX_COLOURS). */
#define PACKED_SKIPS 0x80u
static_assert(QV_MAX_COLOURS < PACKED_SKIPS, "colour counts leave the top bit free");
__device__ __forceinline__ void packed_mark_skips(const packed_mem& m, uint32_t layers, uint32_t tid, uint32_t nt)
{
    for (uint32_t l = tid; l < layers; l += nt) {
        uint32_t skips = 0;
        for (uint32_t e = m.ent_ptr[l]; e < m.ent_ptr[l + 1]; e++)
            skips |= m.ents[e].y >> 16; /* ent_var's skipped lane + 1 */
        if (skips)
            m.ncolor[l] |= (uint8_t)PACKED_SKIPS;
    }
    __syncthreads();
}

/* DMAX: the longest row the kernel is built for (8, 16 or PACKED_MAX_DEGREE), so that a code
 * of short rows gets a kernel without the long-row paths and their registers (more groups per
 * SM). BYTE_POST: one group per SM (its posteriors take most of the shared memory), so the
 * registers are not held down for more. */
template <class L, int SV, bool GPOST, int DMAX>
__global__ void __launch_bounds__(PACKED_MAX_THREADS, L::BYTE_POST ? 1 : DMAX <= 8 ? PACKED_MIN_BLOCKS_SHORT : 2)
    k_qc_packed(qc_args a)
{
    extern __shared__ __align__(16) unsigned char smem[];
    __shared__ uint32_t s_flags[3]; /* loaded frames; two syndrome words used alternately */
    const uint32_t g = blockIdx.x, tid = threadIdx.x, nt = blockDim.x;
    const packed_mem m = packed_layout<GPOST>(a, smem, g);
    uint4* state = reinterpret_cast<uint4*>(a.gstate) + (size_t)g * a.layers * SV * a.z;
    const uint32_t f0 = g * L::FR, nf = min(L::FR, a.nframes - f0);
    const uint32_t has_info = packed_group_load<L>(a, m, state, a.layers * SV * a.z, f0, nf, s_flags, tid, nt);
    packed_mark_skips(m, a.layers, tid, nt);

    /* rows in registers: up to 8 edges, 16 and 20 (5G NR BG1's core rows: 19) in 16-bit lanes,
     * PACKED_BYTE_POST_DMAX with byte posteriors (one group per SM: registers to spare) */
    constexpr int DREG = DMAX <= 8 || L::BITS < 16 ? 8
                         : DMAX <= 16              ? 16
                         : L::BYTE_POST            ? PACKED_BYTE_POST_DMAX
                                                   : 20;
    uint4 next[SV]; /* the next phase's row state, loaded ahead as in k_qc_layered */
#pragma unroll
    for (int k = 0; k < SV; k++)
        next[k] = tid < a.z ? state[k * a.z + tid] : make_uint4(0u, 0u, 0u, 0u);
    uint32_t live = packed_frames_mask<L>(nf), ok = 0, sflag = 1, crc_fails = 0;
    int it = 0, iters[L::FR] = {};
    while (it < a.max_iterations) {
        for (uint32_t l = 0; l < a.layers; l++) {
            const uint32_t e0 = m.ent_ptr[l], d = m.ent_ptr[l + 1] - e0;
            const uint32_t cflag = m.ncolor[l], colors = cflag & ~PACKED_SKIPS;
            for (uint32_t col = 0; col < colors; col++) {
                const uint32_t lane = phase_lane(a, col, tid);
                uint4 cur[SV];
                uint32_t nl, ncol;
                const bool reload = phase_next(a, colors, l, col, &nl, &ncol);
                const uint32_t nlane = phase_lane(a, ncol, tid);
#pragma unroll
                for (int k = 0; k < SV; k++) {
                    cur[k] = next[k];
                    if (reload && nlane < a.z)
                        next[k] = state[((size_t)nl * SV + k) * a.z + nlane];
                }
                if (phase_active(a, colors, l, col, lane)) {
                    if (cflag & PACKED_SKIPS)
                        packed_row_large<L, SV, true>(a, m.app, m.tab, m.ents, e0, d, lane, cur);
                    else if (DMAX <= 8 || d <= DREG)
                        packed_row_upto<L, SV, DREG>(a, m.app, m.tab, m.ents, e0, d, lane, cur);
                    else if constexpr (DMAX > 8)
                        packed_row_large<L, SV, false>(a, m.app, m.tab, m.ents, e0, d, lane, cur);
#pragma unroll
                    for (int k = 0; k < SV; k++)
                        state[((size_t)l * SV + k) * a.z + lane] = cur[k];
                }
                __syncthreads();
            }
        }
        const uint32_t was = live;
        const bool done = packed_group_check<L>(a, m, ++it, &live, &ok, iters, s_flags, &sflag, tid, nt);
        if (was != live) { /* frames froze (early stopping; uniform): their decisions now */
            crc_fails |= packed_frames_out<L>(a, m, f0, nf, packed_frame_bits<L>(was & ~live), tid, nt);
            if (!done)
                __syncthreads(); /* before the next layer's rows change the posteriors read */
        }
        if (done)
            break;
    }
    packed_group_store<L>(a, m, f0, nf, ok, has_info, iters, tid, nt, packed_frame_bits<L>(live), crc_fails);
}

} // namespace

#endif
