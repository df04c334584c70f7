/* LTE turbo decoding on CUDA: one thread block per frame, one thread per sub-block (P of them),
 * the engine's pipeline around it. Each thread runs the same soft-in/soft-out rule as the CPU
 * reference (lib/turbo/turbo_rules.h) over its sub-block; a barrier separates the half-
 * iterations, so the interleaver can exchange extrinsic values between sub-blocks. The window
 * of recomputed forward metrics lives in registers, the window checkpoints in shared memory
 * (thread-interleaved, so a warp's accesses hit distinct banks); the frame's soft values and extrinsic arrays in the slot's global workspace, stored
 * sub-block-interleaved (stage k of sub-block j at k * P + j) so that the natural half-decoder's
 * threads read consecutive words. */
#include "cuda_tuning.h"

/* The turbo plan's measurement switches (cuda_tuning bits 16, 32, 64). */
#define GPUFEC_CUDA_TURBO_CKPT_SHARED 16u  /* window checkpoints in shared memory */
#define GPUFEC_CUDA_TURBO_FRAME_GLOBAL 32u /* frame arrays in global memory */
#define GPUFEC_CUDA_TURBO_FRAME_SHARED 64u /* frame arrays in shared memory where they fit */
#include "engine.cuh"

extern "C" {
#include "turbo_code.h"
#include "turbo_options.h"
}

#include <stdio.h>
#include <stdlib.h>

