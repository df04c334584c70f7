/* gr-gpufec public C API: encoding on a GPU. A device encoder holds one code's encoding tables on
 * one GPU and turns frames of information bits into transmitted bits there, for simulators and
 * transmitters whose data live on the GPU (gpufec-sim's GPU chain uses it). Its output equals
 * gpufec_code_encode's bit for bit: the same bytes (0/1; a nonzero information byte is 1), frames
 * back to back, k bytes a frame in and n out (gpufec_code_info), the transmitted order with
 * puncturing, shortening and repetition applied.
 *
 * A family with a device encoder (gpufec_device_encoder_variant says which runs; docs/codes.md
 * lists them) encodes every code it can within its bounds; other codes are refused with
 * GPUFEC_ERR_UNSUPPORTED and the reason. */
#ifndef GPUFEC_ENCODER_H
#define GPUFEC_ENCODER_H

#include "code.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct gpufec_device_encoder gpufec_device_encoder;

/* The encoder of `code` on CUDA device `device`. It copies what it needs: the code may be destroyed
 * after. GPUFEC_ERR_NO_DEVICE without a CUDA build or a usable GPU; GPUFEC_ERR_UNSUPPORTED for a
 * code without a device encoder (diag says why). */
GPUFEC_API gpufec_status gpufec_device_encoder_create(gpufec_device_encoder** out, const gpufec_code* code, int device,
                                                      gpufec_diag* diag);
GPUFEC_API void gpufec_device_encoder_destroy(gpufec_device_encoder* enc);

/* info (n_frames * k bytes) and out (n_frames * n bytes) in device memory: the work is queued on
 * `cuda_stream` (a cudaStream_t; NULL: the default stream) and the call returns without waiting. */
GPUFEC_API gpufec_status gpufec_device_encoder_encode(gpufec_device_encoder* enc, const uint8_t* info, size_t n_frames,
                                                      uint8_t* out, void* cuda_stream);
/* The same with info and out in host memory: copied over and back; returns when out is written. */
GPUFEC_API gpufec_status gpufec_device_encoder_encode_host(gpufec_device_encoder* enc, const uint8_t* info,
                                                           size_t n_frames, uint8_t* out);
/* Which encoder runs, e.g. "cuda ldpc staircase", "cuda ldpc dense generator" (VOLK's habit).
 * name receives at most length bytes, NUL-terminated. */
GPUFEC_API gpufec_status gpufec_device_encoder_variant(const gpufec_device_encoder* enc, char* name, size_t length);

#ifdef __cplusplus
}
#endif

#endif
