/* The binary LDPC family's decoder options: their names (the one list of algorithm, schedule and
 * precision names), the checks with messages, and the AUTO choices. */
#include "ldpc_code.h"
#include "ldpc_options.h"
#include "param_table.h"

#include <assert.h>

#include <stdio.h>

static const char* const alg_names[] = {"spa", "ms", "nms", "oms", "gallager-a", "gallager-b", "pgab"};
static const char* const alg_labels[] = {"Sum-product (tanh)", "Min-sum", "Normalised min-sum",
                                         "Offset min-sum", "Gallager-A (hard)", "Gallager-B (hard)",
                                         "Probabilistic Gallager-B (hard)"};
static const char* const schedule_names[] = {"auto", "flooding", "layered"};
static const char* const schedule_labels[] = {"Auto (layered where available)", "Flooding", "Layered"};
static const char* const precision_names[] = {"float32", "float16", "int8", "int8p16"};
static const char* const precision_labels[] = {"Float32", "Float16", "Int8 (fixed point)",
                                               "Int8 messages, 16-bit posteriors (fixed point)"};

PARAM_NAMED_ENUM(gpufec_algorithm, gpufec_algorithm_name, gpufec_algorithm_from_name, alg_names)
PARAM_NAMED_ENUM(gpufec_schedule, gpufec_schedule_name, gpufec_schedule_from_name, schedule_names)
PARAM_NAMED_ENUM(gpufec_precision, gpufec_precision_name, gpufec_precision_from_name, precision_names)

#define LOFF(field) FAMILY_OPTS_OFF(LDPC_OPTS_SLOT, ldpc_opts, field)
static_assert((LDPC_OPTS_SLOT * sizeof(uint64_t) + sizeof(ldpc_opts)) <= sizeof(((gpufec_decoder_opts*)0)->family_options),
              "ldpc_opts outside family_options");
static_assert(sizeof(gpufec_algorithm) == sizeof(int) && sizeof(gpufec_precision) == sizeof(int),
              "enum options are set as int");
/* the rules take the public precision as their own code (ldpc_precision_fixed, (int)precision) */
static_assert(GPUFEC_PRECISION_FLOAT32 == LDPC_PREC_F32 && GPUFEC_PRECISION_FLOAT16 == LDPC_PREC_F16 &&
                  GPUFEC_PRECISION_INT8 == LDPC_PREC_I8 && GPUFEC_PRECISION_INT8_P16 == LDPC_PREC_I8P16,
              "rule precision codes are the enum's values");

static const param_desc PARAMS[] = {
    PARAM_ENUM_AT("algorithm", LOFF(algorithm), alg_names, alg_labels, "decoding algorithm", ""),
    PARAM_ENUM("schedule", schedule, schedule_names, schedule_labels,
               "message schedule (hard-decision: flooding)", "algorithm=spa|ms|nms|oms"),
    PARAM_NUM_AT("norm", P_FLOAT, LOFF(normalization), 0, 1,
                 "normalised min-sum factor, in (0, 1]; 0: by code and rate (docs/codes.md)", "algorithm=nms"),
    PARAM_NUM_AT("offset", P_FLOAT, LOFF(offset), 0, 999.999, "offset min-sum offset", "algorithm=oms"),
    PARAM_NUM_AT("syndrome_interval", P_INT, LOFF(syndrome_interval), 1, 10000,
                 "test the syndrome every this many iterations", ""),
    PARAM_NUM_AT("pgab_p", P_FLOAT, LOFF(pgab_p), 0, 1, "PGaB: probability that a perturbed channel vote is inverted",
                 "algorithm=pgab"),
    PARAM_NUM_AT("pgab_start", P_INT, LOFF(pgab_start), 1, 10000, "PGaB: first perturbed iteration", "algorithm=pgab"),
    PARAM_NUM_AT("seed", P_U64, LOFF(seed), 0, 18446744073709551615.0, "PGaB random source", "algorithm=pgab"),
    PARAM_NUM_AT("cpu_simd", P_INT, LOFF(cpu_simd), 0, 2, "CPU vector path where it applies (0 off, 1 widest, 2 AVX2 only)",
                 "backend=auto|cpu"),
    PARAM_ENUM_AT("precision", LOFF(precision), precision_names, precision_labels,
                  "message storage (reduced: min-sum family, layered)", "algorithm=ms|nms|oms&schedule=auto|layered"),
    PARAM_NUM_AT("quant_step", P_FLOAT, LOFF(quant_step), 0, 1e3,
                 "int8 storage: LLR of one step, 1e-3..1e3; 0: the default, 0.25", "precision=int8|int8p16"),
    PARAM_NUM_AT("norm_offset", P_FLOAT, LOFF(norm_offset), -1, 999.999,
                 "int8 normalised min-sum: LLR subtracted after the factor (0: none); -1: by code and rate",
                 "algorithm=nms&precision=int8|int8p16"),
};

