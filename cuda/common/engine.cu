/* The stream engine (engine.cuh): two slots, chunked copies, widening, timing. */
#include "engine.cuh"
#include "finish_output.cuh"
#include "cuda_tuning.h"
#include "pos_run.h"
#include "soft_input.cuh"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The most bytes of iterations and flags a synchronous call brings back through the stage. */
constexpr size_t ENGINE_STAGE_MAX = 64u * 1024u;

namespace {

struct slot {
    cudaStream_t stream;
    cudaEvent_t k0, k1; /* around the chunk's device work */
    cudaEvent_t done;   /* end of an asynchronous call, for the caller's stream to wait on */
    float* in;          /* n_tx * B widened soft values */
    void* raw;          /* narrow input types: n_tx * B soft values as copied in */
    void* state;        /* the plan's workspace */
    uint8_t* out;       /* out_len * B */
    int32_t* iters;     /* B, then conv's B bytes: one allocation, so that one copy brings both */
    uint8_t* conv;
    uint8_t* fin;       /* out_bytes * B: what the caller gets, when the engine finishes it */
    uint8_t* stage;     /* this slot's part of engine.stage (NULL: none) */
    uint32_t nf;        /* frames of the chunk in flight (0: none) */
    uint32_t staged_nf; /* frames whose iterations and flags wait in the stage (0: none) */
    uint8_t* dst_out;   /* where its results go */
    int32_t* dst_iters;
    uint8_t* dst_conv;
};

} // namespace

struct engine {
    const decoder_config* cfg;
    const engine_plan_ops* ops;
    void* plan;
    uint32_t B;
    slot slots[2];
    /* Finishing the output on the device (finish_output.cuh) when the caller wants more than
     * the plan writes: a CRC checked, or packed bits. */
    bool finish;
    uint32_t out_bytes; /* per frame, to the caller */
    uint32_t* user_pos; /* device copies (NULL where none, or a run from *_first) */
    uint32_t* crc_pos;
    uint32_t* crc_tab;
    uint32_t crc_n, user_first, crc_first;
    cudaEvent_t user_ready; /* start of an asynchronous call on the caller's stream */
    /* Pinned: a synchronous call of at most B frames (one chunk, or two split by head_frames)
     * gets each slot's iterations and converged flags here in one copy, handed over by memcpy.
     * Two copies to the caller's (often pageable) arrays cost an H200 call 1-3 us more
     * (docs/performance.md, thirty-sixth pass). */
    uint8_t* stage;     /* B * 5 bytes per slot; NULL: none (above ENGINE_STAGE_MAX) */
    bool raw_in;        /* the plan reads the narrow soft bits as copied in: no widening pass */
    bool may_pack;      /* packed output of the first bits the plan writes (no CRC, or the CRC's bits
                           with the caller's first: crc_word): a chunk whose kernels pack it and
                           check the CRC (plan_ops.writes_packed) needs no finishing kernel */
    bool staged;        /* the last call's flags wait in the stage */
    float kernel_ms;        /* of the last decode call */
    uint64_t frames_done;   /* numbers the frames (PGaB's random source) */
};

gpufec_status engine_status(const decoder_config* cfg, cudaError_t err, const char* what)
{
    if (err == cudaSuccess)
        return GPUFEC_OK;
    decoder_log(cfg, GPUFEC_LOG_ERROR, "CUDA %s failed: %s", what, cudaGetErrorString(err));
    (void)cudaGetLastError();
    return err == cudaErrorMemoryAllocation ? GPUFEC_ERR_DEVICE_OUT_OF_MEMORY : GPUFEC_ERR_DEVICE;
}

cudaError_t tx_map_upload(const tx_map* m, tx_map_dev* d)
{
    *d = tx_map_dev{};
    cudaError_t e = cudaSuccess;
    if (m->src)
        e = dev_upload(&d->src, m->src, m->n_full);
    if (e == cudaSuccess && m->rep_ptr)
        e = dev_upload(&d->rep_ptr, m->rep_ptr, (size_t)m->n_full + 1);
    if (e == cudaSuccess && m->rep_ptr)
        e = dev_upload(&d->rep_src, m->rep_src, m->repeated);
    return e;
}

