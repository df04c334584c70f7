/* The CUDA stream engine: one pipeline that runs any family's kernel plan. A decode call is cut
 * into chunks of at most B frames; two slots, each with its own stream and device buffers,
 * alternate, so that one chunk's copies overlap the other's kernels. The output copy of chunk k
 * is enqueued after chunk k+1's work, so that copies from pageable memory (which block the host)
 * do not serialise the pipeline; with pinned memory (gpufec_host_alloc) every copy is
 * asynchronous. A call of at most B frames from the host may still go as two chunks where the
 * plan says so (plan_ops.head_frames): the second's copy in then runs beside the first's
 * kernels. Narrow soft bits are widened on the device (soft_input.cuh). Kernel time is
 * measured here, around each chunk's device work. Plans never see the pipeline and the
 * pipeline never sees a code: a plan is a record of a few functions (the shape of qc_plan). */
#ifndef GPUFEC_CUDA_ENGINE_CUH
#define GPUFEC_CUDA_ENGINE_CUH

#include <cuda_runtime.h>

#include "shared_limit.cuh"

extern "C" {
#include "decoder_internal.h"
}

/* One chunk as a plan sees it. */
struct engine_chunk {
    const float* in;      /* nf frames of n transmitted soft values, frame-major, widened (NULL where
                             the plan reads them narrow: raw) */
    const void* raw;      /* ... the same values as copied in, where the plan reads them so
                             (reads_raw; the type and int8 scale are cfg->opts'); else NULL */
    void* state;          /* the slot's workspace: plan_ops.state_bytes(plan, B) bytes */
    uint8_t* out;         /* nf * out_len bits (cfg->out_len, through cfg->out_pos), a byte each; or
                             packed: */
    bool pack;            /* ... eight per byte by bit_pack.h's rule, the first pack_len bits in
                             packed_bytes(pack_len) bytes per frame (only where plan_ops.writes_packed
                             said so for this chunk), */
    uint32_t pack_len;
    const uint32_t* crc_tab; /* ... and, where not NULL, the code's CRC checked on all out_len bits
                                (finish_output.cuh's registers), converged cleared where it fails */
    int32_t* iterations;  /* nf */
    uint8_t* converged;   /* nf */
    uint32_t nf, B;       /* frames in this chunk; the slot's capacity */
    uint64_t first_frame; /* number of the chunk's first frame since the context was created */
    bool head;            /* the first chunk of a call split by plan_ops.head_frames */
};

struct engine_plan_ops {
    const char* (*describe)(const void* plan);
    size_t (*state_bytes)(const void* plan, uint32_t B);
    /* Enqueues the chunk's kernels on the stream; never waits on the host. */
    cudaError_t (*launch)(const void* plan, const engine_chunk* chunk, cudaStream_t stream);
    void (*destroy)(void* plan);
    /* Optional: true where every kernel of the plan reads soft bits of this narrow type as the
     * caller gave them (engine_chunk.raw), so that the engine skips its widening pass and the
     * float buffer; NULL or false: the plan reads the widened floats (chunk.in). */
    bool (*reads_raw)(const void* plan, gpufec_input_type type);
    /* Optional: for a call of n frames (at most B) copied in from the host, the frames of a first
     * chunk (its engine_chunk.head set) after which the rest goes as a second chunk on the other
     * slot, whose copy in then runs beside the first's kernels; 0 (or NULL): one chunk. */
    uint32_t (*head_frames)(const void* plan, uint32_t n);
    /* Optional: true where the kernels of a chunk of nf frames (head: engine_chunk.head) write
     * the output packed and check the CRC (engine_chunk.pack), so that packed output takes no
     * finishing kernel after them; false or NULL: the engine's finishing kernel does it. */
    bool (*writes_packed)(const void* plan, uint32_t nf, bool head);
};

struct engine;

/* A CUDA error as a status, logged with what failed; clears a non-sticky error so the context
 * stays usable. */
gpufec_status engine_status(const decoder_config* cfg, cudaError_t err, const char* what);

#define ENGINE_CHECK(cfg, call, what)                                                           \
    do {                                                                                        \
        gpufec_status st_ = engine_status((cfg), (call), what);                                 \
        if (st_ != GPUFEC_OK)                                                                   \
            return st_;                                                                         \
    } while (0)

/* Takes the plan (destroyed with the engine, or at once on failure). B: frames per chunk. */
gpufec_status engine_create(const decoder_config* cfg, const engine_plan_ops* ops, void* plan, uint32_t B,
                            engine** out);
void engine_destroy(engine* e);
uint32_t engine_batch(const engine* e);
const void* engine_plan(const engine* e);

