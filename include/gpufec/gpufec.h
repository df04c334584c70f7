/* gr-gpufec: GPU/CPU decoders for LDPC codes. Umbrella header of the C API. */
#ifndef GPUFEC_GPUFEC_H
#define GPUFEC_GPUFEC_H
#include "common.h"
#include "code.h"
#include "decoder.h"
#endif