void tx_map_dev_free(tx_map_dev* d)
{
    cudaFree(d->src);
    cudaFree(d->rep_ptr);
    cudaFree(d->rep_src);
    *d = tx_map_dev{};
}

void engine_destroy(engine* e)
{
    if (!e)
        return;
    for (slot& q : e->slots) {
        void* p[] = {q.in, q.raw, q.state, q.out, q.iters, q.fin};
        for (void* x : p)
            if (x)
                cudaFree(x);
        if (q.k0)
            cudaEventDestroy(q.k0);
        if (q.k1)
            cudaEventDestroy(q.k1);
        if (q.done)
            cudaEventDestroy(q.done);
        if (q.stream)
            cudaStreamDestroy(q.stream);
    }
    if (e->user_ready)
        cudaEventDestroy(e->user_ready);
    if (e->stage)
        cudaFreeHost(e->stage);
    cudaFree(e->user_pos);
    cudaFree(e->crc_pos);
    cudaFree(e->crc_tab);
    if (e->plan)
        e->ops->destroy(e->plan);
    free(e);
}

void engine_destroy_state(void* state) { engine_destroy((engine*)state); }
uint32_t engine_batch(const engine* e) { return e->B; }
const void* engine_plan(const engine* e) { return e->plan; }

/* The tables of finish_output: output positions when the plan wrote whole words (a CRC to
 * check), and the CRC's positions and per-bit registers. */
static gpufec_status finish_tables(engine* e)
{
    const decoder_config* cfg = e->cfg;
    const gpufec_code* c = cfg->code;
    /* the plan wrote the caller's positions (no CRC), or the CRC's bits with the caller's first
     * (crc_word): both read from bit 0 on */
    const int64_t user_run = cfg->check_crc && !cfg->crc_word ? pos_run_start(cfg->user_pos, cfg->user_len) : 0;
    if (user_run < 0)
        ENGINE_CHECK(cfg, dev_upload(&e->user_pos, cfg->user_pos, cfg->user_len), "upload");
    e->user_first = user_run < 0 ? 0 : (uint32_t)user_run;
    if (cfg->check_crc) {
        e->crc_n = c->k + c->crc_len;
        const std::vector<uint32_t> tab = crc_bit_registers(c->crc_poly, c->crc_len, e->crc_n);
        const int64_t crc_run = cfg->crc_word ? 0 : pos_run_start(c->mother_info_pos, e->crc_n);
        if (crc_run < 0)
            ENGINE_CHECK(cfg, dev_upload(&e->crc_pos, c->mother_info_pos, e->crc_n), "upload");
        e->crc_first = crc_run < 0 ? 0 : (uint32_t)crc_run;
        ENGINE_CHECK(cfg, dev_upload(&e->crc_tab, tab.data(), e->crc_n), "upload");
    }
    return GPUFEC_OK;
}

