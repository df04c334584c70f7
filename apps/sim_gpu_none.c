/* Builds without CUDA: the GPU chain is not there, and gpufec-sim keeps the host chain. */
#include "sim_gpu.h"

#include <stdio.h>

int sim_gpu_create(sim_gpu** out, int device, uint32_t n, uint32_t k, size_t max_frames, int all_zero, char* why,
                   size_t why_len)
{
    (void)device, (void)n, (void)k, (void)max_frames, (void)all_zero;
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
