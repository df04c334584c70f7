/* The convolutional family's options, in gpufec_decoder_opts.family_options. */
#ifndef GPUFEC_CONV_OPTIONS_H
#define GPUFEC_CONV_OPTIONS_H

#include <stdint.h>

#define CONV_OPTS_SLOT 0 /* words 0 .. 0 of family_options */

enum { CONV_VITERBI = 0 };

typedef struct {
    int32_t algorithm;
} conv_opts;

#endif