static gpufec_status engine_alloc(engine* e)
{
    const decoder_config* cfg = e->cfg;
    const size_t B = e->B, n_tx = cfg->code->tx.n_tx;
    const gpufec_input_type type = cfg->opts.input_type;
    e->finish = cfg->check_crc || cfg->pack;
    e->out_bytes = cfg->pack ? packed_bytes(cfg->user_len) : cfg->user_len;
    if (e->finish) {
        gpufec_status st = finish_tables(e);
        if (st != GPUFEC_OK)
            return st;
    }
    ENGINE_CHECK(cfg, cudaEventCreateWithFlags(&e->user_ready, cudaEventDisableTiming), "cudaEventCreate");
    const size_t stage = B * (sizeof(int32_t) + 1);
    if (stage <= ENGINE_STAGE_MAX) /* a larger copy would cost more than it saves */
        ENGINE_CHECK(cfg, cudaHostAlloc(&e->stage, 2 * stage, cudaHostAllocDefault), "cudaHostAlloc");
    for (slot& q : e->slots) {
        q.stage = e->stage ? e->stage + (&q - e->slots) * stage : NULL;
        ENGINE_CHECK(cfg, cudaStreamCreateWithFlags(&q.stream, cudaStreamNonBlocking), "cudaStreamCreate");
        ENGINE_CHECK(cfg, cudaEventCreate(&q.k0), "cudaEventCreate");
        ENGINE_CHECK(cfg, cudaEventCreate(&q.k1), "cudaEventCreate");
        ENGINE_CHECK(cfg, cudaEventCreateWithFlags(&q.done, cudaEventDisableTiming), "cudaEventCreate");
        if (!e->raw_in)
            ENGINE_CHECK(cfg, dev_alloc(&q.in, n_tx * B), "cudaMalloc");
        if (type != GPUFEC_INPUT_FLOAT32)
            ENGINE_CHECK(cfg, cudaMalloc(&q.raw, n_tx * B * soft_input_bytes(type)), "cudaMalloc");
        const size_t state = e->ops->state_bytes(e->plan, e->B);
        if (state)
            ENGINE_CHECK(cfg, cudaMalloc(&q.state, state), "cudaMalloc");
        ENGINE_CHECK(cfg, dev_alloc(&q.out, (size_t)cfg->out_len * B), "cudaMalloc");
        ENGINE_CHECK(cfg, cudaMalloc(&q.iters, B * (sizeof(int32_t) + 1)), "cudaMalloc");
        q.conv = (uint8_t*)(q.iters + B);
        if (e->finish)
            ENGINE_CHECK(cfg, dev_alloc(&q.fin, (size_t)e->out_bytes * B), "cudaMalloc");
    }
    return GPUFEC_OK;
}

bool engine_packs_in_kernel(const decoder_config* cfg)
{
    /* without a CRC the plan writes the caller's positions, with one the CRC's bits with the
     * caller's first (crc_word; finish_tables): packing the first user_len and checking the CRC
     * on all is all that finishing would do */
    return cfg->pack && (!cfg->check_crc || cfg->crc_word) && cfg->user_len <= cfg->out_len &&
           !(cfg->opts.cuda_tuning & GPUFEC_CUDA_PACK_AFTER);
}

gpufec_status engine_create(const decoder_config* cfg, const engine_plan_ops* ops, void* plan, uint32_t B,
                            engine** out)
{
    *out = NULL;
    engine* e = (engine*)calloc(1, sizeof *e);
    if (!e) {
        ops->destroy(plan);
        return GPUFEC_ERR_OUT_OF_MEMORY;
    }
    e->cfg = cfg;
    e->ops = ops;
    e->plan = plan;
    e->B = B;
    const gpufec_input_type type = cfg->opts.input_type;
    e->raw_in = type != GPUFEC_INPUT_FLOAT32 && ops->reads_raw && ops->reads_raw(plan, type);
    e->may_pack = engine_packs_in_kernel(cfg) && ops->writes_packed;
    gpufec_status st = engine_alloc(e);
    if (st != GPUFEC_OK) {
        engine_destroy(e);
        return st;
    }
    *out = e;
    return GPUFEC_OK;
}

gpufec_status engine_upload_io(const decoder_config* cfg, uint32_t** out_pos, tx_map_dev* map)
{
    gpufec_status st = GPUFEC_OK;
    if (cfg->out_pos)
        st = engine_status(cfg, dev_upload(out_pos, cfg->out_pos, cfg->out_len), "upload");
    if (st == GPUFEC_OK)
        st = engine_status(cfg, tx_map_upload(&cfg->code->tx, map), "upload");
    return st;
}

