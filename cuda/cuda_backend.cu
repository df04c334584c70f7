/* CUDA backend: flooding-schedule BP (SPA / MS / NMS / OMS) for any H.
 *
 * Layout: every per-variable and per-edge array is interleaved over the frames of a batch,
 * x[index * B + frame], so a warp handles 32 frames of the same check or variable and every
 * load is coalesced. Early termination runs on the device: a converged frame is marked inactive
 * and skipped by later launches, and the host synchronises once per batch, not per iteration. */
extern "C" {
#include "decoder_internal.h"
}
#include "ldpc_rules.h"

#include <cuda_runtime.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

namespace {

struct cuda_state {
    uint32_t B; /* frames per batch (capacity) */
    cudaStream_t stream;
    uint32_t *row_ptr, *edge_var, *col_ptr, *col_edge;
    int32_t* full_src; /* NULL: every position transmitted in order */
    float *in, *llr, *app, *c2v;
    uint8_t *out, *active, *conv, *synd;
    int32_t* iters;
};

__global__ void k_load(const float* __restrict__ in, const int32_t* __restrict__ full_src,
                       float* __restrict__ llr, float* __restrict__ app, uint8_t* active,
                       uint8_t* conv, int32_t* iters, uint32_t n, uint32_t n_tx, uint32_t B,
                       uint32_t nf)
{
    /* Reads frame-major transmitted input and writes the interleaved full-codeword layout:
     * punctured positions become erasures, filler bits certain zeros (as code_load_llr). */
    size_t idx = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (idx >= (size_t)n * nf)
        return;
    uint32_t f = (uint32_t)(idx / n), j = (uint32_t)(idx % n);
    int32_t src = full_src ? full_src[j] : (int32_t)j;
    float v = src >= 0 ? ldpc_sanitize_llr(in[(size_t)f * n_tx + (uint32_t)src])
                       : src == CODE_SRC_PUNCTURED ? 0.0f : GPUFEC_LLR_LIMIT;
    llr[(size_t)j * B + f] = v;
    app[(size_t)j * B + f] = v;
    if (j == 0) {
        active[f] = 1;
        conv[f] = 0;
        iters[f] = 0;
    }
}

__global__ void k_checks(const uint32_t* __restrict__ row_ptr, const uint32_t* __restrict__ edge_var,
                         const float* __restrict__ app, float* __restrict__ c2v,
                         const uint8_t* __restrict__ active, uint32_t m, uint32_t B, uint32_t nf,
                         int alg, float scale, float offset)
{
    uint32_t f = blockIdx.x * blockDim.x + threadIdx.x;
    uint32_t i = blockIdx.y;
    if (f >= nf || !active[f])
        return;
    const uint32_t b = row_ptr[i], e_end = row_ptr[i + 1];
    if (alg == GPUFEC_ALG_SPA) {
        spa_acc acc;
        spa_init(&acc);
        for (uint32_t e = b; e < e_end; e++)
            spa_push(&acc, spa_term(app[(size_t)edge_var[e] * B + f] - c2v[(size_t)e * B + f]));
        for (uint32_t e = b; e < e_end; e++) {
            float* msg = &c2v[(size_t)e * B + f];
            *msg = spa_output(&acc, spa_term(app[(size_t)edge_var[e] * B + f] - *msg));
        }
    } else {
        const int mode = alg == GPUFEC_ALG_NMS ? 1 : alg == GPUFEC_ALG_OMS ? 2 : 0;
        ms_acc acc;
        ms_init(&acc);
        for (uint32_t e = b; e < e_end; e++)
            ms_push(&acc, app[(size_t)edge_var[e] * B + f] - c2v[(size_t)e * B + f], e - b);
        for (uint32_t e = b; e < e_end; e++) {
            float* msg = &c2v[(size_t)e * B + f];
            float v = app[(size_t)edge_var[e] * B + f] - *msg;
            *msg = ms_output(&acc, v, e - b, mode, scale, offset);
        }
    }
}

__global__ void k_vars(const uint32_t* __restrict__ col_ptr, const uint32_t* __restrict__ col_edge,
                       const float* __restrict__ llr, const float* __restrict__ c2v,
                       float* __restrict__ app, const uint8_t* __restrict__ active, uint32_t B,
                       uint32_t nf)
{
    uint32_t f = blockIdx.x * blockDim.x + threadIdx.x;
    uint32_t j = blockIdx.y;
    if (f >= nf || !active[f])
        return;
    float sum = llr[(size_t)j * B + f];
    for (uint32_t t = col_ptr[j]; t < col_ptr[j + 1]; t++)
        sum += c2v[(size_t)col_edge[t] * B + f];
    app[(size_t)j * B + f] = sum;
}

__global__ void k_syndrome(const uint32_t* __restrict__ row_ptr, const uint32_t* __restrict__ edge_var,
                           const float* __restrict__ app, const uint8_t* __restrict__ active,
                           uint8_t* synd, uint32_t B, uint32_t nf)
{
    uint32_t f = blockIdx.x * blockDim.x + threadIdx.x;
    uint32_t i = blockIdx.y;
    if (f >= nf || !active[f])
        return;
    uint32_t parity = 0;
    for (uint32_t e = row_ptr[i]; e < row_ptr[i + 1]; e++)
        parity ^= ldpc_hard_bit(app[(size_t)edge_var[e] * B + f]);
    if (parity)
        synd[f] = 1; /* every writer stores the same value */
}

/* After an iteration: count it, retire converged frames (early termination) and clear the
 * syndrome flags for the next check. */
__global__ void k_retire(uint8_t* active, uint8_t* conv, uint8_t* synd, int32_t* iters,
                         uint32_t nf, int early, int last)
{
    uint32_t f = blockIdx.x * blockDim.x + threadIdx.x;
    if (f >= nf || !active[f])
        return;
    iters[f]++;
    if (early || last) {
        uint8_t ok = synd[f] == 0;
        conv[f] = ok;
        if (ok && early)
            active[f] = 0;
    }
    synd[f] = 0;
}

__global__ void k_store(const float* __restrict__ app, uint8_t* __restrict__ out, uint32_t n,
                        uint32_t B, uint32_t nf)
{
    size_t idx = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (idx >= (size_t)n * nf)
        return;
    uint32_t f = (uint32_t)(idx / n), j = (uint32_t)(idx % n);
    out[idx] = ldpc_hard_bit(app[(size_t)j * B + f]);
}

gpufec_status map_error(const gpufec_decoder* dec, cudaError_t err, const char* what)
{
    if (err == cudaSuccess)
        return GPUFEC_OK;
    decoder_log(dec, GPUFEC_LOG_ERROR, "CUDA %s failed: %s", what, cudaGetErrorString(err));
    (void)cudaGetLastError(); /* clear a non-sticky error so the context stays usable */
    return err == cudaErrorMemoryAllocation ? GPUFEC_ERR_DEVICE_OUT_OF_MEMORY : GPUFEC_ERR_DEVICE;
}

#define CU(call, what)                                                                          \
    do {                                                                                        \
        gpufec_status st_ = map_error(dec, (call), what);                                       \
        if (st_ != GPUFEC_OK)                                                                   \
            return st_;                                                                         \
    } while (0)

void free_state(cuda_state* s)
{
    if (!s)
        return;
    void* ptrs[] = {s->row_ptr, s->edge_var, s->col_ptr, s->col_edge, s->full_src, s->in, s->llr, s->app,
                    s->c2v, s->out, s->active, s->conv, s->synd, s->iters};
    for (void* p : ptrs)
        if (p)
            cudaFree(p);
    if (s->stream)
        cudaStreamDestroy(s->stream);
    free(s);
}

uint32_t choose_batch(const gpufec_code* c, uint32_t requested)
{
    if (requested)
        return requested;
    /* Fill the GPU: about 512 MiB of message storage, at least one warp, at most 8192 frames. */
    size_t per_frame = (size_t)4 * (c->edges + 3 * (size_t)c->n) + c->n + 16;
    size_t b = ((size_t)512 << 20) / per_frame;
    b = b < 32 ? 32 : b > 8192 ? 8192 : b;
    return (uint32_t)(b & ~(size_t)31);
}

template <typename T> cudaError_t dev_alloc(T** p, size_t count)
{
    return cudaMalloc((void**)p, (count ? count : 1) * sizeof(T));
}

gpufec_status cuda_create_impl(gpufec_decoder* dec, cuda_state* s)
{
    const gpufec_code* c = dec->code;
    CU(cudaSetDevice(dec->opts.device), "cudaSetDevice");
    CU(cudaStreamCreateWithFlags(&s->stream, cudaStreamNonBlocking), "cudaStreamCreate");
    const size_t B = s->B, n = c->n, m = c->m, E = c->edges;
    CU(dev_alloc(&s->row_ptr, m + 1), "cudaMalloc");
    CU(dev_alloc(&s->edge_var, E), "cudaMalloc");
    CU(dev_alloc(&s->col_ptr, n + 1), "cudaMalloc");
    CU(dev_alloc(&s->col_edge, E), "cudaMalloc");
    CU(dev_alloc(&s->in, n * B), "cudaMalloc");
    CU(dev_alloc(&s->llr, n * B), "cudaMalloc");
    CU(dev_alloc(&s->app, n * B), "cudaMalloc");
    CU(dev_alloc(&s->c2v, E * B), "cudaMalloc");
    CU(dev_alloc(&s->out, n * B), "cudaMalloc");
    CU(dev_alloc(&s->active, B), "cudaMalloc");
    CU(dev_alloc(&s->conv, B), "cudaMalloc");
    CU(dev_alloc(&s->synd, B), "cudaMalloc");
    CU(dev_alloc(&s->iters, B), "cudaMalloc");
    CU(cudaMemcpy(s->row_ptr, c->row_ptr, (m + 1) * 4, cudaMemcpyHostToDevice), "cudaMemcpy");
    CU(cudaMemcpy(s->edge_var, c->edge_var, E * 4, cudaMemcpyHostToDevice), "cudaMemcpy");
    CU(cudaMemcpy(s->col_ptr, c->col_ptr, (n + 1) * 4, cudaMemcpyHostToDevice), "cudaMemcpy");
    CU(cudaMemcpy(s->col_edge, c->col_edge, E * 4, cudaMemcpyHostToDevice), "cudaMemcpy");
    CU(cudaMemset(s->synd, 0, B), "cudaMemset");
    if (c->full_src) {
        CU(dev_alloc(&s->full_src, n), "cudaMalloc");
        CU(cudaMemcpy(s->full_src, c->full_src, n * 4, cudaMemcpyHostToDevice), "cudaMemcpy");
    }
    return GPUFEC_OK;
}

gpufec_status cuda_create(gpufec_decoder* dec)
{
    if (dec->opts.algorithm > GPUFEC_ALG_OMS || dec->opts.schedule != GPUFEC_SCHEDULE_FLOODING) {
        decoder_log(dec, GPUFEC_LOG_WARNING, "the CUDA backend has no %s %s decoder yet",
                    gpufec_schedule_name(dec->opts.schedule), gpufec_algorithm_name(dec->opts.algorithm));
        return GPUFEC_ERR_UNSUPPORTED;
    }
    cuda_state* s = (cuda_state*)calloc(1, sizeof *s);
    if (!s)
        return GPUFEC_ERR_OUT_OF_MEMORY;
    s->B = choose_batch(dec->code, dec->opts.max_batch);
    gpufec_status st = cuda_create_impl(dec, s);
    if (st != GPUFEC_OK) {
        free_state(s);
        return st;
    }
    dec->impl = s;
    dec->preferred_batch = s->B;
    decoder_log(dec, GPUFEC_LOG_INFO, "CUDA decoder on device %d, batch %u frames",
                dec->opts.device, s->B);
    return GPUFEC_OK;
}

void cuda_destroy(gpufec_decoder* dec)
{
    free_state((cuda_state*)dec->impl);
    dec->impl = NULL;
}

gpufec_status cuda_decode_batch(gpufec_decoder* dec, const float* llr, uint32_t nf, uint8_t* hard,
                                int32_t* iterations, uint8_t* converged)
{
    cuda_state* s = (cuda_state*)dec->impl;
    const gpufec_code* c = dec->code;
    const gpufec_decoder_opts* o = &dec->opts;
    const uint32_t n = c->n, B = s->B;
    const unsigned T = 128;
    const size_t total = (size_t)n * nf;
    const dim3 grid_f((nf + 63) / 64), blk_f(64);
    CU(cudaMemcpyAsync(s->in, llr, (size_t)c->n_tx * nf * sizeof(float), cudaMemcpyHostToDevice, s->stream), "copy in");
    k_load<<<(unsigned)((total + T - 1) / T), T, 0, s->stream>>>(s->in, s->full_src, s->llr, s->app,
                                                                  s->active, s->conv, s->iters, n,
                                                                  c->n_tx, B, nf);
    CU(cudaMemsetAsync(s->c2v, 0, (size_t)c->edges * B * sizeof(float), s->stream), "cudaMemset");
    for (int it = 0; it < o->max_iterations; it++) {
        const int last = it + 1 == o->max_iterations;
        k_checks<<<dim3(grid_f.x, c->m), blk_f, 0, s->stream>>>(
            s->row_ptr, s->edge_var, s->app, s->c2v, s->active, c->m, B, nf, (int)o->algorithm,
            o->normalization, o->offset);
        k_vars<<<dim3(grid_f.x, n), blk_f, 0, s->stream>>>(s->col_ptr, s->col_edge, s->llr, s->c2v,
                                                           s->app, s->active, B, nf);
        if (o->early_termination || last)
            k_syndrome<<<dim3(grid_f.x, c->m), blk_f, 0, s->stream>>>(s->row_ptr, s->edge_var,
                                                                      s->app, s->active, s->synd, B, nf);
        k_retire<<<grid_f, blk_f, 0, s->stream>>>(s->active, s->conv, s->synd, s->iters, nf,
                                                  o->early_termination, last);
    }
    CU(cudaGetLastError(), "kernel launch");
    k_store<<<(unsigned)((total + T - 1) / T), T, 0, s->stream>>>(s->app, s->out, n, B, nf);
    CU(cudaMemcpyAsync(hard, s->out, total, cudaMemcpyDeviceToHost, s->stream), "copy out");
    if (iterations)
        CU(cudaMemcpyAsync(iterations, s->iters, nf * sizeof(int32_t), cudaMemcpyDeviceToHost, s->stream), "copy out");
    if (converged)
        CU(cudaMemcpyAsync(converged, s->conv, nf, cudaMemcpyDeviceToHost, s->stream), "copy out");
    CU(cudaStreamSynchronize(s->stream), "decode");
    return GPUFEC_OK;
}

gpufec_status cuda_decode(gpufec_decoder* dec, const float* llr, size_t n_frames, uint8_t* hard,
                          int32_t* iterations, uint8_t* converged)
{
    cuda_state* s = (cuda_state*)dec->impl;
    const gpufec_code* c = dec->code;
    CU(cudaSetDevice(dec->opts.device), "cudaSetDevice");
    for (size_t f = 0; f < n_frames; f += s->B) {
        uint32_t nf = (uint32_t)(n_frames - f < s->B ? n_frames - f : s->B);
        gpufec_status st = cuda_decode_batch(dec, llr + f * c->n_tx, nf, hard + f * c->n,
                                             iterations ? iterations + f : NULL,
                                             converged ? converged + f : NULL);
        if (st != GPUFEC_OK)
            return st;
    }
    return GPUFEC_OK;
}

} // namespace

extern "C" int cuda_backend_probe(int device, char* why, size_t why_len)
{
    int count = 0;
    cudaError_t err = cudaGetDeviceCount(&count);
    if (err != cudaSuccess) {
        snprintf(why, why_len, "no CUDA device: %s", cudaGetErrorString(err));
        (void)cudaGetLastError();
        return 0;
    }
    if (device >= count) {
        snprintf(why, why_len, "CUDA device %d requested but %d present", device, count);
        return 0;
    }
    return 1;
}

extern "C" const backend_ops cuda_backend_ops = {"cuda", cuda_create, cuda_destroy, cuda_decode};
