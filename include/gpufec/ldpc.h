/* gr-gpufec public C API: binary LDPC codes, the first code family: its decoder options.
 *
 * The binary LDPC decoders' options live in gpufec_decoder_opts.family_options and are set and
 * read by name (gpufec_decoder_opts_set, _get, _set_text; `gpufec-info --params` lists them with
 * their ranges and defaults):
 *   algorithm          spa | ms | nms (default) | oms | gallager-a | gallager-b | pgab
 *   norm               normalised min-sum factor in (0, 1]; 0 (default): by code and rate
 *   offset             offset min-sum offset (default 0.5)
 *   syndrome_interval  test the syndrome every this many iterations and after the last
 *                      (default 1); the CPU and the GPU apply the same rule
 *   precision          float32 (default) | float16 | int8: storage of the decoder's soft state
 *   quant_step         int8: LLR of one step; 0 (default): 0.25
 *   norm_offset        int8 normalised min-sum: LLR subtracted after the factor (0: none);
 *                      -1 (default): by code and rate (docs/codes.md)
 *   pgab_p, pgab_start, seed   probabilistic Gallager-B (seed 003)
 *   cpu_simd           CPU vector path: 0 off, 1 (default) the widest, 2 AVX2 only
 * `schedule` (auto | flooding | layered) is a common field of gpufec_decoder_opts: another
 * family's graph decoders read it too. The code names are listed in code.h and docs/codes.md. */
#ifndef GPUFEC_LDPC_H
#define GPUFEC_LDPC_H

#include "common.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum {
    GPUFEC_ALG_SPA = 0, /* sum-product, tanh rule */
    GPUFEC_ALG_MS = 1,  /* min-sum */
    GPUFEC_ALG_NMS = 2, /* normalised min-sum: magnitude * normalization */
    GPUFEC_ALG_OMS = 3, /* offset min-sum: max(magnitude - offset, 0) */
    /* Hard-decision decoders: they read only the sign of each soft bit (BSC, or hard AWGN). */
    GPUFEC_ALG_GALLAGER_A = 4, /* flip the channel bit when all other checks disagree */
    GPUFEC_ALG_GALLAGER_B = 5, /* majority of the channel bit and the other checks, ties: channel */
    GPUFEC_ALG_PGAB = 6        /* probabilistic Gallager-B (seed 003): see pgab_* options */
} gpufec_algorithm;

/* Storage precision of the decoder's soft state (check messages and posteriors). The arithmetic
 * is float32 throughout; reduced precision rounds each stored value, identically on the CPU and
 * the GPU, so both backends still give the same decisions. Reduced precision applies to the
 * min-sum family with the layered schedule (GPUFEC_ERR_UNSUPPORTED otherwise). */
typedef enum {
    GPUFEC_PRECISION_FLOAT32 = 0, /* default. The GPU may still keep DVB-S2 normal-frame
                                     posteriors in float16 when float32 does not fit on chip */
    GPUFEC_PRECISION_FLOAT16 = 1, /* messages and posteriors rounded to IEEE binary16 */
    GPUFEC_PRECISION_INT8 = 2,    /* fixed point: soft values in units of quant_step, at most
                                     +-32 (known bits +-127), posteriors saturating at +-127
                                     (8 bits), a row's minima at most 63 */
    GPUFEC_PRECISION_INT8_P16 = 3 /* int8's channel values and messages, posteriors in 16 bits
                                     (saturating at +-2047, which no column of degree <= 30
                                     reaches): no posterior rounding at a strong signal, and
                                     the GPU's two-frames-per-word kernels skip the clamp */
} gpufec_precision;

/* The option table's names of each value ("nms", "int8", ...); the parsers return
 * GPUFEC_ERR_INVALID_ARGUMENT for unknown names. */
GPUFEC_API const char* gpufec_algorithm_name(gpufec_algorithm algorithm);
GPUFEC_API gpufec_status gpufec_algorithm_from_name(const char* name, gpufec_algorithm* algorithm);
/* "float32", "float16", "int8", "int8p16". */
GPUFEC_API const char* gpufec_precision_name(gpufec_precision precision);
GPUFEC_API gpufec_status gpufec_precision_from_name(const char* name, gpufec_precision* precision);

#ifdef __cplusplus
}
#endif

#endif
