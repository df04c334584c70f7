/* The GF(q) LDPC family's decoder options: names, checks, AUTO choices. The schedule is the
 * option `schedule` that binary LDPC has too (flooding / layered / auto). */
#include <assert.h>

#include "nb_code.h"
#include "nb_options.h"
#include "param_table.h"
#include "text_reader.h"

static const char* const alg_names[] = {"fft-bp", "min-max"};
static const char* const alg_labels[] = {"FFT-BP (log-domain belief propagation)", "Min-max (forward-backward)"};

PARAM_NAMED_ENUM(gpufec_nb_algorithm, gpufec_nb_algorithm_name, nb_algorithm_from_name, alg_names)

static_assert((NB_OPTS_SLOT * sizeof(uint64_t) + sizeof(nb_opts)) <= sizeof(((gpufec_decoder_opts*)0)->family_options),
              "nb_opts outside family_options");

static const param_desc PARAMS[] = {
    PARAM_ENUM_AT("nb_algorithm", FAMILY_OPTS_OFF(NB_OPTS_SLOT, nb_opts, nb_algorithm), alg_names, alg_labels,
                  "GF(q) LDPC decoding algorithm", ""),
};

const param_desc* nb_params(size_t* count)
{
    *count = (size_t)PARAM_COUNT(PARAMS);
    return PARAMS;
}

gpufec_status nb_check_opts(const gpufec_decoder_opts* o, const gpufec_code* code, gpufec_diag* diag)
{
    /* nb_algorithm's and the shared schedule's values are the option table's
     * (param_check_values); no rule across options yet */
    (void)o, (void)code, (void)diag;
    return GPUFEC_OK;
}

void nb_default_opts(gpufec_decoder_opts* o)
{
    const nb_opts d = {GPUFEC_NB_MIN_MAX};
    FAMILY_OPTS_PUT(o, NB_OPTS_SLOT, &d);
}

/* AUTO: the seeds' schedules, layered min-max (seed 001) and flooding FFT-BP (seed 000). */
void nb_resolve_opts(gpufec_decoder_opts* o, const gpufec_code* code)
{
    (void)code;
    if (o->schedule == GPUFEC_SCHEDULE_AUTO)
        o->schedule =
            nb_opts_of(o).nb_algorithm == GPUFEC_NB_MIN_MAX ? GPUFEC_SCHEDULE_LAYERED : GPUFEC_SCHEDULE_FLOODING;
}