uint32_t engine_chunk_frames(const decoder_config* cfg, size_t frame_bytes, size_t budget, uint32_t cap)
{
    if (cfg->opts.max_batch)
        return cfg->opts.max_batch;
    size_t free_b = 0, total_b = 0;
    if (cudaMemGetInfo(&free_b, &total_b) == cudaSuccess) {
        if (free_b / 4 < budget)
            budget = free_b / 4;
    } else {
        (void)cudaGetLastError();
    }
    size_t b = budget / (frame_bytes ? frame_bytes : 1);
    b = b < 1 ? 1 : b > cap ? cap : b;
    const int sms = engine_device_limits(cfg).sms;
    if (sms > 0 && b >= (size_t)sms)
        b -= b % (size_t)sms;
    return (uint32_t)b;
}

/* A GeForce RTX 3060's (sm_86; the RTX 40 series' sm_89 has the same per-SM limits) */
#define ENGINE_SMALL_OPTIN 101376
#define ENGINE_SMALL_PER_SM 102400
#define ENGINE_SMALL_SMS 28
#define ENGINE_SMALL_THREADS 1536

static int attr_or_zero(cudaDeviceAttr what, int device, int small, bool as_small)
{
    int v = 0;
    if (cudaDeviceGetAttribute(&v, what, device) != cudaSuccess) {
        (void)cudaGetLastError();
        return 0;
    }
    return as_small && v > small ? small : v;
}

device_limits engine_device_limits(const decoder_config* cfg)
{
    const int d = cfg->opts.device;
    const bool small = (cfg->opts.cuda_tuning & GPUFEC_CUDA_SMALL_GPU) != 0;
    device_limits l;
    l.optin = attr_or_zero(cudaDevAttrMaxSharedMemoryPerBlockOptin, d, ENGINE_SMALL_OPTIN, small);
    l.per_sm = attr_or_zero(cudaDevAttrMaxSharedMemoryPerMultiprocessor, d, ENGINE_SMALL_PER_SM, small);
    l.sms = attr_or_zero(cudaDevAttrMultiProcessorCount, d, ENGINE_SMALL_SMS, small);
    l.threads_per_sm = attr_or_zero(cudaDevAttrMaxThreadsPerMultiProcessor, d, ENGINE_SMALL_THREADS, small);
    return l;
}

int engine_blocks_per_sm(const decoder_config* cfg, const void* kernel, int threads, size_t smem)
{
    int blocks = 0;
    if (cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, kernel, threads, smem) != cudaSuccess) {
        (void)cudaGetLastError();
        return 0;
    }
    /* the runtime answers for the device itself; the limits may be a smaller one's (1 KB of
     * shared memory per block is the runtime's own) */
    const device_limits l = engine_device_limits(cfg);
    if (threads > 0 && l.threads_per_sm / threads < blocks)
        blocks = l.threads_per_sm / threads;
    if (l.per_sm > 0 && (size_t)l.per_sm / (smem + 1024) < (size_t)blocks)
        blocks = (int)((size_t)l.per_sm / (smem + 1024));
    return blocks;
}

gpufec_status engine_start(const decoder_config* cfg, const engine_plan_ops* ops, void* plan, uint32_t B,
                           const char* extra, void** state, impl_caps* caps)
{
    engine* e = NULL;
    gpufec_status st = engine_create(cfg, ops, plan, B, &e);
    if (st != GPUFEC_OK)
        return st;
    *state = e;
    caps->preferred_batch = (size_t)B * 2;
    caps->writes_output = 1;
    caps->finishes_output = 1;
    const char* raw = e->raw_in ? "; soft bits read as given" : "";
    if (!caps->variant[0]) /* the plan's own description names the kernel variant that runs (and
                              which of its kernels pack: writes_packed) */
        snprintf(caps->variant, sizeof caps->variant, "%s%s", ops->describe(plan), raw);
    const char* finish = cfg->check_crc && cfg->pack ? "; CRC checked and bits packed on the GPU"
                         : cfg->check_crc             ? "; CRC checked on the GPU"
                         : cfg->pack                  ? "; bits packed on the GPU"
                                                      : "";
    decoder_log(cfg, GPUFEC_LOG_INFO, "CUDA decoder on device %d: %s%s%s%s, chunks of %u frames%s", cfg->opts.device,
                ops->describe(plan), raw, extra ? ", " : "", extra ? extra : "", B, finish);
    return GPUFEC_OK;
}

