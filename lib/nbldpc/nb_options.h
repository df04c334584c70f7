/* The GF(q) LDPC family's decoder options, in gpufec_decoder_opts.family_options (word 5), reached
 * by name only from outside the family; its decoders also read LDPC's `schedule`. */
#ifndef GPUFEC_NB_OPTIONS_H
#define GPUFEC_NB_OPTIONS_H

#include <gpufec/decoder.h>

#include <stdint.h>
#include <string.h>

#define NB_OPTS_SLOT 5

typedef struct {
    int32_t nb_algorithm; /* gpufec_nb_algorithm, default MIN_MAX */
} nb_opts;

static inline nb_opts nb_opts_of(const gpufec_decoder_opts* o)
{
    nb_opts t;
    memcpy(&t, o->family_options + NB_OPTS_SLOT, sizeof t);
    return t;
}

#endif
