/* The generic layered plan: any H whose posteriors fit in shared memory (float, or half for the
 * longest codes), a thread or a warp per row, check messages on chip, per edge in global memory,
 * or compressed per row (min-sum). The kernels are in layered_kernel.cuh. */
#include "cuda_tuning.h"
#include "graph_dev.cuh"
#include "layered_kernel.cuh"
#include "ldpc_plans.cuh"

#include <stdio.h>
#include <stdlib.h>

namespace {

struct layered_plan {
    const decoder_config* cfg;
    ldpc_graph_dev g;
    int half, warp, c2v_smem, compressed, threads;
    size_t smem;
    char describe[160];
};

/* Chooses where posteriors and messages live; 0 (and why) when the posteriors do not fit. */
int choose_layout(const decoder_config* cfg, layered_plan* s, char* why, size_t why_len)
{
    const ldpc_code* c = ldpc_of(cfg->code);
    const int optin = engine_device_limits(cfg).optin;
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
        snprintf(why, why_len, "N=%u does not fit the layered kernel's shared memory (%d bytes)", c->n, optin);
        return 0;
    }
    /* Long rows: a warp per row (lanes over edges); short rows: a thread per row. */
    s->warp = c->edges >= 12u * c->m;
    /* Min-sum messages in global memory: 16 bytes per row instead of 4 per edge. */
    s->compressed = !s->warp && !s->c2v_smem && ldpc_opts_of(&cfg->opts).algorithm != GPUFEC_ALG_SPA && c->max_check_degree <= 32 &&
                    !(cfg->opts.cuda_tuning & GPUFEC_CUDA_NO_COMPRESSED_MESSAGES);
    if (s->warp) {
        uint32_t w = c->max_layer_rows < 16 ? c->max_layer_rows : 16;
        s->threads = (int)(32 * (w ? w : 1));
    } else {
        uint32_t t = 32;
        while (t < c->max_layer_rows && t < 512)
            t *= 2;
        s->threads = (int)t;
    }
    snprintf(s->describe, sizeof s->describe, "layered, posteriors in shared memory%s%s%s, %d threads per frame",
             s->half ? " (fp16)" : "", s->c2v_smem ? ", messages in shared memory" : "",
             s->warp ? ", a warp per row" : s->compressed ? ", compressed min-sum messages" : "", s->threads);
    return 1;
}

/* Instantiation chosen at run time from the four kernel switches. */
template <typename AppT, bool SPA, bool WARP, bool SM> struct layered_kernel {
    static cudaError_t allow(size_t bytes)
    {
        return cuda_allow_shared((const void*)k_layered<AppT, SPA, WARP, SM>, bytes);
    }
    static void launch(const layered_args& a, uint32_t nf, int threads, size_t smem, cudaStream_t st)
    {
        k_layered<AppT, SPA, WARP, SM><<<nf, threads, smem, st>>>(a);
    }
};

template <typename AppT, bool SPA, bool WARP>
cudaError_t layered_dispatch(const layered_plan* s, const layered_args* a, uint32_t nf, cudaStream_t st)
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
cudaError_t layered_run(const layered_plan* s, bool spa, const layered_args* a, uint32_t nf, cudaStream_t st)
{
    if (s->compressed) {
        if (!a)
            return s->half ? cuda_allow_shared((const void*)k_layered_compressed<__half>, s->smem)
                           : cuda_allow_shared((const void*)k_layered_compressed<float>, s->smem);
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

size_t layered_state_bytes(const void* plan, uint32_t B)
{
    const layered_plan* s = (const layered_plan*)plan;
    const ldpc_code* c = ldpc_of(s->cfg->code);
    if (s->compressed)
        return (size_t)16 * c->m * B; /* a uint4 per row */
    return s->c2v_smem ? 0 : (size_t)4 * c->edges * B;
}

cudaError_t layered_launch(const void* plan, const engine_chunk* ch, cudaStream_t st)
{
    const layered_plan* s = (const layered_plan*)plan;
    const decoder_config* cfg = s->cfg;
    const gpufec_decoder_opts* o = &cfg->opts;
    const ldpc_opts lo = ldpc_opts_of(o);
    const ldpc_code* c = ldpc_of(cfg->code);
    layered_args a = {s->g.out_pos, cfg->out_len, s->g.row_ptr, s->g.edge_var, s->g.layer_ptr, s->g.layer_rows,
                      s->g.map.view(), c->n, c->m, c->edges, cfg->code->tx.n_tx, c->n_layers, ch->in,
                      (float*)ch->state, ch->out, ch->iterations, ch->converged, o->max_iterations,
                      o->early_termination, (int)lo.algorithm, lo.syndrome_interval, lo.normalization, lo.offset};
    layered_run(s, lo.algorithm == GPUFEC_ALG_SPA, &a, ch->nf, st);
    return cudaGetLastError();
}

const char* layered_describe(const void* plan) { return ((const layered_plan*)plan)->describe; }

void layered_destroy(void* plan)
{
    layered_plan* p = (layered_plan*)plan;
    ldpc_graph_free(&p->g);
    free(p);
}

} // namespace

const engine_plan_ops layered_plan_ops = {layered_describe, layered_state_bytes, layered_launch, layered_destroy};

void* layered_plan_create(const decoder_config* cfg, char* why, size_t why_len, gpufec_status* st)
{
    *st = GPUFEC_OK;
    layered_plan* p = (layered_plan*)calloc(1, sizeof *p);
    if (!p) {
        *st = GPUFEC_ERR_OUT_OF_MEMORY;
        return NULL;
    }
    p->cfg = cfg;
    if (!choose_layout(cfg, p, why, why_len)) {
        free(p);
        return NULL;
    }
    *st = engine_status(cfg, ldpc_graph_upload(cfg, 1, &p->g), "upload");
    if (*st == GPUFEC_OK)
        *st = engine_status(cfg, layered_run(p, ldpc_opts_of(&cfg->opts).algorithm == GPUFEC_ALG_SPA, NULL, 0, 0),
                            "cudaFuncSetAttribute");
    if (*st != GPUFEC_OK) {
        layered_destroy(p);
        return NULL;
    }
    return p;
}