/* The copy in of a chunk of nf frames on slot q. */
static gpufec_status enqueue_copy_in(engine* e, slot& q, const void* soft, uint32_t nf)
{
    const decoder_config* cfg = e->cfg;
    const gpufec_input_type type = cfg->opts.input_type;
    const size_t count = (size_t)cfg->code->tx.n_tx * nf;
    ENGINE_CHECK(cfg,
                 cudaMemcpyAsync(type == GPUFEC_INPUT_FLOAT32 ? (void*)q.in : q.raw, soft,
                                 count * soft_input_bytes(type), cudaMemcpyDefault, q.stream),
                 "copy in");
    return GPUFEC_OK;
}

/* Widening and the plan's kernels of the chunk copied in on slot q. */
static gpufec_status enqueue_decode(engine* e, slot& q, uint32_t nf, uint64_t first_frame, bool head)
{
    const decoder_config* cfg = e->cfg;
    const gpufec_input_type type = cfg->opts.input_type;
    const size_t count = (size_t)cfg->code->tx.n_tx * nf;
    const bool timing = cfg->opts.kernel_timing; /* timed events cost a call about 5 us (H200) */
    if (timing)
        ENGINE_CHECK(cfg, cudaEventRecord(q.k0, q.stream), "event");
    if (type != GPUFEC_INPUT_FLOAT32 && !e->raw_in) /* counted in the kernel time: it is device work */
        ENGINE_CHECK(cfg, widen_soft_input(q.raw, type, cfg->opts.input_scale, q.in, count, q.stream),
                     "kernel launch");
    const bool packs = e->may_pack && e->ops->writes_packed(e->plan, nf, head);
    const engine_chunk c = {q.in,
                            e->raw_in ? q.raw : NULL,
                            q.state,
                            packs ? q.fin : q.out,
                            packs,
                            cfg->user_len,
                            packs && cfg->check_crc ? e->crc_tab : NULL,
                            q.iters,
                            q.conv,
                            nf,
                            e->B,
                            first_frame,
                            head};
    ENGINE_CHECK(cfg, e->ops->launch(e->plan, &c, q.stream), "kernel launch");
    ENGINE_CHECK(cfg, cudaGetLastError(), "kernel launch");
    if (e->finish && !packs) {
        const finish_args a = {q.out,        cfg->out_len, e->user_pos, e->user_first, cfg->user_len,
                               cfg->pack,    e->crc_pos,   e->crc_first, e->crc_tab,  e->crc_n,
                               q.conv,       q.fin,        e->out_bytes};
        ENGINE_CHECK(cfg, finish_output(a, nf, q.stream), "kernel launch");
    }
    if (timing)
        ENGINE_CHECK(cfg, cudaEventRecord(q.k1, q.stream), "event");
    q.nf = nf;
    return GPUFEC_OK;
}

static gpufec_status enqueue_results(engine* e, slot& q)
{
    const decoder_config* cfg = e->cfg;
    ENGINE_CHECK(cfg,
                 cudaMemcpyAsync(q.dst_out, e->finish ? q.fin : q.out, (size_t)e->out_bytes * q.nf,
                                 cudaMemcpyDefault, q.stream),
                 "copy out");
    if (e->staged) { /* iterations from the start, converged flags from B on: one copy */
        ENGINE_CHECK(cfg,
                     cudaMemcpyAsync(q.stage, q.iters, (size_t)e->B * sizeof(int32_t) + q.nf, cudaMemcpyDeviceToHost,
                                     q.stream),
                     "copy out");
        q.staged_nf = q.nf;
    } else if (q.dst_iters)
        ENGINE_CHECK(cfg, cudaMemcpyAsync(q.dst_iters, q.iters, q.nf * sizeof(int32_t), cudaMemcpyDefault, q.stream),
                     "copy out");
    if (q.dst_conv && !e->staged)
        ENGINE_CHECK(cfg, cudaMemcpyAsync(q.dst_conv, q.conv, q.nf, cudaMemcpyDefault, q.stream), "copy out");
    return GPUFEC_OK;
}

