/* The LTE turbo family's decoder options: names, checks, AUTO choices. */
#include <assert.h>

#include "turbo_code.h"
#include "turbo_options.h"
#include "param_table.h"
#include "text_reader.h"

static const char* const alg_names[] = {"maxlogmap", "logmap"};
static const char* const alg_labels[] = {"Max-Log-MAP (scaled extrinsic)", "Log-MAP"};
static const char* const guard_names[] = {"none", "pivi", "dstw", "pividstw"};
static const char* const guard_labels[] = {"None (equal metrics)", "PIVI (previous iteration)",
                                           "DSTW (training windows)", "PIVI + DSTW"};

PARAM_NAMED_ENUM(gpufec_turbo_algorithm, gpufec_turbo_algorithm_name, turbo_algorithm_from_name, alg_names)
static const char* const arith_names[] = {"float", "int16", "int8", "auto"};
static const char* const arith_labels[] = {"Float (reference, any P)", "Int16 (CPU SIMD, P = 1)",
                                           "Int8 (CPU SIMD, P = 1)", "Auto (GPU float, CPU int16 where it applies)"};

PARAM_NAMED_ENUM(gpufec_turbo_guard, gpufec_turbo_guard_name, turbo_guard_from_name, guard_names)
static const char* const simd_names[] = {"auto", "avx2", "avx512"};
static const char* const simd_labels[] = {"Auto (widest present)", "AVX2", "AVX-512BW"};

PARAM_NAMED_ENUM(gpufec_turbo_arithmetic, gpufec_turbo_arithmetic_name, turbo_arithmetic_from_name, arith_names)
PARAM_NAMED_ENUM(gpufec_turbo_simd, gpufec_turbo_simd_name, turbo_simd_from_name, simd_names)

#define TOFF(field) FAMILY_OPTS_OFF(TURBO_OPTS_SLOT, turbo_opts, field)
static_assert((TURBO_OPTS_SLOT * sizeof(uint64_t) + sizeof(turbo_opts)) <= sizeof(((gpufec_decoder_opts*)0)->family_options),
              "turbo_opts outside family_options");

static const param_desc PARAMS[] = {
    PARAM_ENUM_AT("turbo_algorithm", TOFF(turbo_algorithm), alg_names, alg_labels, "turbo decoding algorithm", ""),
    PARAM_NUM_AT("extrinsic_scale", P_FLOAT, TOFF(extrinsic_scale), 1e-6, 1, "Max-Log-MAP extrinsic scaling, every half-iteration",
              "turbo_algorithm=maxlogmap"),
    PARAM_NUM_AT("subblocks", P_INT, TOFF(subblocks), 1, 6144, "sub-blocks per half-iteration (P; 1: exact BCJR)", ""),
    PARAM_ENUM_AT("guard", TOFF(guard), guard_names, guard_labels, "sub-block edge metrics (P > 1)", ""),
    PARAM_NUM_AT("window", P_INT, TOFF(window), 1, 6144, "training window of dstw / pividstw (g stages)",
              "guard=dstw|pividstw"),
    PARAM_ENUM_AT("arithmetic", TOFF(turbo_arithmetic), arith_names, arith_labels,
               "arithmetic; float: the reference, int16 / int8: fixed-point CPU SIMD (Max-Log-MAP, P = 1)", ""),
    PARAM_ENUM_AT("simd", TOFF(turbo_simd), simd_names, simd_labels, "vector instructions of the fixed-point decoder",
               "arithmetic=int16|int8|auto"),
};

const param_desc* turbo_params(size_t* count)
{
    *count = (size_t)PARAM_COUNT(PARAMS);
    return PARAMS;
}

#define OPT_FAIL(...) text_fail_as(GPUFEC_ERR_INVALID_ARGUMENT, diag, 0, __VA_ARGS__)

gpufec_status turbo_check_opts(const gpufec_decoder_opts* opts, const gpufec_code* code, gpufec_diag* diag)
{
    const turbo_opts t = turbo_opts_of(opts), *o = &t;
    /* Each value's range is the option table's (param_check_values, run first); here the rules
     * across options and the code. */
    if (code) { /* limits that depend on K: nothing is clamped silently */
        const uint32_t K = turbo_of(code)->K, w = (K + (uint32_t)o->subblocks - 1) / (uint32_t)o->subblocks;
        if ((uint32_t)o->subblocks > K)
            return OPT_FAIL("subblocks=%d: more sub-blocks than the K=%u stages of this code", o->subblocks, K);
        if ((o->guard == GPUFEC_TURBO_GUARD_DSTW || o->guard == GPUFEC_TURBO_GUARD_PIVIDSTW) && o->subblocks > 1 &&
            (uint32_t)o->window > w)
            return OPT_FAIL("window=%d: longer than a sub-block (%u stages: K=%u in %d sub-blocks)", o->window, w, K,
                            o->subblocks);
    }
    const int fixed = o->turbo_arithmetic == GPUFEC_TURBO_INT16 || o->turbo_arithmetic == GPUFEC_TURBO_INT8;
    if (fixed && o->turbo_algorithm != GPUFEC_TURBO_MAX_LOG_MAP)
        return text_fail_as(GPUFEC_ERR_UNSUPPORTED, diag, 0, "arithmetic=%s: fixed point is Max-Log-MAP only",
                            gpufec_turbo_arithmetic_name((gpufec_turbo_arithmetic)o->turbo_arithmetic));
    if (fixed && o->subblocks != 1)
        return text_fail_as(GPUFEC_ERR_UNSUPPORTED, diag, 0,
                            "arithmetic=%s with subblocks=%d: the fixed-point decoder runs the exact BCJR (P = 1); "
                            "sub-blocks only matter for the float decoder's GPU equivalence",
                            gpufec_turbo_arithmetic_name((gpufec_turbo_arithmetic)o->turbo_arithmetic), o->subblocks);
    return GPUFEC_OK;
}

void turbo_default_opts(gpufec_decoder_opts* o)
{
    const turbo_opts d = {GPUFEC_TURBO_MAX_LOG_MAP, 0.75f, 1, GPUFEC_TURBO_GUARD_PIVI, 5, GPUFEC_TURBO_FLOAT,
                          GPUFEC_TURBO_SIMD_AUTO};
    FAMILY_OPTS_PUT(o, TURBO_OPTS_SLOT, &d);
}

void turbo_resolve_opts(gpufec_decoder_opts* o, const gpufec_code* code) { (void)o, (void)code; }
