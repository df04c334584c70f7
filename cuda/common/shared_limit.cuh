/* A kernel's dynamic shared memory limit, raised once for the whole process. */
#ifndef GPUFEC_CUDA_SHARED_LIMIT_CUH
#define GPUFEC_CUDA_SHARED_LIMIT_CUH

#include <cuda_runtime.h>
#include <stddef.h>

/* Lets `kernel` launch on the current device with up to `bytes` of dynamic shared memory
 * (cudaErrorInvalidValue where the device cannot). The limit belongs to the function, not to a
 * decoder: set to one plan's size, a second context running the same kernel with fewer bytes
 * (another code, another turbo block size) would make the first one's launches fail. So it is
 * set to all the device allows, the same value whichever context sets it. */
cudaError_t cuda_allow_shared(const void* kernel, size_t bytes);

#endif