const param_desc* ldpc_params(size_t* count)
{
    *count = (size_t)PARAM_COUNT(PARAMS);
    return PARAMS;
}

#define OPT_FAIL(st, ...) text_fail_as((st), diag, 0, __VA_ARGS__)

gpufec_status ldpc_check_opts(const gpufec_decoder_opts* common, const gpufec_code* code, gpufec_diag* diag)
{
    const ldpc_opts l = ldpc_opts_of(common), *o = &l;
    /* Each value's range is the option table's (param_check_values, run first); here the rules
     * across options and the code. */
    const gpufec_status bad = GPUFEC_ERR_INVALID_ARGUMENT, unsupported = GPUFEC_ERR_UNSUPPORTED;
    if (o->norm_offset < 0.0f && o->norm_offset != -1.0f)
        return OPT_FAIL(bad, "norm_offset=%g: must be >= 0, or -1 (chosen by code and rate)", (double)o->norm_offset);
    if (o->quant_step != 0.0f && o->quant_step < 1e-3f)
        return OPT_FAIL(bad, "quant_step=%g: must be 1e-3..1e3, or 0 (chosen by code and rate)", (double)o->quant_step);
    const int hard = ldpc_is_hard(o->algorithm);
    if (hard && common->schedule == GPUFEC_SCHEDULE_LAYERED)
        return OPT_FAIL(unsupported, "schedule=layered: %s runs the flooding schedule only",
                        gpufec_algorithm_name(o->algorithm));
    /* Reduced precision is defined for the min-sum family's layered state; the hard-decision
     * decoders keep no soft state and ignore it. */
    if (o->precision != GPUFEC_PRECISION_FLOAT32 && !hard &&
        (o->algorithm == GPUFEC_ALG_SPA || common->schedule == GPUFEC_SCHEDULE_FLOODING))
        return OPT_FAIL(unsupported, "precision=%s: needs ms, nms or oms with the layered schedule (here %s, %s)",
                        gpufec_precision_name(o->precision), gpufec_algorithm_name(o->algorithm),
                        gpufec_schedule_name(common->schedule));
    /* A punctured position has no channel bit, and the hard-decision rules have no way to say
     * "unknown": it would enter as a confident 0 and fail most frames. */
    if (hard && code && code->tx.punctured)
        return OPT_FAIL(unsupported, "algorithm=%s: the code has %u punctured positions, which carry no "
                        "channel bit; hard-decision decoders need every position transmitted",
                        gpufec_algorithm_name(o->algorithm), code->tx.punctured);
    return GPUFEC_OK;
}

void ldpc_default_opts(gpufec_decoder_opts* common)
{
    ldpc_opts o = {0};
    o.algorithm = GPUFEC_ALG_NMS;
    o.normalization = 0.0f; /* by code and rate, ldpc_resolve_opts */
    o.offset = 0.5f;
    o.syndrome_interval = 1;
    o.pgab_p = 0.8f;
    o.pgab_start = 16;
    o.seed = 1;
    o.cpu_simd = 1;
    o.precision = GPUFEC_PRECISION_FLOAT32;
    o.quant_step = 0.0f;
    o.norm_offset = -1.0f; /* by code and rate */
    ldpc_opts_put(common, &o);
    common->schedule = GPUFEC_SCHEDULE_AUTO;
}

