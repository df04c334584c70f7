#include "device_encoder.cuh"

extern "C" {
#include "code_internal.h"
#include "text_reader.h"
}

#include <stdlib.h>
#include <string.h>

gpufec_status denc_status(cudaError_t e)
{
    if (e == cudaSuccess)
        return GPUFEC_OK;
    (void)cudaGetLastError();
    return e == cudaErrorMemoryAllocation ? GPUFEC_ERR_DEVICE_OUT_OF_MEMORY : GPUFEC_ERR_DEVICE;
}

gpufec_status denc_start(dev_encoder_base* b, int device, uint32_t k, uint32_t n_out, gpufec_diag* diag)
{
    int count = 0;
    if (cudaGetDeviceCount(&count) != cudaSuccess || device >= count) {
        (void)cudaGetLastError();
        return text_fail_as(GPUFEC_ERR_NO_DEVICE, diag, 0, "device encoder: no CUDA device %d (%d present)", device,
                            count);
    }
    b->device = device;
    b->k = k;
    b->n_out = n_out;
    cudaError_t e = cudaSetDevice(device);
    if (e == cudaSuccess)
        e = cudaStreamCreateWithFlags(&b->stream, cudaStreamNonBlocking);
    if (e != cudaSuccess)
        return text_fail_as(denc_status(e), diag, 0, "device encoder: %s", cudaGetErrorString(e));
    return GPUFEC_OK;
}

cudaError_t denc_alloc(dev_encoder_base* b, void** p, size_t bytes)
{
    *p = NULL;
    if (b->n_allocs >= (int)(sizeof b->allocs / sizeof *b->allocs))
        return cudaErrorInvalidValue;
    cudaError_t e = cudaMalloc(p, bytes ? bytes : 1);
    if (e == cudaSuccess)
        b->allocs[b->n_allocs++] = *p;
    return e;
}

void denc_destroy(void* state)
{
    if (!state)
        return;
    denc_release((dev_encoder_base*)state);
    free(state);
}

cudaError_t denc_upload_tx_positions(dev_encoder_base* b, const gpufec_code* code, uint32_t** positions)
{
    const uint32_t n = code->tx.n_tx;
    uint32_t* src = (uint32_t*)malloc(((size_t)n + 1) * sizeof *src);
    if (!src)
        return cudaErrorMemoryAllocation;
    for (uint32_t i = 0; i < n; i++)
        src[i] = tx_map_position(&code->tx, i);
    const cudaError_t e = denc_upload(b, positions, src, n);
    free(src);
    return e;
}

void denc_release(dev_encoder_base* b)
{
    cudaSetDevice(b->device);
    for (int i = 0; i < b->n_allocs; i++)
        cudaFree(b->allocs[i]);
    b->n_allocs = 0;
    cudaFree(b->stage_in);
    cudaFree(b->stage_out);
    if (b->stream)
        cudaStreamDestroy(b->stream);
    b->stage_in = b->stage_out = NULL;
    b->stream = NULL;
}

gpufec_status denc_encode(void* state, const uint8_t* info, size_t n_frames, uint8_t* out, void* stream)
{
    dev_encoder_base* b = (dev_encoder_base*)state;
    cudaError_t e = cudaSetDevice(b->device);
    for (size_t f = 0; e == cudaSuccess && f < n_frames; f += b->chunk) {
        const size_t nf = n_frames - f < b->chunk ? n_frames - f : b->chunk;
        e = b->launch(b, info + f * b->k, nf, out + f * b->n_out, (cudaStream_t)stream);
        if (e == cudaSuccess)
            e = cudaGetLastError();
    }
    return denc_status(e);
}

gpufec_status denc_encode_host(void* state, const uint8_t* info, size_t n_frames, uint8_t* out)
{
    dev_encoder_base* b = (dev_encoder_base*)state;
    const size_t chunk = b->chunk < 4096 ? b->chunk : 4096;
    cudaError_t e = cudaSetDevice(b->device);
    if (e == cudaSuccess && !b->stage_in) {
        e = cudaMalloc(&b->stage_in, chunk * b->k + 1);
        if (e == cudaSuccess)
            e = cudaMalloc(&b->stage_out, chunk * b->n_out + 1);
    }
    for (size_t f = 0; e == cudaSuccess && f < n_frames; f += chunk) {
        const size_t nf = n_frames - f < chunk ? n_frames - f : chunk;
        e = cudaMemcpyAsync(b->stage_in, info + f * b->k, nf * b->k, cudaMemcpyHostToDevice, b->stream);
        if (e == cudaSuccess)
            e = b->launch(b, b->stage_in, nf, b->stage_out, b->stream);
        if (e == cudaSuccess)
            e = cudaGetLastError();
        if (e == cudaSuccess)
            e = cudaMemcpyAsync(out + f * b->n_out, b->stage_out, nf * b->n_out, cudaMemcpyDeviceToHost, b->stream);
        if (e == cudaSuccess)
            e = cudaStreamSynchronize(b->stream);
    }
    return denc_status(e);
}
