/* The simulator's channel on the GPU (issue 22): the channel values come from the same counters
 * and the same arithmetic as on the host (sim_frames_rules.h), are decoded where they are, and only
 * per-frame error and iteration counts come back. With the all-zero codeword nothing else crosses
 * PCIe; random codewords are still encoded on the host (encoders on the device: next), and their
 * bits (n + k bytes a frame, a quarter of the soft values' size) are copied over. */
#ifndef GPUFEC_SIM_GPU_H
#define GPUFEC_SIM_GPU_H

#include <gpufec/gpufec.h>

#include "sim_engine.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct sim_gpu sim_gpu;

/* 0, or -1 with a reason (no CUDA in this build, no device, out of memory). */
int sim_gpu_create(sim_gpu** out, int device, uint32_t n, uint32_t k, size_t max_frames, int all_zero, char* why,
                   size_t why_len);
void sim_gpu_destroy(sim_gpu* g);
/* CUDA devices present (0 without CUDA). */
int sim_gpu_count(void);

/* Frames [first, first + count) of the point: their channel values on the device, decoded by dec
 * (a CUDA-backend context: it reads and writes device memory), then each frame's bit errors and
 * iterations into the host arrays. info (count * k) and coded (count * n): the frames' bits, made
 * on the host; both NULL for the all-zero codeword. */
gpufec_status sim_gpu_run(sim_gpu* g, gpufec_decoder* dec, const sim_point_job* job, uint64_t first, size_t count,
                          const uint8_t* info, const uint8_t* coded, int32_t* bit_errors, int32_t* iterations);

#ifdef __cplusplus
}
#endif

#endif