/* Hard-decision decoders are flooding only. AUTO picks layered, which every backend has for SPA
 * and the min-sum family: it converges in about half the iterations of flooding. */
/* The defaults by code and rate (benchmarks/nr_norm_sweep.sh, docs/codes.md): layered normalised
 * min-sum at 10 iterations on 5G NR lost 0.25 dB at 0.75 on BG1 at rate 1/3, where 0.625 (float)
 * and 0.6875 (int8) are best; BG2 and the higher rates want more. Other codes keep 0.75. */
static float default_normalization(const gpufec_code* code, gpufec_precision prec)
{
    const ldpc_code* c = code ? ldpc_of(code) : NULL;
    const float rate = code ? (float)code->k / (float)code->tx.n_tx : 0.5f;
    const int i8 = ldpc_precision_fixed(prec); /* int8p16: int8's messages */
    if (c && c->nr_bg == 1)
        return rate < 0.4f ? (i8 ? 0.6875f : 0.625f) : 0.6875f;
    if (c && c->nr_bg == 2) /* int8 below rate 0.4: with norm_offset, default_norm_offset */
        return rate < 0.4f && i8 ? 0.8125f : rate < 0.25f ? 0.6875f : 0.75f;
    return 0.75f;
}

/* The int8 step (quant_step 0) is 0.25 on every code. Under the old int8 rule (channel values up
 * to 127 steps) BG1 at rates 0.6 and above took 0.5, whose coarser range removed a floor near 1e-4;
 * with channel values clamped at 32 steps that floor is gone and 0.5 only costs waterfall: on the
 * H200 at 10 iterations, 200,000 frames a point, BG1 K=8448 at rates 0.6, 2/3, 0.79 and 0.89
 * lost 0.03-0.08 dB to float32 at FER 1e-2 with 0.5 and at most 0.02 dB with 0.25, neither with
 * a floor to 5e-6 (docs/codes.md, "Normalisation by code and rate"). */
#define LDPC_DEFAULT_QUANT_STEP 0.25f

/* NMS at int8 with an offset after the factor (ldpc_rule_mode). 5G NR BG2 below rate 0.4 at
 * int8 lost 0.11-0.13 dB to float32 at FER 1e-3 with the factor alone (0.6875); the factor
 * 0.8125 then half a step off gains 0.15-0.25 dB there and leaves int8 ahead of float32 at
 * rates 1/5 and 1/3 without a floor down to FER 1e-5 (benchmarks/nr_bg2_int8_offset.sh,
 * docs/codes.md). Rates 1/2 and above already matched float32 and stay without. */
static float default_norm_offset(const gpufec_code* code, gpufec_precision prec, float step)
{
    const ldpc_code* c = code ? ldpc_of(code) : NULL;
    const float rate = code ? (float)code->k / (float)code->tx.n_tx : 0.5f;
    return c && c->nr_bg == 2 && ldpc_precision_fixed(prec) && rate < 0.4f ? 0.5f * step : 0.0f;
}

void ldpc_resolve_opts(gpufec_decoder_opts* common, const gpufec_code* code)
{
    ldpc_opts o = ldpc_opts_of(common);
    if (o.normalization == 0.0f)
        o.normalization = default_normalization(code, o.precision);
    if (o.quant_step == 0.0f)
        o.quant_step = LDPC_DEFAULT_QUANT_STEP;
    if (o.norm_offset < 0.0f)
        o.norm_offset = default_norm_offset(code, o.precision, o.quant_step);
    ldpc_opts_put(common, &o);
    if (ldpc_is_hard(o.algorithm))
        common->schedule = GPUFEC_SCHEDULE_FLOODING;
    else if (common->schedule == GPUFEC_SCHEDULE_AUTO)
        common->schedule = GPUFEC_SCHEDULE_LAYERED;
}
