/* The GF(q) LDPC family's decoder options: names, checks, AUTO choices. The schedule is the
 * option `schedule` that binary LDPC has too (flooding / layered / auto). */
#include "nb_code.h"
#include "param_table.h"
#include "text_reader.h"

static const char* const alg_names[] = {"fft-bp", "min-max"};
static const char* const alg_labels[] = {"FFT-BP (log-domain belief propagation)", "Min-max (forward-backward)"};

PARAM_NAMED_ENUM(gpufec_nb_algorithm, gpufec_nb_algorithm_name, nb_algorithm_from_name, alg_names)

static const param_desc PARAMS[] = {
    PARAM_ENUM("nb_algorithm", nb_algorithm, alg_names, alg_labels, "GF(q) LDPC decoding algorithm", ""),
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

void nb_default_opts(gpufec_decoder_opts* o) { o->nb_algorithm = GPUFEC_NB_MIN_MAX; }

/* AUTO: the seeds' schedules, layered min-max (seed 001) and flooding FFT-BP (seed 000). */
void nb_resolve_opts(gpufec_decoder_opts* o)
{
    if (o->schedule == GPUFEC_SCHEDULE_AUTO)
        o->schedule = o->nb_algorithm == GPUFEC_NB_MIN_MAX ? GPUFEC_SCHEDULE_LAYERED : GPUFEC_SCHEDULE_FLOODING;
}
