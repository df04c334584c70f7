/* Flooding belief propagation for any H (SPA and the min-sum family): every check, then every
 * variable, per iteration. Per-variable and per-edge arrays are interleaved over the frames of a
 * chunk, x[index * B + frame], so a warp handles 32 frames of one check or variable (coalesced).
 * Early termination runs on the device. */
#include "erasure.cuh"
#include "graph_dev.cuh"
#include "ldpc_plans.cuh"
#include "ldpc_rules.h"

#include <stdlib.h>

namespace {

__global__ void k_load(const float* __restrict__ in, tx_map_view map,
                       float* __restrict__ llr, float* __restrict__ app, uint8_t* active,
                       uint8_t* conv, int32_t* iters, uint32_t n, uint32_t n_tx, uint32_t B,
                       uint32_t nf)
{
    /* Reads frame-major transmitted input and writes the interleaved full-codeword layout:
     * the transmission map's rule (tx_map.h), as on the CPU. */
    size_t idx = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (idx >= (size_t)n * nf)
        return;
    uint32_t f = (uint32_t)(idx / n), j = (uint32_t)(idx % n);
    const float v = tx_map_value(map, j, in + (size_t)f * n_tx);
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
            spa_push(&acc, spa_term_fast(app[(size_t)edge_var[e] * B + f] - c2v[(size_t)e * B + f]));
        for (uint32_t e = b; e < e_end; e++) {
            float* msg = &c2v[(size_t)e * B + f];
            *msg = spa_output_fast(&acc, spa_term_fast(app[(size_t)edge_var[e] * B + f] - *msg));
        }
    } else {
        const int mode = ldpc_ms_mode(alg);
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

struct flooding_plan {
    const decoder_config* cfg;
    ldpc_graph_dev g;
};

struct flooding_state {
    float *llr, *app, *c2v;
    uint8_t *active, *synd, *has_info;
};

flooding_state carve(const flooding_plan* p, void* base, uint32_t B, size_t* bytes)
{
    const ldpc_code* c = ldpc_of(p->cfg->code);
    workspace_cursor w = {(unsigned char*)base, 0};
    flooding_state s;
    s.llr = w.take<float>((size_t)c->n * B);
    s.app = w.take<float>((size_t)c->n * B);
    s.c2v = w.take<float>((size_t)c->edges * B);
    s.active = w.take<uint8_t>(B);
    s.synd = w.take<uint8_t>(B);
    s.has_info = w.take<uint8_t>(B);
    if (bytes)
        *bytes = w.used;
    return s;
}

size_t flooding_state_bytes(const void* plan, uint32_t B)
{
    size_t bytes = 0;
    carve((const flooding_plan*)plan, nullptr, B, &bytes);
    return bytes;
}

cudaError_t flooding_launch(const void* plan, const engine_chunk* ch, cudaStream_t st)
{
    const flooding_plan* p = (const flooding_plan*)plan;
    const decoder_config* cfg = p->cfg;
    const gpufec_decoder_opts* o = &cfg->opts;
    const ldpc_opts lo = ldpc_opts_of(o);
    const ldpc_code* c = ldpc_of(cfg->code);
    const uint32_t n = c->n, B = ch->B, nf = ch->nf, n_tx = cfg->code->tx.n_tx;
    const flooding_state s = carve(p, ch->state, B, nullptr);
    const unsigned T = 128;
    const size_t total = (size_t)n * nf;
    const dim3 grid_f((nf + 63) / 64), blk_f(64);
    cudaError_t e = cudaMemsetAsync(s.synd, 0, B, st);
    if (e == cudaSuccess)
        e = cudaMemsetAsync(s.c2v, 0, (size_t)c->edges * B * sizeof(float), st);
    if (e != cudaSuccess)
        return e;
    k_has_information<<<nf, 128, 0, st>>>(ch->in, n_tx, s.has_info);
    k_load<<<(unsigned)((total + T - 1) / T), T, 0, st>>>(ch->in, p->g.map.view(), s.llr, s.app, s.active,
                                                          ch->converged, ch->iterations, n, n_tx, B, nf);
    for (int it = 0; it < o->max_iterations; it++) {
        const int last = it + 1 == o->max_iterations;
        const int check = o->early_termination && (it + 1) % lo.syndrome_interval == 0;
        k_checks<<<dim3(grid_f.x, c->m), blk_f, 0, st>>>(p->g.row_ptr, p->g.edge_var, s.app, s.c2v, s.active, c->m,
                                                         B, nf, (int)lo.algorithm, lo.normalization, lo.offset);
        k_vars<<<dim3(grid_f.x, n), blk_f, 0, st>>>(p->g.col_ptr, p->g.col_edge, s.llr, s.c2v, s.app, s.active, B,
                                                    nf);
        if (check || last)
            k_syndrome<<<dim3(grid_f.x, c->m), blk_f, 0, st>>>(p->g.row_ptr, p->g.edge_var, s.app, s.active,
                                                               s.synd, B, nf);
        k_retire<<<grid_f, blk_f, 0, st>>>(s.active, ch->converged, s.synd, ch->iterations, s.has_info, nf, check,
                                           last);
    }
    if (p->g.out_pos)
        k_store_info<<<(unsigned)(((size_t)cfg->out_len * nf + T - 1) / T), T, 0, st>>>(
            s.app, p->g.out_pos, ch->out, cfg->out_len, B, nf);
    else
        k_store<<<(unsigned)((total + T - 1) / T), T, 0, st>>>(s.app, ch->out, n, B, nf);
    return cudaGetLastError();
}

const char* flooding_describe(const void* plan)
{
    (void)plan;
    return "flooding, 64 frames per thread block";
}

void flooding_destroy(void* plan)
{
    flooding_plan* p = (flooding_plan*)plan;
    ldpc_graph_free(&p->g);
    free(p);
}

} // namespace

const engine_plan_ops flooding_plan_ops = {flooding_describe, flooding_state_bytes, flooding_launch, flooding_destroy};

void* flooding_plan_create(const decoder_config* cfg, char* why, size_t why_len, gpufec_status* st)
{
    (void)why, (void)why_len;
    *st = GPUFEC_OK;
    flooding_plan* p = (flooding_plan*)calloc(1, sizeof *p);
    if (!p) {
        *st = GPUFEC_ERR_OUT_OF_MEMORY;
        return NULL;
    }
    p->cfg = cfg;
    *st = engine_status(cfg, ldpc_graph_upload(cfg, 0, &p->g), "upload");
    if (*st != GPUFEC_OK) {
        flooding_destroy(p);
        return NULL;
    }
    return p;
}
