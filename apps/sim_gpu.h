/* The simulator's chain on the GPU (issue 22): the information bits and channel values come from
 * the same counters and the same arithmetic as on the host (sim_frames_rules.h), the codewords from
 * the library's device encoder (gpufec_device_encoder), are decoded where they are, and only
 * per-frame error and iteration counts come back. With --host-encoder (or a code the device
 * cannot encode) the bits are made and encoded on the host and copied over (n + k bytes a frame, a
 * quarter of the soft values' size). */
#ifndef GPUFEC_SIM_GPU_H
#define GPUFEC_SIM_GPU_H

#include <gpufec/gpufec.h>

#include "sim_engine.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct sim_gpu sim_gpu;

/* Where a frame's bits are made: the all-zero codeword (none), on the host, or on the device. */
enum { SIM_FRAMES_ALL_ZERO = 0, SIM_FRAMES_HOST = 1, SIM_FRAMES_DEVICE = 2 };

/* 0, or -1 with a reason (no CUDA in this build, no device, out of memory, no device encoder for
 * the code with SIM_FRAMES_DEVICE). */
int sim_gpu_create(sim_gpu** out, int device, const gpufec_code* code, size_t max_frames, int frames_on, char* why,
                   size_t why_len);
void sim_gpu_destroy(sim_gpu* g);
/* CUDA devices present (0 without CUDA). */
int sim_gpu_count(void);

/* Frames [first, first + count) of the point: their channel values on the device, decoded by dec
 * (a CUDA-backend context: it reads and writes device memory), then each frame's bit errors and
 * iterations into the host arrays. info (count * k) and coded (count * n): the frames' bits, made
 * on the host (SIM_FRAMES_HOST); both NULL otherwise. */
gpufec_status sim_gpu_run(sim_gpu* g, gpufec_decoder* dec, const sim_point_job* job, uint64_t first, size_t count,
                          const uint8_t* info, const uint8_t* coded, int32_t* bit_errors, int32_t* iterations);

#ifdef __cplusplus
}
#endif

#endif
