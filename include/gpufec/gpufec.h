/* gr-gpufec: GPU/CPU decoders for binary LDPC, LTE turbo, GF(q) LDPC and convolutional codes.
 * Umbrella header of the C API. */
#ifndef GPUFEC_GPUFEC_H
#define GPUFEC_GPUFEC_H
#include "common.h"
#include "code.h"
#include "decoder.h"
#include "ldpc.h"
#include "encoder.h"
#include "turbo.h"
#include "nbldpc.h"
#include "conv.h"
#include "nr5g.h"
#endif
