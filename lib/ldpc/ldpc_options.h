/* The binary LDPC family's decoder options, kept in gpufec_decoder_opts.family_options (words
 * 6..11; words 0..5 are the other families', docs/architecture.md) and reached by name only from
 * outside the family (gpufec_decoder_opts_set "algorithm", "norm", "precision", ...). `schedule`
 * and `cuda_tuning` stay in the public struct: other families' decoders read them too. */
#ifndef GPUFEC_LDPC_OPTIONS_H
#define GPUFEC_LDPC_OPTIONS_H

#include <gpufec/decoder.h>
#include <gpufec/ldpc.h>

#include "ldpc_rules.h"

#include <stdint.h>
#include <string.h>

#define LDPC_OPTS_SLOT 6

typedef struct {
    gpufec_algorithm algorithm; /* default NMS */
    float normalization;        /* NMS factor in (0, 1]; 0: by code and rate (resolved at create) */
    float offset;               /* OMS offset, default 0.5 */
    int32_t syndrome_interval;  /* test the syndrome every this many iterations, default 1 */
    float pgab_p;               /* PGaB: probability that a perturbed channel vote is inverted (0.8) */
    int32_t pgab_start;         /* PGaB: first perturbed iteration, 1-based (16) */
    uint64_t seed;              /* PGaB random source (1): same seed, same decisions */
    int32_t cpu_simd;           /* CPU vector path: 0 off, 1 widest, 2 AVX2 only (default 1) */
    gpufec_precision precision; /* default FLOAT32 */
    float quant_step;           /* int8: LLR of one step; 0: the default, 0.25 (resolved at create) */
    float norm_offset;          /* NMS at int8: LLR subtracted after the factor; < 0: by code and
                                   rate (resolved at create) */
} ldpc_opts;

static inline ldpc_opts ldpc_opts_of(const gpufec_decoder_opts* o)
{
    ldpc_opts t;
    memcpy(&t, o->family_options + LDPC_OPTS_SLOT, sizeof t);
    return t;
}

static inline void ldpc_opts_put(gpufec_decoder_opts* o, const ldpc_opts* t)
{
    memcpy(o->family_options + LDPC_OPTS_SLOT, t, sizeof *t);
}

/* Reduced-precision parameters shared by the backends: 1 / quant_step (int8), and the OMS offset
 * in the units the messages are stored in (steps for int8, LLRs otherwise). */
static inline float decoder_inv_step(const ldpc_opts* o) { return 1.0f / o->quant_step; }
/* The rules' precision codes are the public enum's values (ldpc_options.c checks), so the
 * options ask the rules which precisions are fixed point. */
static inline int ldpc_precision_fixed(gpufec_precision p) { return ldpc_prec_fixed((int)p); }
/* ... and whose stored values saturate asymmetrically (impl_caps.asymmetric): every backend's
 * caps come from here. */
static inline int ldpc_precision_asymmetric(gpufec_precision p) { return ldpc_prec_asymmetric((int)p); }
static inline float decoder_offset_steps(const ldpc_opts* o)
{
    return ldpc_precision_fixed(o->precision) ? o->offset * decoder_inv_step(o) : o->offset;
}

/* The min-sum rule's mode and offset as the storage sees them (ms_magnitude): normalised
 * min-sum at int8 with a norm_offset runs mode 3, the factor then norm_offset in steps. */
static inline int ldpc_rule_mode(const ldpc_opts* o)
{
    const int mode = ldpc_ms_mode(o->algorithm);
    return mode == 1 && ldpc_precision_fixed(o->precision) && o->norm_offset > 0.0f ? 3 : mode;
}
static inline float ldpc_rule_offset(const ldpc_opts* o)
{
    return ldpc_rule_mode(o) == 3 ? o->norm_offset * decoder_inv_step(o) : decoder_offset_steps(o);
}

#endif