/* The frames of a call's first chunk where the plan splits a call of at most B frames in two
 * (plan_ops.head_frames), else 0. Only for soft bits in host memory: the split lets the second
 * chunk's copy in run beside the first chunk's kernels, which soft bits already on the device do
 * not need. Not where the kernel is timed: the call's kernel time would be two chunks' added. */
static uint32_t head_frames(const engine* e, const void* soft, size_t n_frames)
{
    const decoder_config* cfg = e->cfg;
    if (!e->ops->head_frames || n_frames > e->B || cfg->opts.kernel_timing ||
        (cfg->opts.cuda_tuning & GPUFEC_CUDA_NO_SPLIT))
        return 0;
    const uint32_t h = e->ops->head_frames(e->plan, (uint32_t)n_frames);
    if (h == 0 || h >= n_frames)
        return 0;
    cudaPointerAttributes at;
    if (cudaPointerGetAttributes(&at, soft) != cudaSuccess) {
        (void)cudaGetLastError();
        return 0;
    }
    return at.type == cudaMemoryTypeDevice || at.type == cudaMemoryTypeManaged ? 0 : h;
}

/* Where chunk frames from f on go: the caller's arrays. */
static void set_results(engine* e, slot& q, size_t f, uint8_t* out, int32_t* iterations, uint8_t* converged)
{
    q.dst_out = out + f * e->out_bytes;
    q.dst_iters = iterations ? iterations + f : NULL;
    q.dst_conv = converged ? converged + f : NULL;
}

/* A call in chunks of B frames on alternate slots, each chunk's results enqueued after the next
 * chunk's work. */
static gpufec_status enqueue_chunks(engine* e, const void* soft, size_t in_bytes, size_t n_frames, uint8_t* out,
                                    int32_t* iterations, uint8_t* converged)
{
    const decoder_config* cfg = e->cfg;
    slot* prev = NULL;
    int k = 0;
    for (size_t f = 0; f < n_frames; f += e->B, k++) {
        slot& q = e->slots[k & 1];
        if (q.nf && cfg->opts.kernel_timing) { /* this slot's previous chunk: its kernel time, before the
                                                 events are reused */
            ENGINE_CHECK(cfg, cudaEventSynchronize(q.k1), "sync");
            float ms = 0.0f;
            cudaEventElapsedTime(&ms, q.k0, q.k1);
            e->kernel_ms += ms;
        }
        const uint32_t nf = (uint32_t)(n_frames - f < e->B ? n_frames - f : e->B);
        set_results(e, q, f, out, iterations, converged);
        gpufec_status st = enqueue_copy_in(e, q, (const char*)soft + f * in_bytes, nf);
        if (st == GPUFEC_OK)
            st = enqueue_decode(e, q, nf, e->frames_done + f, false);
        if (st == GPUFEC_OK && prev)
            st = enqueue_results(e, *prev);
        if (st != GPUFEC_OK)
            return st;
        prev = &q;
    }
    return prev ? enqueue_results(e, *prev) : GPUFEC_OK;
}

/* A call split in two chunks (head_frames), one per slot, both copies in first: the copy engine
 * then never waits for the host's launches between them. */
static gpufec_status enqueue_split(engine* e, const void* soft, size_t in_bytes, size_t n_frames, uint32_t head,
                                   uint8_t* out, int32_t* iterations, uint8_t* converged)
{
    const uint32_t nf[2] = {head, (uint32_t)(n_frames - head)};
    gpufec_status st = GPUFEC_OK;
    for (int j = 0; j < 2 && st == GPUFEC_OK; j++) {
        set_results(e, e->slots[j], j ? head : 0, out, iterations, converged);
        st = enqueue_copy_in(e, e->slots[j], (const char*)soft + (j ? head : 0) * in_bytes, nf[j]);
    }
    for (int j = 0; j < 2 && st == GPUFEC_OK; j++)
        st = enqueue_decode(e, e->slots[j], nf[j], e->frames_done + (j ? head : 0), j == 0);
    for (int j = 0; j < 2 && st == GPUFEC_OK; j++)
        st = enqueue_results(e, e->slots[j]);
    return st;
}

