/* GF(q) LDPC decoding on CUDA: one thread block per frame, one warp per check (lane b holds
 * elements b, b + 32, ... of each q-vector), the engine's pipeline around it. Every element is
 * computed by the CPU reference's own helpers (lib/nbldpc/nb_rules.h) in the same order, so
 * min-max decodes bit for bit like the CPU; FFT-BP differs only by the rounding of expf/logf and
 * of the probability sums (a warp tree here, a loop there). Layered: the warps share out the
 * checks of one layer, which touch distinct symbols, then a barrier. Flooding: all checks, a
 * barrier, all symbols (a warp each), a barrier. The frame's posteriors and messages live in the
 * slot's workspace (L2-resident for short codes); the warps' vectors in shared memory. */
#include "engine.cuh"

extern "C" {
#include "nb_code.h"
#include "nb_options.h"
#include "nb_rules.h"
}

#include <stdio.h>
#include <stdlib.h>

namespace {

#define FULL 0xffffffffu
#define NB_MAX_PER_LANE (NB_MAX_Q / 32)

struct nb_args {
    tx_map_view map;
    const uint32_t *row_ptr, *edge_var, *col_ptr, *col_edge, *layer_ptr, *layer_rows, *out_pos;
    const uint8_t* edge_coef;
    uint32_t n, m, q, p, edges, layers, n_tx, out_len, dmax;
    int layered, early, max_iterations;
    size_t frame_bytes;   /* workspace per frame */
    uint32_t warp_floats; /* shared scratch per warp */
    nb_gf gf;
};

/* Workspace of one frame: channel costs (flooding), posteriors, check-to-variable messages,
 * decided symbols. */
struct frame_ws {
    float *chan, *post, *c2v;
    uint8_t* sym;
};

__host__ __device__ size_t carve(const nb_args& a, unsigned char* base, frame_ws* w)
{
    size_t off = 0;
    auto take = [&](size_t bytes) {
        unsigned char* r = base ? base + off : nullptr;
        off += (bytes + 255) & ~(size_t)255;
        return r;
    };
    frame_ws x;
    x.chan = (float*)take(a.layered ? 0 : (size_t)a.n * a.q * 4);
    x.post = (float*)take((size_t)a.n * a.q * 4);
    x.c2v = (float*)take((size_t)a.edges * a.q * 4);
    x.sym = take(a.n);
    if (w)
        *w = x;
    return off;
}

__device__ float warp_min(float v)
{
    for (int o = 16; o; o >>= 1)
        v = fminf(v, __shfl_xor_sync(FULL, v, o));
    return v;
}

__device__ float warp_sum(float v)
{
    for (int o = 16; o; o >>= 1)
        v += __shfl_xor_sync(FULL, v, o);
    return v;
}

/* nb_normalise, by a warp: the minimum subtracted, clamped at NB_COST_MAX (same operations). */
__device__ void warp_normalise(float* v, uint32_t q, uint32_t lane)
{
    float m = 3.0e38f;
    for (uint32_t b = lane; b < q; b += 32)
        m = fminf(m, v[b]);
    m = warp_min(m);
    for (uint32_t b = lane; b < q; b += 32) {
        const float x = v[b] - m;
        v[b] = x < NB_COST_MAX ? x : NB_COST_MAX;
    }
    __syncwarp();
}

/* nb_wht, by a warp, in place: each stage reads every element before any is written. */
__device__ void warp_wht(float* v, uint32_t p, uint32_t lane)
{
    const uint32_t q = 1u << p;
    float r[NB_MAX_PER_LANE];
    for (uint32_t bit = 0; bit < p; bit++) {
#pragma unroll
        for (uint32_t k = 0; k < NB_MAX_PER_LANE; k++)
            if (lane + 32 * k < q)
                r[k] = nb_wht_stage_at(v, bit, lane + 32 * k);
        __syncwarp();
#pragma unroll
        for (uint32_t k = 0; k < NB_MAX_PER_LANE; k++)
            if (lane + 32 * k < q)
                v[lane + 32 * k] = r[k];
        __syncwarp();
    }
}

/* The same transform with the field size a compile-time Q >= 32: lane l keeps elements l + 32 k
 * in registers; stages below bit 5 pair lanes (shuffles), the others pair registers. The same
 * additions and subtractions as nb_wht_stage_at. */
template <uint32_t Q>
__device__ void warp_wht_reg(float* v, uint32_t lane)
{
    constexpr uint32_t K = Q / 32;
    float r[K], t[K];
#pragma unroll
    for (uint32_t k = 0; k < K; k++)
        r[k] = v[lane + 32 * k];
#pragma unroll
    for (uint32_t bit = 0; (1u << bit) < Q; bit++) {
        const uint32_t m = 1u << bit;
        if (m < 32) {
#pragma unroll
            for (uint32_t k = 0; k < K; k++) {
                const float other = __shfl_xor_sync(FULL, r[k], m);
                r[k] = (lane & m) ? other - r[k] : r[k] + other;
            }
        } else {
            const uint32_t mk = m >> 5;
#pragma unroll
            for (uint32_t k = 0; k < K; k++)
                t[k] = (k & mk) ? r[k ^ mk] - r[k] : r[k] + r[k ^ mk];
#pragma unroll
            for (uint32_t k = 0; k < K; k++)
                r[k] = t[k];
        }
    }
    __syncwarp();
#pragma unroll
    for (uint32_t k = 0; k < K; k++)
        v[lane + 32 * k] = r[k];
    __syncwarp();
}

/* The transform of a warp's vector: in registers when Q is known and at least a warp. */
template <uint32_t Q>
__device__ void warp_transform(float* v, uint32_t p, uint32_t lane)
{
    if constexpr (Q >= 32)
        warp_wht_reg<Q>(v, lane);
    else
        warp_wht(v, p, lane);
}

/* min-max convolution or element-wise product, by a warp. */
template <int FFT>
__device__ void warp_combine(const float* L, const float* R, uint32_t q, uint32_t lane, float* out)
{
    for (uint32_t b = lane; b < q; b += 32)
        out[b] = FFT ? L[b] * R[b] : nb_minmax_at(L, R, q, b);
    __syncwarp();
}

/* One check by one warp: nb_check_update of the CPU. V (d vectors, min 0, in shared memory) ->
 * the check-to-variable messages, written to c2v; layered: the posteriors become V + C. */
template <int FFT, uint32_t Q>
__device__ void warp_check(const nb_gf* gf, uint32_t q, uint32_t p, const float* V, const uint8_t* h, uint32_t d,
                           float* sc, float* c2v, float* post, const uint32_t* vars, int layered, uint32_t lane)
{
    float *U = sc, *F = U + (size_t)d * q, *B = F + (size_t)d * q, *o = B + (size_t)d * q, *c = o + q;
    for (uint32_t e = 0; e < d; e++)
        for (uint32_t b = lane; b < q; b += 32)
            U[e * q + b] = nb_to_y(gf, V + (size_t)e * q, h[e], b);
    __syncwarp();
    if (FFT)
        for (uint32_t e = 0; e < d; e++) {
            float* u = U + (size_t)e * q;
            float s = 0.0f;
            for (uint32_t b = lane; b < q; b += 32)
                s += u[b] = nb_prob_of_cost(u[b]);
            s = warp_sum(s);
            for (uint32_t b = lane; b < q; b += 32)
                u[b] /= s;
            __syncwarp();
            warp_transform<Q>(u, p, lane);
        }
    for (uint32_t b = lane; b < q; b += 32) {
        F[b] = U[b];
        B[(size_t)(d - 1) * q + b] = U[(size_t)(d - 1) * q + b];
    }
    __syncwarp();
    for (uint32_t i = 1; i + 1 < d; i++) {
        warp_combine<FFT>(F + (size_t)(i - 1) * q, U + (size_t)i * q, q, lane, F + (size_t)i * q);
        warp_combine<FFT>(B + (size_t)(d - i) * q, U + (size_t)(d - 1 - i) * q, q, lane, B + (size_t)(d - 1 - i) * q);
    }
    for (uint32_t e = 0; e < d; e++) {
        if (d == 1) {
            for (uint32_t b = lane; b < q; b += 32)
                c[b] = b ? NB_COST_MAX : 0.0f;
            __syncwarp();
        } else {
            if (e == 0 || e + 1 == d) {
                const float* src = e == 0 ? B + q : F + (size_t)(d - 2) * q;
                for (uint32_t b = lane; b < q; b += 32)
                    o[b] = src[b];
                __syncwarp();
            } else {
                warp_combine<FFT>(F + (size_t)(e - 1) * q, B + (size_t)(e + 1) * q, q, lane, o);
            }
            if (FFT) {
                warp_transform<Q>(o, p, lane);
                for (uint32_t b = lane; b < q; b += 32)
                    o[b] = nb_cost_of_prob(o[b] / (float)q);
                __syncwarp();
            }
            for (uint32_t a = lane; a < q; a += 32)
                c[a] = nb_from_y(gf, o, h[e], a);
            __syncwarp();
            warp_normalise(c, q, lane);
        }
        float* ce = c2v + (size_t)e * q;
        float* pe = post + (size_t)vars[e] * q;
        for (uint32_t a = lane; a < q; a += 32) {
            ce[a] = c[a];
            if (layered)
                pe[a] = V[(size_t)e * q + a] + c[a];
        }
        __syncwarp();
    }
}

/* A warp's inputs of check i: V_e = post - C_e, normalised (both schedules: in flooding the
 * posteriors are those of the last variable update, as the CPU's v2c messages). */
__device__ void warp_inputs(const nb_args& a, uint32_t q, const frame_ws& w, uint32_t i, float* V, uint32_t lane)
{
    const uint32_t e0 = a.row_ptr[i], d = a.row_ptr[i + 1] - e0;
    for (uint32_t t = 0; t < d; t++) {
        const float* post = w.post + (size_t)a.edge_var[e0 + t] * q;
        const float* C = w.c2v + (size_t)(e0 + t) * q;
        for (uint32_t b = lane; b < q; b += 32)
            V[(size_t)t * q + b] = post[b] - C[b];
        __syncwarp();
        warp_normalise(V + (size_t)t * q, q, lane);
    }
}

/* Decisions (lowest index among equal costs, as the CPU) and their syndrome: 1 when zero. */
__device__ int decide(const nb_args& a, uint32_t q, const nb_gf* gf, const frame_ws& w, uint32_t warp, uint32_t nw,
                      uint32_t lane)
{
    for (uint32_t j = warp; j < a.n; j += nw) {
        const float* v = w.post + (size_t)j * q;
        float best = 3.0e38f;
        uint32_t arg = 0;
        for (uint32_t b = lane; b < q; b += 32)
            if (v[b] < best)
                best = v[b], arg = b;
        for (int o = 16; o; o >>= 1) {
            const float ob = __shfl_xor_sync(FULL, best, o);
            const uint32_t oa = __shfl_xor_sync(FULL, arg, o);
            if (ob < best || (ob == best && oa < arg))
                best = ob, arg = oa;
        }
        if (lane == 0)
            w.sym[j] = (uint8_t)arg;
    }
    __syncthreads();
    int bad = 0;
    for (uint32_t i = threadIdx.x; i < a.m; i += blockDim.x) {
        uint32_t s = 0;
        for (uint32_t e = a.row_ptr[i]; e < a.row_ptr[i + 1]; e++)
            s ^= nb_gf_mul(gf, a.edge_coef[e], w.sym[a.edge_var[e]]);
        bad |= s != 0;
    }
    return !__syncthreads_or(bad);
}

/* Q: the field size as a compile-time constant (32, 64, 256: loops unrolled, transforms in
 * registers), or 0 for any q. */
template <int FFT, uint32_t Q>
__global__ void k_nb(nb_args a, const float* __restrict__ in, unsigned char* ws, uint8_t* out, int32_t* iters,
                     uint8_t* conv)
{
    extern __shared__ float smem[];
    __shared__ nb_gf gf;
    const uint32_t f = blockIdx.x, lane = threadIdx.x & 31u, warp = threadIdx.x >> 5, nw = blockDim.x >> 5;
    const uint32_t q = Q ? Q : a.q, p = Q ? __ffs(Q) - 1 : a.p;
    for (uint32_t t = threadIdx.x; t < sizeof(nb_gf) / 4; t += blockDim.x)
        ((uint32_t*)&gf)[t] = ((const uint32_t*)&a.gf)[t];
    frame_ws w;
    carve(a, ws + (size_t)f * a.frame_bytes, &w);
    float* sc = smem + (size_t)warp * a.warp_floats;
    float* V = sc + 3u * a.dmax * q + 2u * q;
    const float* frame = in + (size_t)f * a.n_tx;
    int carries = 0;
    __syncthreads();
    for (uint32_t j = warp; j < a.n; j += nw) {
        float llr[NB_MAX_P];
        for (uint32_t i = 0; i < p; i++)
            llr[i] = tx_map_load(a.map, j * p + i, frame, &carries);
        float* post = w.post + (size_t)j * q;
        for (uint32_t b = lane; b < q; b += 32)
            post[b] = nb_symbol_cost(llr, p, b);
        __syncwarp();
        warp_normalise(post, q, lane);
        for (uint32_t b = lane; b < q && !a.layered; b += 32)
            w.chan[(size_t)j * q + b] = post[b];
    }
    for (size_t t = threadIdx.x; t < (size_t)a.edges * q; t += blockDim.x)
        w.c2v[t] = 0.0f;
    const int has_info = __syncthreads_or(carries);
    int it = 0, ok = decide(a, q, &gf, w, warp, nw, lane);
    while (it < a.max_iterations && !(ok && a.early)) {
        if (a.layered) {
            for (uint32_t l = 0; l < a.layers; l++) {
                for (uint32_t r = a.layer_ptr[l] + warp; r < a.layer_ptr[l + 1]; r += nw) {
                    const uint32_t i = a.layer_rows[r], e0 = a.row_ptr[i];
                    warp_inputs(a, q, w, i, V, lane);
                    warp_check<FFT, Q>(&gf, q, p, V, a.edge_coef + e0, a.row_ptr[i + 1] - e0, sc, w.c2v + (size_t)e0 * q,
                                    w.post, a.edge_var + e0, 1, lane);
                }
                __syncthreads();
            }
        } else {
            for (uint32_t i = warp; i < a.m; i += nw) {
                const uint32_t e0 = a.row_ptr[i];
                warp_inputs(a, q, w, i, V, lane);
                warp_check<FFT, Q>(&gf, q, p, V, a.edge_coef + e0, a.row_ptr[i + 1] - e0, sc, w.c2v + (size_t)e0 * q,
                                w.post, a.edge_var + e0, 0, lane);
            }
            __syncthreads();
            for (uint32_t j = warp; j < a.n; j += nw) { /* posteriors: channel + every message, CPU order */
                float* post = w.post + (size_t)j * q;
                for (uint32_t b = lane; b < q; b += 32) {
                    float s = w.chan[(size_t)j * q + b];
                    for (uint32_t t = a.col_ptr[j]; t < a.col_ptr[j + 1]; t++)
                        s += w.c2v[(size_t)a.col_edge[t] * q + b];
                    post[b] = s;
                }
            }
            __syncthreads();
        }
        it++;
        if (a.early || it == a.max_iterations)
            ok = decide(a, q, &gf, w, warp, nw, lane);
    }
    uint8_t* o = out + (size_t)f * a.out_len;
    for (uint32_t t = threadIdx.x; t < a.out_len; t += blockDim.x) {
        const uint32_t pos = a.out_pos ? a.out_pos[t] : t;
        o[t] = (uint8_t)((w.sym[pos / p] >> (pos % p)) & 1u);
    }
    if (threadIdx.x == 0) {
        iters[f] = it;
        conv[f] = (uint8_t)(ok && has_info);
    }
}

struct nb_plan {
    const decoder_config* cfg;
    nb_args args;
    tx_map_dev map;
    uint32_t *row_ptr, *edge_var, *col_ptr, *col_edge, *layer_ptr, *layer_rows, *out_pos;
    uint8_t* edge_coef;
    int threads;
    size_t smem;
    char describe[160];
};

typedef void (*nb_kernel)(nb_args, const float*, unsigned char*, uint8_t*, int32_t*, uint8_t*);

template <int FFT>
nb_kernel pick_q(uint32_t q)
{
    return q == 32 ? k_nb<FFT, 32> : q == 64 ? k_nb<FFT, 64> : q == 256 ? k_nb<FFT, 256> : k_nb<FFT, 0>;
}

nb_kernel pick_kernel(const decoder_config* cfg, uint32_t q)
{
    return nb_opts_of(&cfg->opts).nb_algorithm == GPUFEC_NB_FFT_BP ? pick_q<1>(q) : pick_q<0>(q);
}

size_t plan_state_bytes(const void* plan, uint32_t B) { return ((const nb_plan*)plan)->args.frame_bytes * (size_t)B; }

cudaError_t plan_launch(const void* plan, const engine_chunk* ch, cudaStream_t st)
{
    const nb_plan* p = (const nb_plan*)plan;
    nb_args a = p->args;
    a.max_iterations = p->cfg->opts.max_iterations;
    pick_kernel(p->cfg, a.q)<<<ch->nf, p->threads, p->smem, st>>>(
        a, ch->in, (unsigned char*)ch->state, ch->out, ch->iterations, ch->converged);
    return cudaGetLastError();
}

const char* plan_describe(const void* plan) { return ((const nb_plan*)plan)->describe; }

void plan_destroy(void* plan)
{
    nb_plan* p = (nb_plan*)plan;
    if (!p)
        return;
    void* d[] = {p->row_ptr, p->edge_var, p->col_ptr, p->col_edge, p->layer_ptr, p->layer_rows, p->out_pos, p->edge_coef};
    for (size_t i = 0; i < sizeof d / sizeof *d; i++)
        cudaFree(d[i]);
    tx_map_dev_free(&p->map);
    free(p);
}

const engine_plan_ops nb_plan_ops = {plan_describe, plan_state_bytes, plan_launch, plan_destroy};

gpufec_status create(const decoder_config* cfg, void** state, impl_caps* caps)
{
    ENGINE_CHECK(cfg, cudaSetDevice(cfg->opts.device), "cudaSetDevice");
    const nb_code* c = nb_of(cfg->code);
    nb_plan* p = (nb_plan*)calloc(1, sizeof *p);
    if (!p)
        return GPUFEC_ERR_OUT_OF_MEMORY;
    p->cfg = cfg;
    nb_args& a = p->args;
    a.gf = c->gf;
    a.n = c->n, a.m = c->m, a.q = c->gf.q, a.p = c->gf.p, a.edges = c->edges, a.layers = c->layers;
    a.n_tx = cfg->code->tx.n_tx;
    a.out_len = cfg->out_len;
    a.dmax = c->max_check_degree;
    a.layered = cfg->opts.schedule == GPUFEC_SCHEDULE_LAYERED;
    a.early = cfg->opts.early_termination;
    a.frame_bytes = carve(a, nullptr, nullptr);
    /* Shared memory per warp: U, F, B (d vectors each), two more vectors, and V (d vectors). */
    a.warp_floats = (4u * a.dmax + 2u) * a.q;
    const int optin = engine_device_limits(cfg).optin;
    const size_t per_warp = (size_t)a.warp_floats * 4;
    /* Warps per block: enough for the checks of a layer, at most 16, and no more than about half
     * the opt-in shared memory, so that two frames share an SM. */
    uint32_t nw = 16;
    while (nw > 1 && nw * per_warp > (size_t)optin / 2)
        nw--;
    if (per_warp > (size_t)optin) {
        free(p);
        decoder_log(cfg, GPUFEC_LOG_WARNING, "CUDA GF(q) decoder: a check of degree %u over GF(%u) needs %zu bytes of "
                    "shared memory, the device has %d", a.dmax, a.q, per_warp, optin);
        return GPUFEC_ERR_UNSUPPORTED;
    }
    p->threads = (int)(32 * nw);
    p->smem = nw * per_warp;
    gpufec_status st = GPUFEC_OK;
    const nb_kernel kernel = pick_kernel(cfg, a.q);
    st = engine_status(cfg, cuda_allow_shared((const void*)kernel, p->smem), "cudaFuncSetAttribute");
    if (st == GPUFEC_OK)
        st = engine_status(cfg, dev_upload(&p->row_ptr, c->row_ptr, c->m + 1), "upload");
    if (st == GPUFEC_OK)
        st = engine_status(cfg, dev_upload(&p->edge_var, c->edge_var, c->edges), "upload");
    if (st == GPUFEC_OK)
        st = engine_status(cfg, dev_upload(&p->edge_coef, c->edge_coef, c->edges), "upload");
    if (st == GPUFEC_OK)
        st = engine_status(cfg, dev_upload(&p->col_ptr, c->col_ptr, c->n + 1), "upload");
    if (st == GPUFEC_OK)
        st = engine_status(cfg, dev_upload(&p->col_edge, c->col_edge, c->edges), "upload");
    if (st == GPUFEC_OK)
        st = engine_status(cfg, dev_upload(&p->layer_ptr, c->layer_ptr, c->layers + 1), "upload");
    if (st == GPUFEC_OK)
        st = engine_status(cfg, dev_upload(&p->layer_rows, c->layer_rows, c->m), "upload");
    if (st == GPUFEC_OK)
        st = engine_upload_io(cfg, &p->out_pos, &p->map);
    if (st != GPUFEC_OK) {
        plan_destroy(p);
        return st;
    }
    a.map = p->map.view();
    a.row_ptr = p->row_ptr, a.edge_var = p->edge_var, a.edge_coef = p->edge_coef, a.col_ptr = p->col_ptr;
    a.col_edge = p->col_edge, a.layer_ptr = p->layer_ptr, a.layer_rows = p->layer_rows, a.out_pos = p->out_pos;
    snprintf(p->describe, sizeof p->describe, "GF(%u) %s %s, a block per frame, %u warps (a check each), %zu B shared",
             a.q, a.layered ? "layered" : "flooding",
             gpufec_nb_algorithm_name((gpufec_nb_algorithm)nb_opts_of(&cfg->opts).nb_algorithm), nw, p->smem);
    /* Frames per chunk: a workspace budget of 4 GiB per slot (GF(256) frames take megabytes:
     * with 1 GiB a chunk held one frame per SM, half the occupancy the kernel allows), 8192 frames. */
    return engine_start(cfg, &nb_plan_ops, p, engine_chunk_frames(cfg, a.frame_bytes, (size_t)4 << 30, 8192), NULL,
                        state, caps);
}

int accepts(const decoder_config* cfg, char* why, size_t why_len) { return cuda_backend_probe(cfg->opts.device, why, why_len); }

} // namespace

extern "C" const backend_ops nbldpc_cuda_ops = {
    "cuda", GPUFEC_FAMILY_NBLDPC, GPUFEC_BACKEND_CUDA, /* raw_input */ 1, accepts, create, engine_destroy_state,
    engine_decode, engine_decode_async, engine_synchronize, engine_kernel_seconds,
};