/* The backend_ops entries every plan-based implementation shares (state = engine*). */
gpufec_status engine_decode(void* state, const void* soft, size_t n_frames, uint8_t* out, int32_t* iterations,
                            uint8_t* converged);
gpufec_status engine_decode_async(void* state, const void* soft, size_t n_frames, uint8_t* out,
                                  int32_t* iterations, uint8_t* converged, void* stream);
gpufec_status engine_synchronize(void* state);
double engine_kernel_seconds(const void* state);
void engine_set_frame_index(void* state, uint64_t next);
void engine_destroy_state(void* state);

/* Device memory helpers. */
template <typename T> cudaError_t dev_alloc(T** p, size_t count)
{
    return cudaMalloc((void**)p, (count ? count : 1) * sizeof(T));
}
template <typename T> cudaError_t dev_upload(T** p, const T* src, size_t count)
{
    cudaError_t e = dev_alloc(p, count);
    return e != cudaSuccess ? e : cudaMemcpy(*p, src, count * sizeof(T), cudaMemcpyHostToDevice);
}

/* Carves aligned pieces out of one workspace (a plan's slot state). */
struct workspace_cursor {
    unsigned char* base;
    size_t used;
    template <typename T> T* take(size_t count)
    {
        used = (used + 255) & ~(size_t)255;
        T* p = reinterpret_cast<T*>(base ? base + used : nullptr);
        used += count * sizeof(T);
        return p;
    }
};

/* The transmission map on the device (tx_map.h), uploaded once per context. */
struct tx_map_dev {
    int32_t* src;
    uint32_t *rep_ptr, *rep_src;
    tx_map_view view() const
    {
        tx_map_view v = {src, rep_ptr, rep_src};
        return v;
    }
};
cudaError_t tx_map_upload(const tx_map* m, tx_map_dev* d);
void tx_map_dev_free(tx_map_dev* d);

/* What every plan's create does around its own tables (cuda/common, so that a family's plan
 * only builds what is its own): */
/* The output positions (NULL for the whole mother codeword) and the transmission map, uploaded. */
gpufec_status engine_upload_io(const decoder_config* cfg, uint32_t** out_pos, tx_map_dev* map);
/* Frames per chunk: opts.max_batch when set, else as many as fit `budget` bytes of workspace (at
 * most a quarter of the device memory free now) at frame_bytes each, within 1 .. cap, a multiple
 * of the SM count where that fits (the last wave of blocks full when a block takes a frame). */
uint32_t engine_chunk_frames(const decoder_config* cfg, size_t frame_bytes, size_t budget, uint32_t cap);
/* Hands the plan to a new engine (the plan destroyed on failure) and reports what every
 * plan-based implementation reports: the engine as its state, two chunks as the preferred batch,
 * the output written by the plan, and the log line (the plan's description, then `extra` if not
 * NULL, then the chunk size). */
gpufec_status engine_start(const decoder_config* cfg, const engine_plan_ops* ops, void* plan, uint32_t B,
                           const char* extra, void** state, impl_caps* caps);

/* The device's limits that plans size their kernels against (cfg->opts.device), read in this
 * one place: the device's own, or with GPUFEC_CUDA_SMALL_GPU those of a GeForce-class GPU
 * (ENGINE_SMALL_*: 99 KB of shared memory a block, 100 KB and 1536 threads an SM, 28 SMs) where
 * those are smaller, so that a large GPU runs the plans such a card takes. Zero where the
 * runtime cannot say. */
struct device_limits {
    int optin;          /* shared memory bytes a block may opt in to */
    int per_sm;         /* shared memory bytes per SM */
    int sms;            /* multiprocessors */
    int threads_per_sm; /* resident threads per SM */
};
device_limits engine_device_limits(const decoder_config* cfg);
/* Blocks of `kernel` resident per SM at `threads` threads and `smem` dynamic bytes, within
 * engine_device_limits; 0 where the runtime cannot say. */
int engine_blocks_per_sm(const decoder_config* cfg, const void* kernel, int threads, size_t smem);
/* Whether a chunk's kernels that pack the output themselves (engine_plan_ops.writes_packed) are
 * all that packed output needs: packed output of no more bits than the plan writes, without a CRC
 * or with the CRC's bits following the caller's (crc_word: the CRC is checked on the bits the
 * kernel packs), and not turned off by GPUFEC_CUDA_PACK_AFTER. The engine's rule (may_pack), also
 * read by plans to describe themselves. */
bool engine_packs_in_kernel(const decoder_config* cfg);

/* 1 when a usable device `device` exists; else 0 and why. */
extern "C" int cuda_backend_probe(int device, char* why, size_t why_len);

#endif
