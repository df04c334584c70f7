/* Soft bits in the narrower input types (gpufec_input_type), for the tools that feed decoders. */
#ifndef GPUFEC_APPS_SOFT_CONVERT_H
#define GPUFEC_APPS_SOFT_CONVERT_H

#include <gpufec/gpufec.h>

/* Bytes of one soft bit of type t. */
size_t soft_bytes(gpufec_input_type t);

/* out[i] = llr[i] in type t: int8 rounds llr / int8_scale to the nearest integer, saturating at
 * +-127 (NaN -> 0); float16 rounds to nearest even, saturating at +-65504 (NaN stays NaN). */
void soft_from_float(const float* llr, size_t count, gpufec_input_type t, float int8_scale, void* out);

#endif
