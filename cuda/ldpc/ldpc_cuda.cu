/* The binary LDPC implementations on CUDA: which kernel plan serves a configuration, and the
 * registry records. The engine (cuda/common/engine.cu) runs the plan. */
#include "engine.cuh"
#include "ldpc_plans.cuh"

extern "C" {
#include "ldpc_code.h"
}

#include <stdio.h>
#include <stdlib.h>

namespace {

/* Frames per chunk for the soft plans, from the device unless set: a budget of at most 1 GiB per
 * slot and at most a quarter of the memory free now (two slots, room left for other contexts),
 * at least a warp, at most 16384 frames; a multiple of `wave` (frames one full wave of thread
 * blocks decodes; the SM count when not known) where that still fits, so that the last wave is
 * full, and at most WAVES_PER_CHUNK waves where the plan knows its wave, so that a large call
 * runs as several chunks whose transfers overlap the other chunks' kernels (the two-frame plans'
 * small workspace had made 8192 blocks one chunk: no overlap at all). Where 1 GiB holds less
 * than one wave but the quarter of free memory holds one, one wave: a chunk below it leaves
 * SMs idle for the whole kernel (H200, DVB-S2 normal 1/2 at int8, groups of four frames with
 * their posteriors in global memory: 1248 frames, 312 groups on 396 resident blocks, ran 21%
 * slower per frame than 1584). `per_frame`: the plan's workspace per frame, 0 for an estimate. */
#define WAVES_PER_CHUNK 4
uint32_t choose_batch(const decoder_config* cfg, size_t per_frame, uint32_t wave)
{
    if (cfg->opts.max_batch)
        return cfg->opts.max_batch;
    const size_t most = wave ? (size_t)wave * WAVES_PER_CHUNK : 16384;
    const ldpc_code* c = ldpc_of(cfg->code);
    size_t free_b = 0, total_b = 0;
    size_t budget = (size_t)1 << 30, room = budget; /* room: a quarter of the free memory, where known */
    if (cudaMemGetInfo(&free_b, &total_b) == cudaSuccess)
        room = free_b / 4;
    else
        (void)cudaGetLastError();
    if (room < budget)
        budget = room;
    if (!wave) {
        const int sms = engine_device_limits(cfg).sms;
        wave = sms > 0 ? (uint32_t)sms : 32;
    }
    if (per_frame)
        per_frame += (size_t)8 * cfg->code->tx.n_tx + 2 * (size_t)c->n + 16; /* soft bits in, widened, out */
    else
        per_frame = (size_t)4 * (c->edges + 3 * (size_t)c->n) + 2 * (size_t)c->n + 16;
    size_t b = budget / per_frame;
    if (b < wave && wave <= 16384 && room / per_frame >= wave)
        b = wave;
    b = b < 32 ? 32 : b > 16384 ? 16384 : b;
    if (b > most)
        b = most;
    if (b >= wave)
        b -= b % wave;
    else
        b &= ~(size_t)31;
    return (uint32_t)(b ? b : 32);
}

gpufec_status start_engine(const decoder_config* cfg, const engine_plan_ops* ops, void* plan, uint32_t B,
                           void** state, impl_caps* caps)
{
    return engine_start(cfg, ops, plan, B, gpufec_precision_name(ldpc_opts_of(&cfg->opts).precision), state, caps);
}

/* QC layered where the code has the view, else generic layered where the posteriors fit on chip,
 * else flooding (the layered schedule then falls back, logged). Reduced precision needs QC. */
gpufec_status soft_create(const decoder_config* cfg, void** state, impl_caps* caps)
{
    ENGINE_CHECK(cfg, cudaSetDevice(cfg->opts.device), "cudaSetDevice");
    caps->asymmetric = ldpc_precision_asymmetric(ldpc_opts_of(&cfg->opts).precision);
    const uint32_t B = choose_batch(cfg, 0, 0);
    char why[160] = "";
    gpufec_status st = GPUFEC_OK;
    void* plan = qc_plan_create(cfg, why, sizeof why, &st);
    if (plan)
        return start_engine(cfg, &qc_plan_ops, plan,
                            choose_batch(cfg, qc_state_bytes_per_frame(plan), qc_wave_frames(plan)),
                            state, caps);
    if (st != GPUFEC_OK) {
        decoder_log(cfg, GPUFEC_LOG_ERROR, "QC layered kernel: %s", why);
        return st;
    }
    if (ldpc_opts_of(&cfg->opts).precision != GPUFEC_PRECISION_FLOAT32) {
        decoder_log(cfg, GPUFEC_LOG_ERROR, "precision %s on the GPU: %s", gpufec_precision_name(ldpc_opts_of(&cfg->opts).precision),
                    why);
        return GPUFEC_ERR_UNSUPPORTED;
    }
    if (cfg->opts.schedule == GPUFEC_SCHEDULE_LAYERED) {
        plan = layered_plan_create(cfg, why, sizeof why, &st);
        if (plan)
            return start_engine(cfg, &layered_plan_ops, plan, B, state, caps);
        if (st != GPUFEC_OK)
            return st;
        decoder_log(cfg, GPUFEC_LOG_WARNING, "%s; using flooding", why);
        caps->schedule = GPUFEC_SCHEDULE_FLOODING;
    }
    plan = flooding_plan_create(cfg, why, sizeof why, &st);
    return plan ? start_engine(cfg, &flooding_plan_ops, plan, B, state, caps) : st;
}

gpufec_status hard_create(const decoder_config* cfg, void** state, impl_caps* caps)
{
    ENGINE_CHECK(cfg, cudaSetDevice(cfg->opts.device), "cudaSetDevice");
    char why[160] = "";
    gpufec_status st = GPUFEC_OK;
    void* plan = hard_plan_create(cfg, why, sizeof why, &st);
    if (!plan) {
        if (st == GPUFEC_OK) {
            decoder_log(cfg, GPUFEC_LOG_WARNING, "CUDA %s: %s", gpufec_algorithm_name(ldpc_opts_of(&cfg->opts).algorithm), why);
            st = GPUFEC_ERR_UNSUPPORTED;
        }
        return st;
    }
    const uint32_t B = cfg->opts.max_batch ? ((cfg->opts.max_batch + 31) / 32) * 32 : 4096; /* words of 32 */
    return start_engine(cfg, &hard_plan_ops, plan, B, state, caps);
}

/* The device first: without a GPU that is the reason worth reporting (the front reports a
 * reason once however many entries give it), not which algorithms an entry runs. */
int soft_accepts(const decoder_config* cfg, char* why, size_t why_len)
{
    if (!cuda_backend_probe(cfg->opts.device, why, why_len))
        return 0;
    if (ldpc_is_hard(ldpc_opts_of(&cfg->opts).algorithm)) {
        snprintf(why, why_len, "soft-decision algorithms only");
        return 0;
    }
    return 1;
}

int hard_accepts(const decoder_config* cfg, char* why, size_t why_len)
{
    if (!cuda_backend_probe(cfg->opts.device, why, why_len))
        return 0;
    if (!ldpc_is_hard(ldpc_opts_of(&cfg->opts).algorithm)) {
        snprintf(why, why_len, "hard-decision algorithms only");
        return 0;
    }
    return 1;
}

} // namespace

extern "C" const backend_ops ldpc_cuda_ops = {
    "cuda", GPUFEC_FAMILY_LDPC, GPUFEC_BACKEND_CUDA, /* raw_input */ 1, soft_accepts, soft_create, engine_destroy_state,
    engine_decode, engine_decode_async, engine_synchronize, engine_kernel_seconds,
};

extern "C" const backend_ops ldpc_cuda_hard_ops = {
    "cuda-hard", GPUFEC_FAMILY_LDPC, GPUFEC_BACKEND_CUDA, /* raw_input */ 1, hard_accepts, hard_create, engine_destroy_state,
    engine_decode, engine_decode_async, engine_synchronize, engine_kernel_seconds, engine_set_frame_index,
};
