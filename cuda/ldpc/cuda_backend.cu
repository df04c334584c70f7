/* CUDA backend: layered (default) and flooding BP for any H, batched and pipelined.
 *
 * A decode call is cut into chunks of at most B frames. Two slots, each with its own stream and
 * device buffers, alternate: while one slot's kernel runs, the other slot's input copy can run;
 * the output copy of chunk k is enqueued after chunk k+1's work, so that copies from pageable
 * memory (which block the host) do not serialise the pipeline. With pinned host memory
 * (gpufec_host_alloc) all copies are asynchronous. Early termination runs on the device.
 *
 * Flooding layout: per-variable and per-edge arrays interleaved over the frames of a chunk,
 * x[index * B + frame], so a warp handles 32 frames of one check or variable (coalesced).
 * Layered: see layered_kernel.cuh. */
extern "C" {
#include "decoder_internal.h"
}
#include "erasure.cuh"
#include "soft_input.cuh"
#include "layered_kernel.cuh"
#include "ldpc_rules.h"
#include "qc_layered.h"

#include <cuda_runtime.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

namespace {

struct slot {
    cudaStream_t stream;
    cudaEvent_t k0, k1; /* around the chunk's kernels */
    cudaEvent_t done;   /* end of an asynchronous call, for the caller's stream to wait on */
    float* in;          /* n_tx * B */
    void* raw;          /* narrow input types: n_tx * B soft bits as copied in, widened into in */
    float* c2v;         /* edges * B */
    uint8_t* out;       /* n * B */
    int32_t* iters;
    uint8_t* conv;
    float *llr, *app;   /* flooding only: n * B */
    uint8_t *active, *synd;
    uint8_t* has_info;  /* flooding only: the frame has a soft value that is not an erasure */
    uint32_t nf;        /* frames of the chunk in flight (0: none) */
    uint8_t* dst_hard;  /* where its results go */
    int32_t* dst_iters;
    uint8_t* dst_conv;
};

struct cuda_state {
    uint32_t B; /* frames per chunk */
    int layered, half, warp, c2v_smem, compressed, threads;
    uint32_t* out_pos; /* the decoder's output positions on the device (NULL: whole codeword) */
    size_t smem;
    uint32_t *row_ptr, *edge_var, *col_ptr, *col_edge, *layer_ptr, *layer_rows;
    int32_t* full_src; /* NULL: every position transmitted in order */
    slot slots[2];
    cudaEvent_t user_ready; /* start of an asynchronous call on the caller's stream */
    float kernel_ms;        /* of the last decode call */
    qc_plan* qc;            /* QC layered kernel (qc_layered.cu) when the code has the view */
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
    const float v = code_mother_value(full_src, j, in + (size_t)f * n_tx);
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
                         const uint8_t* __restrict__ has_info, uint32_t nf, int early, int last)
{
    uint32_t f = blockIdx.x * blockDim.x + threadIdx.x;
    if (f >= nf || !active[f])
        return;
    iters[f]++;
    if (early || last) {
        uint8_t ok = synd[f] == 0;
        conv[f] = ok && has_info[f]; /* an all-erasure frame is never reported decoded */
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

__global__ void k_store_info(const float* __restrict__ app, const uint32_t* __restrict__ info_pos,
                             uint8_t* __restrict__ out, uint32_t k, uint32_t B, uint32_t nf)
{
    size_t idx = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (idx >= (size_t)k * nf)
        return;
    uint32_t f = (uint32_t)(idx / k), t = (uint32_t)(idx % k);
    out[idx] = ldpc_hard_bit(app[(size_t)info_pos[t] * B + f]);
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
    void* ptrs[] = {s->row_ptr, s->edge_var, s->col_ptr, s->col_edge, s->layer_ptr, s->layer_rows, s->full_src,
                    s->out_pos};
    for (void* p : ptrs)
        if (p)
            cudaFree(p);
    for (slot& q : s->slots) {
        void* sp[] = {q.in, q.c2v, q.out, q.iters, q.conv, q.llr, q.app, q.active, q.synd, q.has_info, q.raw};
        for (void* p : sp)
            if (p)
                cudaFree(p);
        if (q.k0)
            cudaEventDestroy(q.k0);
        if (q.k1)
            cudaEventDestroy(q.k1);
        if (q.done)
            cudaEventDestroy(q.done);
        if (q.stream)
            cudaStreamDestroy(q.stream);
    }
    if (s->user_ready)
        cudaEventDestroy(s->user_ready);
    qc_plan_destroy(s->qc);
    free(s);
}

template <typename T> cudaError_t dev_alloc(T** p, size_t count)
{
    return cudaMalloc((void**)p, (count ? count : 1) * sizeof(T));
}

template <typename T> cudaError_t upload(T** p, const T* src, size_t count)
{
    cudaError_t e = dev_alloc(p, count);
    return e != cudaSuccess ? e : cudaMemcpy(*p, src, count * sizeof(T), cudaMemcpyHostToDevice);
}

/* Frames per chunk, from the device unless set: a budget of at most 1 GiB per slot and at most a
 * quarter of the memory free now (two slots, room left for other contexts), at least a warp,
 * at most 16384 frames; a multiple of the SM count where that still fits, so that the last wave
 * of thread blocks is full. */
uint32_t choose_batch(const gpufec_code* c, uint32_t requested, int device)
{
    if (requested)
        return requested;
    size_t free_b = 0, total_b = 0;
    size_t budget = (size_t)1 << 30;
    if (cudaMemGetInfo(&free_b, &total_b) == cudaSuccess && free_b / 4 < budget)
        budget = free_b / 4;
    else
        (void)cudaGetLastError();
    int sms = 0;
    cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device);
    size_t per_frame = (size_t)4 * (c->edges + 3 * (size_t)c->n) + 2 * (size_t)c->n + 16;
    size_t b = budget / per_frame;
    b = b < 32 ? 32 : b > 16384 ? 16384 : b;
    if (sms > 0 && b >= (size_t)sms)
        b -= b % (size_t)sms;
    else
        b &= ~(size_t)31;
    return (uint32_t)(b ? b : 32);
}

/* Chooses layered (float or half posteriors in shared memory) or flooding. */
void choose_kernel(gpufec_decoder* dec, cuda_state* s)
{
    const gpufec_code* c = dec->code;
    s->layered = 0;
    if (dec->opts.schedule != GPUFEC_SCHEDULE_LAYERED)
        return;
    int optin = 0;
    cudaDeviceGetAttribute(&optin, cudaDevAttrMaxSharedMemoryPerBlockOptin, dec->opts.device);
    const size_t app32 = ((size_t)c->n * 4 + 15) & ~(size_t)15, msgs = (size_t)c->edges * 4;
    s->c2v_smem = 0;
    if (app32 + msgs <= (size_t)optin) { /* everything on chip */
        s->half = 0;
        s->c2v_smem = 1;
        s->smem = app32 + msgs;
    } else if (app32 <= (size_t)optin) {
        s->half = 0;
        s->smem = app32;
    } else if ((size_t)c->n * 2 <= (size_t)optin) {
        s->half = 1;
        s->smem = (size_t)c->n * 2;
    } else {
        decoder_log(dec, GPUFEC_LOG_WARNING,
                    "N=%u does not fit the layered kernel's shared memory (%d bytes); using flooding",
                    c->n, optin);
        dec->opts.schedule = GPUFEC_SCHEDULE_FLOODING;
        return;
    }
    s->layered = 1;
    /* Long rows: a warp per row (lanes over edges); short rows: a thread per row. */
    s->warp = c->edges >= 12u * c->m;
    /* Min-sum messages in global memory: 16 bytes per row instead of 4 per edge. */
    s->compressed = !s->warp && !s->c2v_smem && dec->opts.algorithm != GPUFEC_ALG_SPA &&
                    c->max_check_degree <= 32 &&
                    !(dec->opts.cuda_tuning & GPUFEC_CUDA_NO_COMPRESSED_MESSAGES);
    if (s->warp) {
        uint32_t w = c->max_layer_rows < 16 ? c->max_layer_rows : 16;
        s->threads = (int)(32 * (w ? w : 1));
    } else {
        uint32_t t = 32;
        while (t < c->max_layer_rows && t < 512)
            t *= 2;
        s->threads = (int)t;
    }
}

/* Instantiation chosen at run time from the four kernel switches. */
template <typename AppT, bool SPA, bool WARP, bool SM> struct layered_kernel {
    static cudaError_t allow(size_t bytes)
    {
        return cudaFuncSetAttribute(k_layered<AppT, SPA, WARP, SM>,
                                    cudaFuncAttributeMaxDynamicSharedMemorySize, (int)bytes);
    }
    static void launch(const layered_args& a, uint32_t nf, int threads, size_t smem, cudaStream_t st)
    {
        k_layered<AppT, SPA, WARP, SM><<<nf, threads, smem, st>>>(a);
    }
};

template <typename AppT, bool SPA, bool WARP>
cudaError_t layered_dispatch(const cuda_state* s, const layered_args* a, uint32_t nf, cudaStream_t st)
{
    if (s->c2v_smem) {
        if (!a)
            return layered_kernel<AppT, SPA, WARP, true>::allow(s->smem);
        layered_kernel<AppT, SPA, WARP, true>::launch(*a, nf, s->threads, s->smem, st);
    } else {
        if (!a)
            return layered_kernel<AppT, SPA, WARP, false>::allow(s->smem);
        layered_kernel<AppT, SPA, WARP, false>::launch(*a, nf, s->threads, s->smem, st);
    }
    return cudaSuccess;
}

/* a == NULL: only raise the kernel's shared-memory limit (at creation). */
cudaError_t layered_run(const cuda_state* s, bool spa, const layered_args* a, uint32_t nf, cudaStream_t st)
{
    if (s->compressed) {
        if (!a)
            return s->half ? cudaFuncSetAttribute(k_layered_compressed<__half>,
                                                  cudaFuncAttributeMaxDynamicSharedMemorySize, (int)s->smem)
                           : cudaFuncSetAttribute(k_layered_compressed<float>,
                                                  cudaFuncAttributeMaxDynamicSharedMemorySize, (int)s->smem);
        uint4* state = reinterpret_cast<uint4*>(a->c2v);
        if (s->half)
            k_layered_compressed<__half><<<nf, s->threads, s->smem, st>>>(*a, state);
        else
            k_layered_compressed<float><<<nf, s->threads, s->smem, st>>>(*a, state);
        return cudaSuccess;
    }
    if (s->half)
        return spa ? (s->warp ? layered_dispatch<__half, true, true>(s, a, nf, st)
                              : layered_dispatch<__half, true, false>(s, a, nf, st))
                   : (s->warp ? layered_dispatch<__half, false, true>(s, a, nf, st)
                              : layered_dispatch<__half, false, false>(s, a, nf, st));
    return spa ? (s->warp ? layered_dispatch<float, true, true>(s, a, nf, st)
                          : layered_dispatch<float, true, false>(s, a, nf, st))
               : (s->warp ? layered_dispatch<float, false, true>(s, a, nf, st)
                          : layered_dispatch<float, false, false>(s, a, nf, st));
}

gpufec_status cuda_create_impl(gpufec_decoder* dec, cuda_state* s)
{
    const gpufec_code* c = dec->code;
    CU(cudaSetDevice(dec->opts.device), "cudaSetDevice");
    char why[160] = "";
    gpufec_status qst = GPUFEC_OK;
    s->qc = qc_plan_create(dec, why, sizeof why, &qst);
    if (qst != GPUFEC_OK) {
        decoder_log(dec, GPUFEC_LOG_ERROR, "QC layered kernel: %s", why);
        return qst;
    }
    if (!s->qc && dec->opts.precision != GPUFEC_PRECISION_FLOAT32) {
        decoder_log(dec, GPUFEC_LOG_ERROR, "precision %s on the GPU: %s",
                    gpufec_precision_name(dec->opts.precision), why);
        return GPUFEC_ERR_UNSUPPORTED;
    }
    if (s->qc)
        s->layered = 1;
    else
        choose_kernel(dec, s);
    const size_t B = s->B, n = c->n, m = c->m, E = c->edges;
    CU(upload(&s->row_ptr, c->row_ptr, m + 1), "upload");
    CU(upload(&s->edge_var, c->edge_var, E), "upload");
    CU(upload(&s->col_ptr, c->col_ptr, n + 1), "upload");
    CU(upload(&s->col_edge, c->col_edge, E), "upload");
    CU(upload(&s->layer_ptr, c->layer_ptr, (size_t)c->n_layers + 1), "upload");
    CU(upload(&s->layer_rows, c->layer_rows, m), "upload");
    if (c->full_src)
        CU(upload(&s->full_src, c->full_src, n), "upload");
    if (dec->out_pos)
        CU(upload(&s->out_pos, dec->out_pos, dec->out_len), "upload");
    CU(cudaEventCreateWithFlags(&s->user_ready, cudaEventDisableTiming), "cudaEventCreate");
    for (slot& q : s->slots) {
        CU(cudaStreamCreateWithFlags(&q.stream, cudaStreamNonBlocking), "cudaStreamCreate");
        CU(cudaEventCreate(&q.k0), "cudaEventCreate");
        CU(cudaEventCreate(&q.k1), "cudaEventCreate");
        CU(cudaEventCreateWithFlags(&q.done, cudaEventDisableTiming), "cudaEventCreate");
        CU(dev_alloc(&q.in, (size_t)c->n_tx * B), "cudaMalloc");
        if (dec->opts.input_type != GPUFEC_INPUT_FLOAT32)
            CU(cudaMalloc(&q.raw, (size_t)c->n_tx * B * soft_input_bytes(dec->opts.input_type)), "cudaMalloc");
        if (s->qc)
            CU(dev_alloc(&q.c2v, (qc_plan_global_state_bytes(s->qc) / 4) * B), "cudaMalloc");
        else if (s->compressed) /* a uint4 per row */
            CU(dev_alloc(&q.c2v, 4 * m * B), "cudaMalloc");
        else if (!s->c2v_smem)
            CU(dev_alloc(&q.c2v, E * B), "cudaMalloc");
        CU(dev_alloc(&q.out, n * B), "cudaMalloc");
        CU(dev_alloc(&q.iters, B), "cudaMalloc");
        CU(dev_alloc(&q.conv, B), "cudaMalloc");
        if (!s->layered) {
            CU(dev_alloc(&q.llr, n * B), "cudaMalloc");
            CU(dev_alloc(&q.app, n * B), "cudaMalloc");
            CU(dev_alloc(&q.active, B), "cudaMalloc");
            CU(dev_alloc(&q.synd, B), "cudaMalloc");
            CU(dev_alloc(&q.has_info, B), "cudaMalloc");
            CU(cudaMemset(q.synd, 0, B), "cudaMemset");
        }
    }
    if (s->layered && !s->qc)
        CU(layered_run(s, dec->opts.algorithm == GPUFEC_ALG_SPA, NULL, 0, 0), "cudaFuncSetAttribute");
    return GPUFEC_OK;
}

gpufec_status cuda_create(gpufec_decoder* dec)
{
    if (dec->opts.algorithm > GPUFEC_ALG_OMS) {
        decoder_log(dec, GPUFEC_LOG_WARNING, "the CUDA backend has no %s decoder yet",
                    gpufec_algorithm_name(dec->opts.algorithm));
        return GPUFEC_ERR_UNSUPPORTED;
    }
    cuda_state* s = (cuda_state*)calloc(1, sizeof *s);
    if (!s)
        return GPUFEC_ERR_OUT_OF_MEMORY;
    if (cudaSetDevice(dec->opts.device) != cudaSuccess) {
        (void)cudaGetLastError();
        free(s);
        return GPUFEC_ERR_DEVICE;
    }
    s->B = choose_batch(dec->code, dec->opts.max_batch, dec->opts.device);
    gpufec_status st = cuda_create_impl(dec, s);
    if (st != GPUFEC_OK) {
        free_state(s);
        return st;
    }
    dec->impl = s;
    dec->preferred_batch = (size_t)s->B * 2;
    dec->backend_writes_output = 1;
    if (s->qc)
        decoder_log(dec, GPUFEC_LOG_INFO, "CUDA decoder on device %d: %s, %s, chunks of %u frames",
                    dec->opts.device, qc_plan_describe(s->qc), gpufec_precision_name(dec->opts.precision), s->B);
    else
        decoder_log(dec, GPUFEC_LOG_INFO,
                    "CUDA decoder on device %d: %s%s%s%s, %d threads per frame, chunks of %u frames",
                    dec->opts.device, s->layered ? "layered, posteriors in shared memory" : "flooding",
                    s->layered && s->half ? " (fp16)" : "", s->c2v_smem ? ", messages in shared memory" : "",
                    s->warp ? ", a warp per row" : s->compressed ? ", compressed min-sum messages" : "",
                    s->layered ? s->threads : 64, s->B);
    return GPUFEC_OK;
}

void cuda_destroy(gpufec_decoder* dec)
{
    free_state((cuda_state*)dec->impl);
    dec->impl = NULL;
}

/* Enqueues copy-in and kernels of one chunk on slot q. */
gpufec_status enqueue_chunk(gpufec_decoder* dec, cuda_state* s, slot& q, const void* soft, uint32_t nf)
{
    const gpufec_code* c = dec->code;
    const gpufec_decoder_opts* o = &dec->opts;
    const uint32_t n = c->n, B = s->B;
    const gpufec_input_type type = o->input_type;
    const size_t count = (size_t)c->n_tx * nf;
    CU(cudaMemcpyAsync(type == GPUFEC_INPUT_FLOAT32 ? (void*)q.in : q.raw, soft, count * soft_input_bytes(type),
                       cudaMemcpyDefault, q.stream),
       "copy in");
    CU(cudaEventRecord(q.k0, q.stream), "event");
    if (type != GPUFEC_INPUT_FLOAT32) /* counted in the kernel time: it is device work */
        CU(widen_soft_input(q.raw, type, o->input_scale, q.in, count, q.stream), "kernel launch");
    if (s->qc) {
        CU(qc_plan_launch(s->qc, q.in, q.c2v, q.out, q.iters, q.conv, nf, q.stream), "kernel launch");
    } else if (s->layered) {
        layered_args a = {s->out_pos, dec->out_len, s->row_ptr, s->edge_var, s->layer_ptr,
                          s->layer_rows, s->full_src, n, c->m, c->edges, c->n_tx, c->n_layers, q.in, q.c2v,
                          q.out, q.iters, q.conv, o->max_iterations, o->early_termination,
                          (int)o->algorithm, o->syndrome_interval, o->normalization, o->offset};
        layered_run(s, o->algorithm == GPUFEC_ALG_SPA, &a, nf, q.stream);
    } else {
        const unsigned T = 128;
        const size_t total = (size_t)n * nf;
        const dim3 grid_f((nf + 63) / 64), blk_f(64);
        k_has_information<<<nf, 128, 0, q.stream>>>(q.in, c->n_tx, q.has_info);
        k_load<<<(unsigned)((total + T - 1) / T), T, 0, q.stream>>>(q.in, s->full_src, q.llr, q.app, q.active,
                                                                    q.conv, q.iters, n, c->n_tx, B, nf);
        CU(cudaMemsetAsync(q.c2v, 0, (size_t)c->edges * B * sizeof(float), q.stream), "cudaMemset");
        for (int it = 0; it < o->max_iterations; it++) {
            const int last = it + 1 == o->max_iterations;
            const int check = o->early_termination && (it + 1) % o->syndrome_interval == 0;
            k_checks<<<dim3(grid_f.x, c->m), blk_f, 0, q.stream>>>(s->row_ptr, s->edge_var, q.app, q.c2v,
                                                                 q.active, c->m, B, nf, (int)o->algorithm,
                                                                 o->normalization, o->offset);
            k_vars<<<dim3(grid_f.x, n), blk_f, 0, q.stream>>>(s->col_ptr, s->col_edge, q.llr, q.c2v, q.app,
                                                            q.active, B, nf);
            if (check || last)
                k_syndrome<<<dim3(grid_f.x, c->m), blk_f, 0, q.stream>>>(s->row_ptr, s->edge_var, q.app,
                                                                       q.active, q.synd, B, nf);
            k_retire<<<grid_f, blk_f, 0, q.stream>>>(q.active, q.conv, q.synd, q.iters, q.has_info, nf, check,
                                                     last);
        }
        if (s->out_pos)
            k_store_info<<<(unsigned)(((size_t)dec->out_len * nf + T - 1) / T), T, 0, q.stream>>>(
                q.app, s->out_pos, q.out, dec->out_len, B, nf);
        else
            k_store<<<(unsigned)((total + T - 1) / T), T, 0, q.stream>>>(q.app, q.out, n, B, nf);
    }
    CU(cudaGetLastError(), "kernel launch");
    CU(cudaEventRecord(q.k1, q.stream), "event");
    q.nf = nf;
    return GPUFEC_OK;
}

gpufec_status enqueue_results(gpufec_decoder* dec, slot& q)
{
    CU(cudaMemcpyAsync(q.dst_hard, q.out, (size_t)dec->out_len * q.nf, cudaMemcpyDefault, q.stream), "copy out");
    if (q.dst_iters)
        CU(cudaMemcpyAsync(q.dst_iters, q.iters, q.nf * sizeof(int32_t), cudaMemcpyDefault, q.stream), "copy out");
    if (q.dst_conv)
        CU(cudaMemcpyAsync(q.dst_conv, q.conv, q.nf, cudaMemcpyDefault, q.stream), "copy out");
    return GPUFEC_OK;
}

/* Enqueues a whole decode call on the two slots; with `user` set, the slots first wait for
 * what is already queued on it. */
gpufec_status cuda_enqueue(gpufec_decoder* dec, const void* soft, size_t n_frames, uint8_t* hard,
                           int32_t* iterations, uint8_t* converged, cudaStream_t user, bool has_user)
{
    cuda_state* s = (cuda_state*)dec->impl;
    const gpufec_code* c = dec->code;
    CU(cudaSetDevice(dec->opts.device), "cudaSetDevice");
    if (has_user) {
        CU(cudaEventRecord(s->user_ready, user), "event");
        for (slot& q : s->slots)
            CU(cudaStreamWaitEvent(q.stream, s->user_ready, 0), "stream wait");
    }
    slot* prev = NULL;
    int k = 0;
    s->kernel_ms = 0.0f;
    for (size_t f = 0; f < n_frames; f += s->B, k++) {
        slot& q = s->slots[k & 1];
        if (q.nf) { /* this slot's previous chunk: its kernel time, before the events are reused */
            CU(cudaEventSynchronize(q.k1), "sync");
            float ms = 0.0f;
            cudaEventElapsedTime(&ms, q.k0, q.k1);
            s->kernel_ms += ms;
        }
        uint32_t nf = (uint32_t)(n_frames - f < s->B ? n_frames - f : s->B);
        q.dst_hard = hard + f * dec->out_len;
        q.dst_iters = iterations ? iterations + f : NULL;
        q.dst_conv = converged ? converged + f : NULL;
        const char* in = (const char*)soft + f * c->n_tx * soft_input_bytes(dec->opts.input_type);
        gpufec_status st = enqueue_chunk(dec, s, q, in, nf);
        if (st == GPUFEC_OK && prev)
            st = enqueue_results(dec, *prev);
        if (st != GPUFEC_OK)
            return st;
        prev = &q;
    }
    if (prev) {
        gpufec_status st = enqueue_results(dec, *prev);
        if (st != GPUFEC_OK)
            return st;
    }
    if (has_user)
        for (slot& q : s->slots) {
            CU(cudaEventRecord(q.done, q.stream), "event");
            CU(cudaStreamWaitEvent(user, q.done, 0), "stream wait");
        }
    return GPUFEC_OK;
}

gpufec_status cuda_synchronize(gpufec_decoder* dec)
{
    cuda_state* s = (cuda_state*)dec->impl;
    CU(cudaSetDevice(dec->opts.device), "cudaSetDevice");
    for (slot& q : s->slots) {
        CU(cudaStreamSynchronize(q.stream), "decode");
        if (q.nf) {
            float ms = 0.0f;
            cudaEventElapsedTime(&ms, q.k0, q.k1);
            s->kernel_ms += ms;
            q.nf = 0;
        }
    }
    return GPUFEC_OK;
}

gpufec_status cuda_decode(gpufec_decoder* dec, const void* llr, size_t n_frames, uint8_t* hard,
                          int32_t* iterations, uint8_t* converged)
{
    gpufec_status st = cuda_enqueue(dec, llr, n_frames, hard, iterations, converged, 0, false);
    gpufec_status st2 = cuda_synchronize(dec);
    return st ? st : st2;
}

gpufec_status cuda_decode_async(gpufec_decoder* dec, const void* llr, size_t n_frames, uint8_t* out,
                                int32_t* iterations, uint8_t* converged, void* stream)
{
    return cuda_enqueue(dec, llr, n_frames, out, iterations, converged, (cudaStream_t)stream, true);
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

static double cuda_kernel_seconds(const gpufec_decoder* dec)
{
    return ((const cuda_state*)dec->impl)->kernel_ms * 1e-3;
}

static int cuda_soft_accepts(const gpufec_code* code, const gpufec_decoder_opts* opts, char* why, size_t why_len)
{
    (void)code;
    if (opts->algorithm >= GPUFEC_ALG_GALLAGER_A) {
        snprintf(why, why_len, "soft-decision algorithms only");
        return 0;
    }
    return cuda_backend_probe(opts->device, why, why_len);
}

extern "C" const backend_ops cuda_backend_ops = {"cuda",
                                                  GPUFEC_BACKEND_CUDA,
                                                  cuda_soft_accepts,
                                                  cuda_create,
                                                  cuda_destroy,
                                                  cuda_decode,
                                                  cuda_decode_async,
                                                  cuda_synchronize,
                                                  cuda_kernel_seconds};
