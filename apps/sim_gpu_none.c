/* Builds without CUDA: the GPU chain is not there, and gpufec-sim keeps the host chain. */
#include "sim_gpu.h"

#include <stdio.h>

int sim_gpu_create(sim_gpu** out, int device, const gpufec_code* code, size_t max_frames, int frames_on, char* why,
                   size_t why_len)
{
    (void)device, (void)code, (void)max_frames, (void)frames_on;
    *out = NULL;
    snprintf(why, why_len, "this build has no CUDA");
    return -1;
}

void sim_gpu_destroy(sim_gpu* g) { (void)g; }

int sim_gpu_count(void) { return 0; }

gpufec_status sim_gpu_run(sim_gpu* g, gpufec_decoder* dec, const sim_point_job* job, uint64_t first, size_t count,
                          const uint8_t* info, const uint8_t* coded, int32_t* bit_errors, int32_t* iterations)
{
    (void)g, (void)dec, (void)job, (void)first, (void)count, (void)info, (void)coded, (void)bit_errors, (void)iterations;
    return GPUFEC_ERR_NO_DEVICE;
}
