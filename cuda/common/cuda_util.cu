/* Pinned host memory and the device's copy ceilings, for callers and gpufec-bench; kernels'
 * shared memory limits. */
#include "shared_limit.cuh"

#include <cuda_runtime.h>

#include <stddef.h>

extern "C" int cuda_util_host_alloc(void** p, size_t bytes)
{
    return cudaHostAlloc(p, bytes ? bytes : 1, cudaHostAllocDefault) == cudaSuccess ? 0 : -1;
}

/* 0 when p was page-locked by cuda_util_host_alloc and is now freed; -1: not ours (malloc'ed). */
extern "C" int cuda_util_host_free(void* p)
{
    cudaPointerAttributes attr;
    if (cudaPointerGetAttributes(&attr, p) != cudaSuccess || attr.type != cudaMemoryTypeHost) {
        cudaGetLastError();
        return -1;
    }
    return cudaFreeHost(p) == cudaSuccess ? 0 : -1;
}

/* Median of 5 timed copies each. d2d counts bytes read plus bytes written. */
extern "C" int cuda_util_bandwidth(int device, double* d2d_gbps, double* h2d_gbps)
{
    const size_t bytes = (size_t)512 << 20;
    void *a = NULL, *b = NULL, *h = NULL;
    cudaEvent_t e0, e1;
    if (cudaSetDevice(device) != cudaSuccess || cudaMalloc(&a, bytes) != cudaSuccess ||
        cudaMalloc(&b, bytes) != cudaSuccess || cudaHostAlloc(&h, bytes, cudaHostAllocDefault) != cudaSuccess) {
        cudaFree(a);
        cudaFree(b);
        cudaGetLastError();
        return -1;
    }
    cudaMemset(a, 1, bytes);
    cudaEventCreate(&e0);
    cudaEventCreate(&e1);
    float t_d2d[6], t_h2d[6];
    for (int r = 0; r < 6; r++) { /* first round is a warm-up */
        cudaEventRecord(e0);
        cudaMemcpy(b, a, bytes, cudaMemcpyDeviceToDevice);
        cudaEventRecord(e1);
        cudaEventSynchronize(e1);
        cudaEventElapsedTime(&t_d2d[r], e0, e1);
        cudaEventRecord(e0);
        cudaMemcpy(a, h, bytes, cudaMemcpyHostToDevice);
        cudaEventRecord(e1);
        cudaEventSynchronize(e1);
        cudaEventElapsedTime(&t_h2d[r], e0, e1);
    }
    for (int i = 1; i < 6; i++) /* sort rounds 1..5 */
        for (int j = i; j > 1 && t_d2d[j] < t_d2d[j - 1]; j--) {
            float t = t_d2d[j]; t_d2d[j] = t_d2d[j - 1]; t_d2d[j - 1] = t;
        }
    for (int i = 1; i < 6; i++)
        for (int j = i; j > 1 && t_h2d[j] < t_h2d[j - 1]; j--) {
            float t = t_h2d[j]; t_h2d[j] = t_h2d[j - 1]; t_h2d[j - 1] = t;
        }
    *d2d_gbps = 2.0 * (double)bytes / (t_d2d[3] * 1e-3) / 1e9;
    *h2d_gbps = (double)bytes / (t_h2d[3] * 1e-3) / 1e9;
    cudaEventDestroy(e0);
    cudaEventDestroy(e1);
    cudaFree(a);
    cudaFree(b);
    cudaFreeHost(h);
    return cudaGetLastError() == cudaSuccess ? 0 : -1;
}

cudaError_t cuda_allow_shared(const void* kernel, size_t bytes)
{
    cudaFuncAttributes fa;
    int device = 0, optin = 0;
    cudaError_t e = cudaFuncGetAttributes(&fa, kernel);
    if (e == cudaSuccess)
        e = cudaGetDevice(&device);
    if (e == cudaSuccess)
        e = cudaDeviceGetAttribute(&optin, cudaDevAttrMaxSharedMemoryPerBlockOptin, device);
    if (e != cudaSuccess)
        return e;
    const size_t most = (size_t)optin > fa.sharedSizeBytes ? (size_t)optin - fa.sharedSizeBytes : 0;
    if (bytes > most)
        return cudaErrorInvalidValue;
    return cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)most);
}
