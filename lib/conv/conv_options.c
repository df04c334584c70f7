/* The convolutional family's decoder options. They live in gpufec_decoder_opts.family_options
 * (slot CONV_OPTS_SLOT), reached by name only. */
#include "conv_code.h"
#include "conv_options.h"
#include "param_table.h"
#include "text_reader.h"

#include <assert.h>

static const char* const alg_names[] = {"viterbi"};
static const char* const alg_labels[] = {"Viterbi (soft decision)"};

static_assert(CONV_OPTS_SLOT * sizeof(uint64_t) + sizeof(conv_opts) <=
                  sizeof(((gpufec_decoder_opts*)0)->family_options),
              "conv_opts outside family_options");

static const param_desc PARAMS[] = {
    PARAM_ENUM_AT("conv_algorithm", FAMILY_OPTS_OFF(CONV_OPTS_SLOT, conv_opts, algorithm), alg_names, alg_labels,
                  "convolutional decoding algorithm (tail biting: max_iterations wrap-around passes)", ""),
};

const param_desc* conv_params(size_t* count)
{
    *count = (size_t)PARAM_COUNT(PARAMS);
    return PARAMS;
}

gpufec_status conv_check_opts(const gpufec_decoder_opts* o, const gpufec_code* code, gpufec_diag* diag)
{
    (void)o, (void)code, (void)diag; /* no rule across options: the table checks each value */
    return GPUFEC_OK;
}

void conv_default_opts(gpufec_decoder_opts* o)
{
    const conv_opts d = {CONV_VITERBI};
    FAMILY_OPTS_PUT(o, CONV_OPTS_SLOT, &d);
}

void conv_resolve_opts(gpufec_decoder_opts* o, const gpufec_code* code) { (void)o, (void)code; }
