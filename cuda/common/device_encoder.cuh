/* What the device encoders (gpufec_device_encoder_*) share: the device and a stream, their tables'
 * allocations (freed together), staging buffers for encode_host, and the chunking of a call into
 * launches of at most `chunk` frames.
 * A family's encoder state starts with a dev_encoder_base and supplies `launch`. */
#ifndef GPUFEC_CUDA_DEVICE_ENCODER_CUH
#define GPUFEC_CUDA_DEVICE_ENCODER_CUH

#include <cuda_runtime.h>

#include "shared_limit.cuh"

extern "C" {
#include "device_encoder_internal.h"
}

struct dev_encoder_base {
    int device;
    uint32_t k, n_out;          /* bytes a frame in and out */
    size_t chunk;               /* frames a launch takes */
    cudaStream_t stream;        /* encode_host's */
    uint8_t *stage_in, *stage_out;
    void* allocs[12];
    int n_allocs;
    /* Queues the encoding of nf <= chunk frames (device pointers) on stream. */
    cudaError_t (*launch)(dev_encoder_base* b, const uint8_t* info, size_t nf, uint8_t* out, cudaStream_t stream);
};

/* The CUDA error as a status (the sticky state cleared where it can be). */
gpufec_status denc_status(cudaError_t e);
/* Checks the device, selects it, makes the stream. GPUFEC_ERR_NO_DEVICE with a reason. */
gpufec_status denc_start(dev_encoder_base* b, int device, uint32_t k, uint32_t n_out, gpufec_diag* diag);
/* A device allocation freed with the encoder (at most 12). */
cudaError_t denc_alloc(dev_encoder_base* b, void** p, size_t bytes);
template <typename T> cudaError_t denc_upload(dev_encoder_base* b, T** p, const T* src, size_t count)
{
    cudaError_t e = denc_alloc(b, (void**)p, (count ? count : 1) * sizeof(T));
    return e != cudaSuccess || !count ? e : cudaMemcpy(*p, src, count * sizeof(T), cudaMemcpyHostToDevice);
}
/* Frees what denc_start and denc_alloc made (not the state itself). */
void denc_release(dev_encoder_base* b);
/* destroy of a state that begins with its dev_encoder_base and was allocated with calloc. */
void denc_destroy(void* state);
/* The mother position of each transmitted bit, in order (n_tx of them), uploaded (freed with the
 * encoder): where most encoders gather their output from. */
cudaError_t denc_upload_tx_positions(dev_encoder_base* b, const gpufec_code* code, uint32_t** positions);

/* The device_encoder_ops entries every encoder shares (state = a dev_encoder_base*). */
gpufec_status denc_encode(void* state, const uint8_t* info, size_t n_frames, uint8_t* out, void* stream);
gpufec_status denc_encode_host(void* state, const uint8_t* info, size_t n_frames, uint8_t* out);

#endif