/* Enqueues a whole decode call on the two slots; with `user` set, the slots first wait for
 * what is already queued on it. */
static gpufec_status enqueue(engine* e, const void* soft, size_t n_frames, uint8_t* out, int32_t* iterations,
                             uint8_t* converged, cudaStream_t user, bool has_user)
{
    const decoder_config* cfg = e->cfg;
    /* The stage serves a synchronous call of at most B frames (one chunk per slot): the host
     * hands its flags over after the wait (engine_decode); an asynchronous call's results go
     * straight to the caller. */
    e->staged = !has_user && e->stage && n_frames <= e->B && (iterations || converged);
    ENGINE_CHECK(cfg, cudaSetDevice(cfg->opts.device), "cudaSetDevice");
    if (has_user) {
        ENGINE_CHECK(cfg, cudaEventRecord(e->user_ready, user), "event");
        for (slot& q : e->slots)
            ENGINE_CHECK(cfg, cudaStreamWaitEvent(q.stream, e->user_ready, 0), "stream wait");
    }
    const size_t in_bytes = (size_t)cfg->code->tx.n_tx * soft_input_bytes(cfg->opts.input_type);
    e->kernel_ms = 0.0f;
    const uint32_t head = head_frames(e, soft, n_frames);
    gpufec_status st = head ? enqueue_split(e, soft, in_bytes, n_frames, head, out, iterations, converged)
                            : enqueue_chunks(e, soft, in_bytes, n_frames, out, iterations, converged);
    if (st != GPUFEC_OK)
        return st;
    e->frames_done += n_frames;
    if (has_user)
        for (slot& q : e->slots) {
            ENGINE_CHECK(cfg, cudaEventRecord(q.done, q.stream), "event");
            ENGINE_CHECK(cfg, cudaStreamWaitEvent(user, q.done, 0), "stream wait");
        }
    return GPUFEC_OK;
}

gpufec_status engine_synchronize(void* state)
{
    engine* e = (engine*)state;
    ENGINE_CHECK(e->cfg, cudaSetDevice(e->cfg->opts.device), "cudaSetDevice");
    for (slot& q : e->slots) {
        ENGINE_CHECK(e->cfg, cudaStreamSynchronize(q.stream), "decode");
        if (q.nf && e->cfg->opts.kernel_timing) {
            float ms = 0.0f;
            cudaEventElapsedTime(&ms, q.k0, q.k1);
            e->kernel_ms += ms;
        }
        q.nf = 0;
    }
    return GPUFEC_OK;
}

gpufec_status engine_decode(void* state, const void* soft, size_t n_frames, uint8_t* out, int32_t* iterations,
                            uint8_t* converged)
{
    engine* e = (engine*)state;
    gpufec_status st = enqueue(e, soft, n_frames, out, iterations, converged, 0, false);
    gpufec_status st2 = engine_synchronize(state);
    for (slot& q : e->slots) {
        if (!st && !st2 && q.staged_nf) {
            if (q.dst_iters)
                memcpy(q.dst_iters, q.stage, q.staged_nf * sizeof(int32_t));
            if (q.dst_conv)
                memcpy(q.dst_conv, q.stage + (size_t)e->B * sizeof(int32_t), q.staged_nf);
        }
        q.staged_nf = 0;
    }
    e->staged = false;
    return st ? st : st2;
}

gpufec_status engine_decode_async(void* state, const void* soft, size_t n_frames, uint8_t* out,
                                  int32_t* iterations, uint8_t* converged, void* stream)
{
    return enqueue((engine*)state, soft, n_frames, out, iterations, converged, (cudaStream_t)stream, true);
}

double engine_kernel_seconds(const void* state) { return ((const engine*)state)->kernel_ms * 1e-3; }

void engine_set_frame_index(void* state, uint64_t next) { ((engine*)state)->frames_done = next; }

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
