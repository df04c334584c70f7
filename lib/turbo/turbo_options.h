/* The LTE turbo family's decoder options, kept in gpufec_decoder_opts.family_options (words 1..4;
 * word 0 is another family's) and reached by name only from outside the family. */
#ifndef GPUFEC_TURBO_OPTIONS_H
#define GPUFEC_TURBO_OPTIONS_H

#include <gpufec/decoder.h>

#include <stdint.h>
#include <string.h>

#define TURBO_OPTS_SLOT 1

typedef struct {
    int32_t turbo_algorithm;  /* gpufec_turbo_algorithm, default MAX_LOG_MAP */
    float extrinsic_scale;    /* Max-Log-MAP extrinsic scaling of every half-iteration, default 0.75 */
    int32_t subblocks;        /* P: sub-blocks decoded in parallel per half-iteration, default 1 */
    int32_t guard;            /* gpufec_turbo_guard at sub-block edges, default PIVI */
    int32_t window;           /* g: training window of DSTW / PIVIDSTW, default 5 */
    int32_t turbo_arithmetic; /* gpufec_turbo_arithmetic, default FLOAT (the reference) */
    int32_t turbo_simd;       /* gpufec_turbo_simd of the fixed-point decoder, default AUTO */
} turbo_opts;

static inline turbo_opts turbo_opts_of(const gpufec_decoder_opts* o)
{
    turbo_opts t;
    memcpy(&t, o->family_options + TURBO_OPTS_SLOT, sizeof t);
    return t;
}

#endif
