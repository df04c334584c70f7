/* gr-gpufec public C API: 3GPP LTE turbo codes (TS 36.212 5.1.3.2), the second code family.
 *
 * Code names (gpufec_code_open):
 *   lte-turbo-<K>                      mother code: K information bits (one of the 188 QPP sizes
 *                                      40..6144), 3 (K + 4) coded bits, rate about 1/3
 *   lte-turbo-<K>:crc=24a|24b          the last 24 of the K bits are CRC24A / CRC24B (36.212
 *                                      5.1.1): k = K - 24 information bits; the encoder attaches
 *                                      the CRC, the decoder stops and reports success on it
 *   ...:e=<E>:rv=<RV>                  rate matched to E bits, redundancy version 0..3 (36.212
 *                                      5.1.4.1, circular buffer N_cb = K_w, no soft-buffer limit);
 *                                      E > K_w repeats bits, and the decoder sums their soft values
 * Mother codeword order: bit index major, d0[i], d1[i], d2[i] for i = 0 .. K+3 (position 3 i + s
 * is stream s), as 36.212 names the encoder outputs; the encoder block emits this order and the
 * decoder block expects it. */
#ifndef GPUFEC_TURBO_H
#define GPUFEC_TURBO_H

#include "code.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum {
    GPUFEC_TURBO_MAX_LOG_MAP = 0, /* max* = max, extrinsic scaled by extrinsic_scale */
    GPUFEC_TURBO_LOG_MAP = 1      /* max* with the correction term ln(1 + e^-|a-b|) */
} gpufec_turbo_algorithm;

/* Starting state metrics of a sub-block's recursions when P > 1 (seed 002, section 4.3). */
typedef enum {
    GPUFEC_TURBO_GUARD_NONE = 0,     /* equal metrics */
    GPUFEC_TURBO_GUARD_PIVI = 1,     /* the neighbour's metrics from the previous iteration */
    GPUFEC_TURBO_GUARD_DSTW = 2,     /* a training run of `window` steps from equal metrics */
    GPUFEC_TURBO_GUARD_PIVIDSTW = 3  /* the training run starts from the previous iteration's */
} gpufec_turbo_guard;

/* Arithmetic of the turbo decoder. FLOAT is the reference: any algorithm, P and guard, the same
 * decisions on the CPU and the GPU. INT16 / INT8 are the CPU's fast path: Max-Log-MAP with P = 1,
 * saturating fixed-point metrics, one frame per vector lane (AVX2 or AVX-512), so 16 to 64 frames
 * decode side by side; soft inputs are quantised in steps of 1/16 LLR (INT16, clamped at +-64)
 * or 1/4 LLR (INT8, clamped at +-7.75). Their decisions differ slightly from FLOAT's. AUTO: FLOAT
 * on the GPU; on the CPU INT16 where it applies (Max-Log-MAP, P = 1, AVX2), else FLOAT. */
typedef enum {
    GPUFEC_TURBO_FLOAT = 0,
    GPUFEC_TURBO_INT16 = 1,
    GPUFEC_TURBO_INT8 = 2,
    GPUFEC_TURBO_ARITH_AUTO = 3
} gpufec_turbo_arithmetic;

/* Vector instruction set of the fixed-point decoder. */
typedef enum {
    GPUFEC_TURBO_SIMD_AUTO = 0,  /* the widest the CPU has */
    GPUFEC_TURBO_SIMD_AVX2 = 1,  /* 16 (int16) or 32 (int8) frames per vector */
    GPUFEC_TURBO_SIMD_AVX512 = 2 /* AVX-512BW: 32 or 64 frames per vector */
} gpufec_turbo_simd;

typedef struct {
    uint32_t K;       /* turbo block size (information bits + CRC) */
    uint32_t crc;     /* 0, or 24 with crc_b = 0 (CRC24A) / 1 (CRC24B) */
    int crc_b;
    uint32_t e;       /* rate-matched length, 0: mother code */
    uint32_t rv;
    uint32_t f1, f2;  /* QPP interleaver: pi(i) = (f1 i + f2 i^2) mod K */
} gpufec_turbo_info;

/* GPUFEC_ERR_UNSUPPORTED for codes of another family. */
GPUFEC_API gpufec_status gpufec_code_turbo_info(const gpufec_code* code, gpufec_turbo_info* info);

/* The QPP interleaver of block size K: perm[i] = pi(i), i < K (K must be one of the 188 sizes). */
GPUFEC_API gpufec_status gpufec_turbo_interleaver(uint32_t K, uint32_t* perm);

/* CRC24A (crc_b = 0, g = 0x864CFB) or CRC24B (crc_b = 1, g = 0x800063) of n bits (one per byte),
 * as 36.212 5.1.1 attaches it (parity bits p0 .. p23, p0 first). */
GPUFEC_API gpufec_status gpufec_lte_crc24(const uint8_t* bits, size_t n, int crc_b, uint8_t parity[24]);

/* Names: "maxlogmap", "logmap"; "none", "pivi", "dstw", "pividstw"; "float", "int16", "int8", "auto";
 * "auto", "avx2", "avx512". */
GPUFEC_API const char* gpufec_turbo_algorithm_name(gpufec_turbo_algorithm a);
GPUFEC_API const char* gpufec_turbo_guard_name(gpufec_turbo_guard g);
GPUFEC_API const char* gpufec_turbo_arithmetic_name(gpufec_turbo_arithmetic a);
GPUFEC_API const char* gpufec_turbo_simd_name(gpufec_turbo_simd s);

#ifdef __cplusplus
}
#endif

#endif
