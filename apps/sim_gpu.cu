/* Built with -fmad=false (apps/CMakeLists.txt): the channel values must be bit for bit those of
 * the host (sim_random.h). */
#include "sim_gpu.h"

#include "sim_frames_rules.h"

#include <cuda_runtime.h>

#include <stdio.h>
#include <stdlib.h>

struct sim_gpu {
    int device;
    uint32_t n, k;
    size_t cap;
    float* llr;
    uint8_t *out, *info, *coded; /* info, coded: random codewords' bits (NULL with the all-zero one) */
    int32_t *iters, *errors;
    cudaStream_t stream;
    gpufec_device_encoder* encoder; /* random codewords made on the device (NULL: on the host) */
};

/* A thread per block of 128 information bits of every frame (sim_info_block). */
__global__ void k_info(sim_key key, uint64_t first, uint32_t frames, uint32_t k, uint8_t* info)
{
    const uint32_t per_frame = (k + 127) / 128;
    const uint64_t t = (uint64_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (t >= (uint64_t)frames * per_frame)
        return;
    const uint32_t f = (uint32_t)(t / per_frame), j = (uint32_t)(t % per_frame);
    sim_info_block(key, first + f, j, k, info + (size_t)f * k);
}

/* A thread per block of four coded bits (BPSK, BSC, BEC) or per QAM symbol, of every frame. */
__global__ void k_channel(sim_point_job job, uint64_t first, uint32_t frames, uint32_t n, uint32_t per_frame,
                          double sigma, uint64_t threshold, float mag, const uint8_t* coded, float* llr)
{
    const uint64_t t = (uint64_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (t >= (uint64_t)frames * per_frame)
        return;
    const uint32_t f = (uint32_t)(t / per_frame), j = (uint32_t)(t % per_frame);
    float* x = llr + (size_t)f * n;
    const uint8_t* c = coded ? coded + (size_t)f * n : NULL;
    if (job.channel == SIM_BSC)
        sim_binary_block(job.key, first + f, j, c, n, threshold, mag, 0, x);
    else if (job.channel == SIM_BEC)
        sim_binary_block(job.key, first + f, j, c, n, threshold, SIM_BEC_LLR, 1, x);
    else if (job.bits_per_symbol > 1)
        sim_qam_symbol(job.key, first + f, j, c, n, job.bits_per_symbol, sigma, job.sigma2, x);
    else
        sim_bpsk_block(job.key, first + f, j, c, n, sigma, job.sigma2, x);
}

/* A block per frame: its decided bits that differ from the bits sent (info; NULL: all zero). */
__global__ void k_count(const uint8_t* out, const uint8_t* info, uint32_t k, int32_t* errors)
{
    const uint8_t* o = out + (size_t)blockIdx.x * k;
    const uint8_t* u = info ? info + (size_t)blockIdx.x * k : NULL;
    int e = 0;
    for (uint32_t i = threadIdx.x; i < k; i += blockDim.x)
        e += o[i] != (u ? u[i] : 0);
    for (int s = 16; s > 0; s >>= 1)
        e += __shfl_down_sync(0xffffffffu, e, s);
    __shared__ int warp_sum[32];
    if ((threadIdx.x & 31) == 0)
        warp_sum[threadIdx.x >> 5] = e;
    __syncthreads();
    if (threadIdx.x == 0) {
        int total = 0;
        for (unsigned w = 0; w < blockDim.x / 32; w++)
            total += warp_sum[w];
        errors[blockIdx.x] = total;
    }
}

extern "C" int sim_gpu_create(sim_gpu** out, int device, const gpufec_code* code, size_t max_frames, int frames_on,
                              char* why, size_t why_len)
{
    gpufec_code_info ci;
    gpufec_code_get_info(code, &ci);
    const uint32_t n = ci.n, k = ci.k;
    const int all_zero = frames_on == SIM_FRAMES_ALL_ZERO;
    *out = NULL;
    cudaError_t e = cudaSetDevice(device);
    sim_gpu* g = (sim_gpu*)calloc(1, sizeof *g);
    if (e == cudaSuccess && g) {
        g->device = device;
        g->n = n;
        g->k = k;
        g->cap = max_frames;
        e = cudaMalloc(&g->llr, max_frames * n * sizeof(float));
        if (e == cudaSuccess)
            e = cudaMalloc(&g->out, max_frames * k);
        if (e == cudaSuccess)
            e = cudaMalloc(&g->iters, max_frames * sizeof(int32_t));
        if (e == cudaSuccess)
            e = cudaMalloc(&g->errors, max_frames * sizeof(int32_t));
        if (e == cudaSuccess && !all_zero)
            e = cudaMalloc(&g->info, max_frames * k);
        if (e == cudaSuccess && !all_zero)
            e = cudaMalloc(&g->coded, max_frames * n);
        if (e == cudaSuccess)
            e = cudaStreamCreateWithFlags(&g->stream, cudaStreamNonBlocking);
        gpufec_diag d = {0, ""};
        if (e == cudaSuccess && frames_on == SIM_FRAMES_DEVICE &&
            gpufec_device_encoder_create(&g->encoder, code, device, &d) != GPUFEC_OK) {
            snprintf(why, why_len, "%s", d.message);
            sim_gpu_destroy(g);
            return -1;
        }
    }
    if (!g || e != cudaSuccess) {
        snprintf(why, why_len, "%s", g ? cudaGetErrorString(e) : "out of memory");
        sim_gpu_destroy(g);
        return -1;
    }
    *out = g;
    return 0;
}

extern "C" int sim_gpu_count(void)
{
    int n = 0;
    return cudaGetDeviceCount(&n) == cudaSuccess ? n : 0;
}

extern "C" void sim_gpu_destroy(sim_gpu* g)
{
    if (!g)
        return;
    cudaFree(g->llr);
    cudaFree(g->out);
    cudaFree(g->iters);
    cudaFree(g->errors);
    cudaFree(g->info);
    cudaFree(g->coded);
    if (g->stream)
        cudaStreamDestroy(g->stream);
    gpufec_device_encoder_destroy(g->encoder);
    free(g);
}

extern "C" gpufec_status sim_gpu_run(sim_gpu* g, gpufec_decoder* dec, const sim_point_job* job, uint64_t first,
                                     size_t count, const uint8_t* info, const uint8_t* coded, int32_t* bit_errors,
                                     int32_t* iterations)
{
    if (count > g->cap || (!info) != (!coded) || (info && (!g->info || g->encoder)))
        return GPUFEC_ERR_INVALID_ARGUMENT;
    if (cudaSetDevice(g->device) != cudaSuccess) /* the calling thread may be new (one set per point) */
        return GPUFEC_ERR_DEVICE;
    const uint32_t n = g->n;
    const uint32_t per_frame = job->channel == SIM_AWGN && job->bits_per_symbol > 1
                                   ? (n + (uint32_t)job->bits_per_symbol - 1) / (uint32_t)job->bits_per_symbol
                                   : (n + 3) / 4;
    const uint64_t threads = (uint64_t)count * per_frame;
    if (info && (cudaMemcpyAsync(g->info, info, count * g->k, cudaMemcpyHostToDevice, g->stream) != cudaSuccess ||
                 cudaMemcpyAsync(g->coded, coded, count * n, cudaMemcpyHostToDevice, g->stream) != cudaSuccess))
        return GPUFEC_ERR_DEVICE;
    if (g->encoder) { /* the frames' bits from their counters, encoded where they are */
        const uint64_t blocks = (uint64_t)count * ((g->k + 127) / 128);
        k_info<<<(unsigned)((blocks + 127) / 128), 128, 0, g->stream>>>(job->key, first, (uint32_t)count, g->k, g->info);
        if (cudaGetLastError() != cudaSuccess)
            return GPUFEC_ERR_DEVICE;
        gpufec_status st = gpufec_device_encoder_encode(g->encoder, g->info, count, g->coded, g->stream);
        if (st)
            return st;
    }
    const uint8_t* sent = g->encoder || info ? g->coded : NULL;
    const uint8_t* sent_info = g->encoder || info ? g->info : NULL;
    /* threshold and magnitude from the host's functions, as the host chain takes them */
    const float mag = job->channel == SIM_BSC ? (float)log((1.0 - job->x) / job->x) : 0.0f;
    k_channel<<<(unsigned)((threads + 255) / 256), 256, 0, g->stream>>>(
        *job, first, (uint32_t)count, n, per_frame, sqrt(job->sigma2),
        job->channel == SIM_AWGN ? 0 : sim_threshold(job->x), mag, sent, g->llr);
    if (cudaStreamSynchronize(g->stream) != cudaSuccess || cudaGetLastError() != cudaSuccess)
        return GPUFEC_ERR_DEVICE;
    /* The decoder reads and writes device memory (its copies are cudaMemcpyDefault). */
    gpufec_status st = gpufec_decoder_decode(dec, g->llr, count, g->out, g->iters, NULL);
    if (st)
        return st;
    k_count<<<(unsigned)count, 128, 0, g->stream>>>(g->out, sent_info, g->k, g->errors);
    if (cudaMemcpyAsync(bit_errors, g->errors, count * sizeof(int32_t), cudaMemcpyDeviceToHost, g->stream) !=
            cudaSuccess ||
        cudaMemcpyAsync(iterations, g->iters, count * sizeof(int32_t), cudaMemcpyDeviceToHost, g->stream) !=
            cudaSuccess ||
        cudaStreamSynchronize(g->stream) != cudaSuccess)
        return GPUFEC_ERR_DEVICE;
    return GPUFEC_OK;
}