namespace {

struct turbo_args {
    tx_map_view map;
    const uint32_t* perm;    /* K: pi(k) (for the encoder of the decided bits) */
    const uint32_t* nat_addr;  /* K: where natural position i is stored */
    const uint32_t* perm_addr; /* at stage k's address: where position pi(k) is stored */
    const uint32_t* out_pos; /* out_len mother positions; NULL: the whole mother codeword */
    uint32_t K, n_tx, n_full, out_len, crc_poly, info_out;
    turbo_split split;
    int max_iterations, early, logmap;
    float scale;
    size_t frame_floats;     /* workspace per frame, in 4-byte words */
    uint32_t metrics_per_thread; /* window checkpoints */
    int metrics_in_smem;         /* else in the frame's workspace */
    int frame_in_smem;           /* sys, l12, l21 in shared memory, else in the workspace */
    uint32_t threads;            /* per block: P rounded up to a warp */
};

/* Workspace of one frame: sys, par0, par1, l12, l21 (K floats each), the window checkpoints
 * when shared memory cannot hold them, the guard records (2 halves x 2 kinds x P), hard decisions
 * and the previous ones (K bytes each). */
struct frame_ws {
    float *sys, *par0, *par1, *l12, *l21;
    turbo_metrics *alpha, *store_a, *store_b; /* 2 P each: half h, block j at h P + j */
    uint8_t *hard, *prev;
};

__host__ __device__ size_t carve(const turbo_args& a, void* base, frame_ws* w)
{
    unsigned char* p = (unsigned char*)base;
    size_t off = 0;
    auto take = [&](size_t bytes) {
        unsigned char* r = p ? p + off : nullptr;
        off += (bytes + 15) & ~(size_t)15;
        return r;
    };
    const size_t K = a.K, P = a.split.P, L = P * a.split.w; /* the layout pads K to P w */
    frame_ws x;
    const size_t fl = a.frame_in_smem ? 0 : L * 4;
    x.sys = (float*)take(fl);
    x.par0 = (float*)take(L * 4);
    x.par1 = (float*)take(L * 4);
    x.l12 = (float*)take(fl);
    x.l21 = (float*)take(fl);
    x.alpha = (turbo_metrics*)take(a.metrics_in_smem ? 0 : a.threads * (size_t)a.metrics_per_thread * sizeof(turbo_metrics));
    x.store_a = (turbo_metrics*)take(2 * P * sizeof(turbo_metrics));
    x.store_b = (turbo_metrics*)take(2 * P * sizeof(turbo_metrics));
    x.hard = (uint8_t*)take(K);
    x.prev = (uint8_t*)take(K + 3 * (K + 4)); /* also the re-encoded mother codeword */
    if (w)
        *w = x;
    return off;
}

/* LOGMAP is a template constant so that Max-Log-MAP carries none of Log-MAP's correction terms
 * (with a run-time flag the compiler evaluated both sides of every max*). */
template <int LOGMAP>
__global__ void k_turbo(turbo_args a, const float* __restrict__ in, unsigned char* ws, uint8_t* out, int32_t* iters,
                        uint8_t* conv)
{
    const uint32_t f = blockIdx.x, tid = threadIdx.x, nt = blockDim.x, K = a.K;
    frame_ws w;
    carve(a, ws + (size_t)f * a.frame_floats * 4, &w);
    __shared__ float tail[12];
    __shared__ turbo_metrics beta_K[2];
    __shared__ int ok_s;
    extern __shared__ float smem_f[];
    float* smem_ckpt = smem_f;
    if (a.frame_in_smem) {
        const uint32_t L = a.split.P * a.split.w;
        w.sys = smem_f;
        w.l12 = smem_f + L;
        w.l21 = smem_f + 2 * L;
        smem_ckpt = smem_f + 3 * L;
    }
    const turbo_ckpt ckpt = {(a.metrics_in_smem ? smem_ckpt : w.alpha->m) + tid, nt};
    const float* frame = in + (size_t)f * a.n_tx;
    int carries = 0;
    for (uint32_t i = tid; i < K; i += nt) {
        const uint32_t s = a.nat_addr[i];
        w.sys[s] = tx_map_load(a.map, 3 * i, frame, &carries);
        w.par0[s] = tx_map_load(a.map, 3 * i + 1, frame, &carries);
        w.par1[s] = tx_map_load(a.map, 3 * i + 2, frame, &carries);
        w.l12[s] = 0.0f;
        w.l21[s] = 0.0f;
    }
    for (uint32_t t = tid; t < 12; t += nt)
        tail[t] = tx_map_load(a.map, 3 * K + t, frame, &carries);
    for (uint32_t j = tid; j < a.split.P; j += nt)
        for (int h = 0; h < 2; h++) {
            turbo_equal(&w.store_a[h * a.split.P + j]);
            turbo_equal(&w.store_b[h * a.split.P + j]);
        }
    const int has_info = __syncthreads_or(carries);
    if (tid == 0) {
        turbo_tail_beta(tail, &beta_K[0]);
        turbo_tail_beta(tail + 6, &beta_K[1]);
    }
    __syncthreads();
    int it = 0, ok = 0;
    const int last = a.max_iterations - 1;
    while (it <= last) {
        const float scale = turbo_iteration_scale(LOGMAP, a.scale, it, last);
        for (int half = 0; half < 2; half++) {
            const turbo_half h = {w.sys,   half ? w.par1 : w.par0, half ? w.l12 : w.l21, half ? w.l21 : w.l12,
                                  half ? a.perm_addr : nullptr, K, a.split.w, a.split.P, scale, LOGMAP};
            const uint32_t j = tid;
            turbo_metrics alpha, beta;
            if (j < a.split.P)
                turbo_block_init(&h, &a.split, j, &w.store_a[half * a.split.P + j], &w.store_b[half * a.split.P + j], &beta_K[half], &alpha,
                                 &beta);
            __syncthreads(); /* every block read its records before any is rewritten */
            if (j < a.split.P) {
                turbo_metrics rec_a, rec_b;
                turbo_subblock(&h, turbo_block_start(&a.split, j), turbo_block_end(&a.split, j), alpha, beta, ckpt,
                               turbo_mark_alpha(&a.split, j), turbo_mark_beta(&a.split, j),
                               &rec_a, &rec_b);
                if (j + 1 < a.split.P)
                    w.store_a[half * a.split.P + j + 1] = rec_a;
                if (j > 0)
                    w.store_b[half * a.split.P + j - 1] = rec_b;
            }
            __syncthreads();
        }
        int differs = 0;
        for (uint32_t i = tid; i < K; i += nt) {
            const uint32_t s = a.nat_addr[i];
            const uint8_t b = (uint8_t)(w.sys[s] + w.l12[s] + w.l21[s] < 0.0f);
            differs |= b != w.prev[i];
            w.hard[i] = b;
        }
        differs = __syncthreads_or(differs);
        if (tid == 0)
            ok_s = a.crc_poly ? turbo_crc24_register(w.hard, K, a.crc_poly) == 0 : it > 0 && !differs;
        __syncthreads();
        ok = ok_s;
        it++;
        if (ok && a.early)
            break;
        for (uint32_t i = tid; i < K; i += nt)
            w.prev[i] = w.hard[i];
        __syncthreads();
    }
    uint8_t* o = out + (size_t)f * a.out_len;
    if (a.info_out) { /* information bits: the decisions at systematic positions */
        for (uint32_t t = tid; t < a.out_len; t += nt)
            o[t] = w.hard[a.out_pos[t] / 3];
    } else { /* the codeword of the decisions, as the CPU returns it */
        uint8_t* m = w.prev + K;
        if (tid < 2) { /* the two constituent encoders, one thread each */
            uint32_t s = 0;
            for (uint32_t k = 0; k < K; k++) {
                const uint32_t b = w.hard[tid ? a.perm[k] : k];
                m[3 * k + 1 + tid] = (uint8_t)turbo_parity(s, b);
                if (!tid)
                    m[3 * k] = (uint8_t)b;
                s = turbo_next(s, b);
            }
            for (int t = 0; t < 3; t++) {
                const uint32_t b = turbo_tail_input(s);
                m[3 * K + 6 * tid + 2 * t] = (uint8_t)b;
                m[3 * K + 6 * tid + 2 * t + 1] = (uint8_t)turbo_parity(s, b);
                s = turbo_next(s, b);
            }
        }
        __syncthreads();
        for (uint32_t t = tid; t < a.out_len; t += nt)
            o[t] = m[a.out_pos ? a.out_pos[t] : t];
    }
    if (tid == 0) {
        iters[f] = it;
        conv[f] = (uint8_t)(ok && has_info);
    }
}

struct turbo_plan {
    const decoder_config* cfg;
    turbo_args args;
    tx_map_dev map;
    uint32_t *perm, *out_pos, *nat_addr, *perm_addr;
    int threads;
    size_t smem;
    char describe[128];
};

size_t plan_state_bytes(const void* plan, uint32_t B)
{
    const turbo_plan* p = (const turbo_plan*)plan;
    return p->args.frame_floats * 4 * (size_t)B;
}

cudaError_t plan_launch(const void* plan, const engine_chunk* ch, cudaStream_t st)
{
    const turbo_plan* p = (const turbo_plan*)plan;
    turbo_args a = p->args;
    a.max_iterations = p->cfg->opts.max_iterations;
    (a.logmap ? k_turbo<1> : k_turbo<0>)<<<ch->nf, p->threads, p->smem, st>>>(a, ch->in, (unsigned char*)ch->state, ch->out, ch->iterations,
                                           ch->converged);
    return cudaGetLastError();
}

const char* plan_describe(const void* plan) { return ((const turbo_plan*)plan)->describe; }

void plan_destroy(void* plan)
{
    turbo_plan* p = (turbo_plan*)plan;
    if (!p)
        return;
    cudaFree(p->perm);
    cudaFree(p->out_pos);
    cudaFree(p->nat_addr);
    cudaFree(p->perm_addr);
    tx_map_dev_free(&p->map);
    free(p);
}

const engine_plan_ops turbo_plan_ops = {plan_describe, plan_state_bytes, plan_launch, plan_destroy};

gpufec_status create(const decoder_config* cfg, void** state, impl_caps* caps)
{
    ENGINE_CHECK(cfg, cudaSetDevice(cfg->opts.device), "cudaSetDevice");
    const turbo_code* t = turbo_of(cfg->code);
    turbo_plan* p = (turbo_plan*)calloc(1, sizeof *p);
    if (!p)
        return GPUFEC_ERR_OUT_OF_MEMORY;
    p->cfg = cfg;
    turbo_args& a = p->args;
    a.K = t->K;
    a.n_tx = cfg->code->tx.n_tx;
    a.n_full = cfg->code->n_full;
    a.out_len = cfg->out_len;
    a.crc_poly = t->crc ? (t->crc_b ? TURBO_CRC24B : TURBO_CRC24A) : 0;
    a.info_out = cfg->opts.output == GPUFEC_OUTPUT_INFO;
    const turbo_opts to = turbo_opts_of(&cfg->opts);
    a.split = turbo_make_split(t->K, (uint32_t)to.subblocks, to.guard, (uint32_t)to.window);
    a.early = cfg->opts.early_termination;
    a.logmap = to.turbo_algorithm == GPUFEC_TURBO_LOG_MAP;
    a.scale = to.extrinsic_scale;
    a.metrics_per_thread = turbo_checkpoints(a.split.w);
    p->threads = (int)((a.split.P + 31) / 32 * 32);
    a.threads = (uint32_t)p->threads;
    const int optin = engine_device_limits(cfg).optin;
    /* Checkpoints go to the frame's workspace (cached; the backward pass prefetches them a window
     * ahead) unless asked for shared memory, which would limit the frames per SM. The frame's
     * randomly read arrays (systematic and both extrinsic) go to shared memory when that costs no
     * frames per SM (registers usually bound them), else they stay in the workspace. */
    const size_t ckpt_bytes = (size_t)p->threads * a.metrics_per_thread * sizeof(turbo_metrics);
    const size_t frame_bytes = (size_t)3 * a.split.P * a.split.w * sizeof(float);
    a.metrics_in_smem = (cfg->opts.cuda_tuning & GPUFEC_CUDA_TURBO_CKPT_SHARED) && ckpt_bytes <= (size_t)optin;
    const size_t base_smem = a.metrics_in_smem ? ckpt_bytes : 0;
    auto kernel = a.logmap ? k_turbo<1> : k_turbo<0>;
    int blocks_without = 0, blocks_with = 0;
    if (base_smem + frame_bytes <= (size_t)optin) {
        (void)cuda_allow_shared((const void*)kernel, base_smem + frame_bytes);
        blocks_without = engine_blocks_per_sm(cfg, (const void*)kernel, p->threads, base_smem);
        blocks_with = engine_blocks_per_sm(cfg, (const void*)kernel, p->threads, base_smem + frame_bytes);
    }
    if (cfg->opts.cuda_tuning & GPUFEC_CUDA_TURBO_FRAME_GLOBAL)
        a.frame_in_smem = 0;
    else if (cfg->opts.cuda_tuning & GPUFEC_CUDA_TURBO_FRAME_SHARED)
        a.frame_in_smem = blocks_with > 0;
    else
        a.frame_in_smem = blocks_with > 0 && blocks_with >= blocks_without;
    p->smem = base_smem + (a.frame_in_smem ? frame_bytes : 0);
    a.frame_floats = (carve(a, nullptr, nullptr) + 3) / 4;
    if (p->threads > 1024) {
        free(p);
        decoder_log(cfg, GPUFEC_LOG_WARNING, "CUDA turbo decoder: %u sub-blocks, at most 1024", a.split.P);
        return GPUFEC_ERR_UNSUPPORTED;
    }
    /* The sub-block-interleaved layout: position i of sub-block j = i / w, offset i % w. */
    uint32_t* nat = (uint32_t*)malloc((size_t)t->K * sizeof *nat);
    const size_t L = (size_t)a.split.P * a.split.w; /* the layout pads K to P w */
    uint32_t* pa = (uint32_t*)calloc(L, sizeof *pa);
    if (!nat || !pa) {
        free(nat), free(pa), free(p);
        return GPUFEC_ERR_OUT_OF_MEMORY;
    }
    for (uint32_t i = 0; i < t->K; i++)
        nat[i] = (i % a.split.w) * a.split.P + i / a.split.w;
    for (uint32_t k = 0; k < t->K; k++)
        pa[nat[k]] = nat[t->perm[k]];
    gpufec_status st = engine_status(cfg, dev_upload(&p->perm, t->perm, t->K), "upload");
    if (st == GPUFEC_OK)
        st = engine_status(cfg, dev_upload(&p->nat_addr, nat, t->K), "upload");
    if (st == GPUFEC_OK)
        st = engine_status(cfg, dev_upload(&p->perm_addr, pa, L), "upload");
    free(nat), free(pa);
    if (st == GPUFEC_OK)
        st = engine_status(cfg, cuda_allow_shared((const void*)kernel, p->smem), "cudaFuncSetAttribute");
    if (st == GPUFEC_OK)
        st = engine_upload_io(cfg, &p->out_pos, &p->map);
    if (st != GPUFEC_OK) {
        plan_destroy(p);
        return st;
    }
    a.map = p->map.view();
    a.perm = p->perm;
    a.out_pos = p->out_pos;
    a.nat_addr = p->nat_addr;
    a.perm_addr = p->perm_addr;
    snprintf(p->describe, sizeof p->describe,
             "turbo %s, P=%u sub-blocks of %u stages, guard %s, checkpoints in %s memory, frame in %s memory",
             a.logmap ? "Log-MAP" : "Max-Log-MAP", a.split.P, a.split.w,
             gpufec_turbo_guard_name((gpufec_turbo_guard)to.guard), a.metrics_in_smem ? "shared" : "global",
             a.frame_in_smem ? "shared" : "global");
    /* Frames per chunk: at most 256 MiB of workspace per slot, 4096 frames. */
    return engine_start(cfg, &turbo_plan_ops, p, engine_chunk_frames(cfg, a.frame_floats * 4, (size_t)256 << 20, 4096),
                        NULL, state, caps);
}

int accepts(const decoder_config* cfg, char* why, size_t why_len)
{
    const int arithmetic = turbo_opts_of(&cfg->opts).turbo_arithmetic;
    if (arithmetic == GPUFEC_TURBO_INT16 || arithmetic == GPUFEC_TURBO_INT8) {
        snprintf(why, why_len, "arithmetic=%s: fixed point runs on the CPU (AVX2 / AVX-512)",
                 gpufec_turbo_arithmetic_name((gpufec_turbo_arithmetic)arithmetic));
        return 0;
    }
    return cuda_backend_probe(cfg->opts.device, why, why_len);
}

} // namespace

extern "C" const backend_ops turbo_cuda_ops = {
    "cuda", GPUFEC_FAMILY_TURBO, GPUFEC_BACKEND_CUDA, /* raw_input */ 1, accepts, create, engine_destroy_state,
    engine_decode, engine_decode_async, engine_synchronize, engine_kernel_seconds,
};
