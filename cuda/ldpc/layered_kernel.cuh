/* Layered belief propagation on the GPU: one thread block per frame, the frame's posteriors in
 * shared memory, the rows of a layer (rows sharing no variable) spread over the block's threads,
 * a barrier between layers. All iterations, the early-termination test and the hard decisions
 * run in one launch: no host synchronisation per iteration.
 *
 * Rows of a layer are independent, so the result equals the CPU's sequential layered schedule in
 * layer order; with float posteriors the min-sum family is bit-exact with it. AppT = __half
 * stores the posteriors in 16 bits for codes whose float posteriors do not fit in shared
 * memory (DVB-S2 normal frames), at a documented accuracy cost. */
#ifndef GPUFEC_LAYERED_KERNEL_CUH
#define GPUFEC_LAYERED_KERNEL_CUH

#include <cuda_fp16.h>

#include "ldpc_rules.h"
#include "tx_map.h"

struct layered_args {
    const uint32_t* out_pos; /* out_len output positions (decoder_internal.h); NULL: whole codeword */
    uint32_t out_len;
    const uint32_t* row_ptr;
    const uint32_t* edge_var;
    const uint32_t* layer_ptr;
    const uint32_t* layer_rows;
    tx_map_view map;          /* transmitted -> mother positions (device copy) */
    uint32_t n, m, edges, n_tx, n_layers;
    const float* in;  /* nf * n_tx, frame-major */
    float* c2v;       /* nf * edges */
    uint8_t* out;     /* nf * n */
    int32_t* iters;
    uint8_t* conv;
    int max_iterations, early, algorithm, interval;
    float scale, offset;
};

__device__ __forceinline__ float app_load(const float* a, uint32_t j) { return a[j]; }
__device__ __forceinline__ float app_load(const __half* a, uint32_t j) { return __half2float(a[j]); }
__device__ __forceinline__ void app_store(float* a, uint32_t j, float v) { a[j] = v; }
__device__ __forceinline__ void app_store(__half* a, uint32_t j, float v)
{
    a[j] = __float2half(fminf(fmaxf(v, -65000.0f), 65000.0f));
}

/* Frame prologue/epilogue shared by the layered kernels. */
/* Loads frame f; returns (for this thread) whether a transmitted value it read is not an erasure:
 * the block's OR of it says whether the frame carries information (soft_is_erasure). */
template <typename AppT>
__device__ __forceinline__ int frame_load(const layered_args& a, AppT* app, uint32_t f)
{
    const float* in = a.in + (size_t)f * a.n_tx;
    int info = 0;
    for (uint32_t j = threadIdx.x; j < a.n; j += blockDim.x) {
        const float v = tx_map_load(a.map, j, in, &info);
        app_store(app, j, v);
    }
    return info;
}

/* Block-wide: 1 when the hard decisions satisfy every check. Contains a barrier. */
template <typename AppT>
__device__ __forceinline__ int frame_syndrome_ok(const layered_args& a, const AppT* app)
{
    int bad = 0;
    for (uint32_t i = threadIdx.x; i < a.m && !bad; i += blockDim.x) {
        uint32_t parity = 0;
        for (uint32_t e = a.row_ptr[i]; e < a.row_ptr[i + 1]; e++)
            parity ^= ldpc_hard_bit(app_load(app, a.edge_var[e]));
        bad = (int)parity;
    }
    return !__syncthreads_or(bad);
}

template <typename AppT>
__device__ __forceinline__ void frame_store(const layered_args& a, const AppT* app, uint32_t f, int it, int ok)
{
    if (a.out_pos) {
        uint8_t* out = a.out + (size_t)f * a.out_len;
        for (uint32_t t = threadIdx.x; t < a.out_len; t += blockDim.x)
            out[t] = ldpc_hard_bit(app_load(app, a.out_pos[t]));
    } else {
        uint8_t* out = a.out + (size_t)f * a.n;
        for (uint32_t j = threadIdx.x; j < a.n; j += blockDim.x)
            out[j] = ldpc_hard_bit(app_load(app, j));
    }
    if (threadIdx.x == 0) {
        a.iters[f] = it;
        a.conv[f] = (uint8_t)ok;
    }
}

/* One row of a layer by a whole warp: lanes take edges lane, lane+32, ...; the accumulators
 * are combined with shuffles (ms_merge keeps the sequential rule's result). */
template <typename AppT, bool SPA>
__device__ __forceinline__ void row_warp(const layered_args& a, AppT* app, float* c2v, uint32_t b,
                                         uint32_t e_end, uint32_t lane, int mode)
{
    const unsigned full = 0xffffffffu;
    if (SPA) {
        spa_acc acc;
        spa_init(&acc);
        for (uint32_t e = b + lane; e < e_end; e += 32)
            spa_push(&acc, spa_term_fast(app_load(app, a.edge_var[e]) - c2v[e]));
        for (int off = 16; off; off >>= 1) {
            acc.product *= __shfl_xor_sync(full, acc.product, off);
            acc.zeros += __shfl_xor_sync(full, acc.zeros, off);
        }
        for (uint32_t e = b + lane; e < e_end; e += 32) {
            const uint32_t j = a.edge_var[e];
            float v = app_load(app, j) - c2v[e];
            float c = spa_output_fast(&acc, spa_term_fast(v));
            c2v[e] = c;
            app_store(app, j, v + c);
        }
    } else {
        ms_acc acc;
        ms_init(&acc);
        for (uint32_t e = b + lane; e < e_end; e += 32)
            ms_push(&acc, app_load(app, a.edge_var[e]) - c2v[e], e - b);
        for (int off = 16; off; off >>= 1) {
            ms_acc o;
            o.min1 = __shfl_xor_sync(full, acc.min1, off);
            o.min2 = __shfl_xor_sync(full, acc.min2, off);
            o.arg1 = __shfl_xor_sync(full, acc.arg1, off);
            o.parity = __shfl_xor_sync(full, acc.parity, off);
            ms_merge(&acc, &o);
        }
        for (uint32_t e = b + lane; e < e_end; e += 32) {
            const uint32_t j = a.edge_var[e];
            float v = app_load(app, j) - c2v[e];
            float c = ms_output(&acc, v, e - b, mode, a.scale, a.offset);
            c2v[e] = c;
            app_store(app, j, v + c);
        }
    }
}

/* WARP: a warp per row (long rows) instead of a thread per row. C2V_SMEM: the check messages
 * live in shared memory after the posteriors (codes small enough), else in global memory. */
template <typename AppT, bool SPA, bool WARP, bool C2V_SMEM>
__global__ void __launch_bounds__(512) k_layered(layered_args a)
{
    extern __shared__ __align__(16) unsigned char smem_raw[];
    AppT* app = reinterpret_cast<AppT*>(smem_raw);
    const uint32_t tid = threadIdx.x, nt = blockDim.x, f = blockIdx.x;
    float* c2v = C2V_SMEM ? reinterpret_cast<float*>(smem_raw + (((size_t)a.n * sizeof(AppT) + 15) & ~(size_t)15))
                          : a.c2v + (size_t)f * a.edges;
    const int loaded = frame_load(a, app, f);
    for (uint32_t e = tid; e < a.edges; e += nt)
        c2v[e] = 0.0f;
    const int has_info = __syncthreads_or(loaded); /* also the barrier after loading */
    const int mode = ldpc_ms_mode(a.algorithm);
    int it = 0, ok = 0;
    while (it < a.max_iterations) {
        for (uint32_t l = 0; l < a.n_layers; l++) {
            const uint32_t r_end = a.layer_ptr[l + 1];
            if (WARP) {
                for (uint32_t r = a.layer_ptr[l] + (tid >> 5); r < r_end; r += nt >> 5) {
                    const uint32_t i = a.layer_rows[r];
                    row_warp<AppT, SPA>(a, app, c2v, a.row_ptr[i], a.row_ptr[i + 1], tid & 31, mode);
                }
            } else {
            for (uint32_t r = a.layer_ptr[l] + tid; r < r_end; r += nt) {
                const uint32_t i = a.layer_rows[r], b = a.row_ptr[i], e_end = a.row_ptr[i + 1];
                if (SPA) {
                    spa_acc acc;
                    spa_init(&acc);
                    for (uint32_t e = b; e < e_end; e++)
                        spa_push(&acc, spa_term_fast(app_load(app, a.edge_var[e]) - c2v[e]));
                    for (uint32_t e = b; e < e_end; e++) {
                        const uint32_t j = a.edge_var[e];
                        float v = app_load(app, j) - c2v[e];
                        float c = spa_output_fast(&acc, spa_term_fast(v));
                        c2v[e] = c;
                        app_store(app, j, v + c);
                    }
                } else {
                    /* Edges in groups of G: the group's loads are independent and in flight
                     * together (the row loop alone would wait for each load in turn); the
                     * v2c values of the group stay in registers between the two passes when
                     * the row fits in one group. */
                    constexpr uint32_t G = 8;
                    ms_acc acc;
                    ms_init(&acc);
                    float vr[G];
                    uint32_t jr[G];
                    for (uint32_t g = b; g < e_end; g += G) {
#pragma unroll
                        for (uint32_t t = 0; t < G; t++)
                            if (g + t < e_end) {
                                jr[t] = a.edge_var[g + t];
                                vr[t] = c2v[g + t];
                            }
#pragma unroll
                        for (uint32_t t = 0; t < G; t++)
                            if (g + t < e_end)
                                ms_push(&acc, app_load(app, jr[t]) - vr[t], g + t - b);
                    }
                    for (uint32_t g = b; g < e_end; g += G) {
#pragma unroll
                        for (uint32_t t = 0; t < G; t++)
                            if (g + t < e_end) {
                                jr[t] = a.edge_var[g + t];
                                vr[t] = c2v[g + t];
                            }
#pragma unroll
                        for (uint32_t t = 0; t < G; t++)
                            if (g + t < e_end) {
                                float v = app_load(app, jr[t]) - vr[t];
                                float c = ms_output(&acc, v, g + t - b, mode, a.scale, a.offset);
                                c2v[g + t] = c;
                                app_store(app, jr[t], v + c);
                            }
                    }
                }
            }
            }
            __syncthreads();
        }
        it++;
        if ((a.early && it % a.interval == 0) || it == a.max_iterations) {
            ok = frame_syndrome_ok(a, app);
            if (a.early && ok)
                break;
        }
    }
    frame_store(a, app, f, it, ok && has_info); /* erased frames: never decoded */
}

/* Min-sum family with compressed check messages: a row keeps (min1, min2, argmin | parity, the
 * sign bits of its previous incoming messages) in 16 bytes instead of one float per edge; the
 * old message of an edge is rebuilt exactly with ms_output, so results stay bit-exact with the
 * per-edge form. Rows of up to 32 edges; `state` holds a uint4 per row and frame. */
template <typename AppT>
__global__ void __launch_bounds__(512) k_layered_compressed(layered_args a, uint4* state_all)
{
    extern __shared__ __align__(16) unsigned char smem_raw[];
    AppT* app = reinterpret_cast<AppT*>(smem_raw);
    const uint32_t f = blockIdx.x, tid = threadIdx.x, nt = blockDim.x;
    uint4* state = state_all + (size_t)f * a.m;
    const int loaded = frame_load(a, app, f);
    for (uint32_t i = tid; i < a.m; i += nt)
        state[i] = make_uint4(0u, 0u, 0u, 0u); /* min1 = min2 = +0: every old message is +0 */
    const int has_info = __syncthreads_or(loaded); /* also the barrier after loading */
    const int mode = ldpc_ms_mode(a.algorithm);
    int it = 0, ok = 0;
    while (it < a.max_iterations) {
        for (uint32_t l = 0; l < a.n_layers; l++) {
            const uint32_t r_end = a.layer_ptr[l + 1];
            for (uint32_t r = a.layer_ptr[l] + tid; r < r_end; r += nt) {
                const uint32_t i = a.layer_rows[r], b = a.row_ptr[i], d = a.row_ptr[i + 1] - b;
                const uint4 st = state[i];
                ms_acc old;
                old.min1 = __uint_as_float(st.x);
                old.min2 = __uint_as_float(st.y);
                old.arg1 = st.z & 0xffu;
                old.parity = (st.z >> 8) & 1u;
                const uint32_t old_signs = st.w;
                ms_acc acc;
                ms_init(&acc);
                uint32_t signs = 0;
                for (uint32_t t = 0; t < d; t++) {
                    const uint32_t j = a.edge_var[b + t];
                    /* ms_output reads only the sign of its v argument: rebuild it from the bit. */
                    float c_old = ms_output(&old, (old_signs >> t) & 1u ? -1.0f : 1.0f, t, mode, a.scale, a.offset);
                    float v = app_load(app, j) - c_old;
                    signs |= (uint32_t)(v < 0.0f) << t;
                    ms_push(&acc, v, t);
                }
                for (uint32_t t = 0; t < d; t++) {
                    const uint32_t j = a.edge_var[b + t];
                    float c_old = ms_output(&old, (old_signs >> t) & 1u ? -1.0f : 1.0f, t, mode, a.scale, a.offset);
                    float v = app_load(app, j) - c_old;
                    app_store(app, j, v + ms_output(&acc, v, t, mode, a.scale, a.offset));
                }
                state[i] = make_uint4(__float_as_uint(acc.min1), __float_as_uint(acc.min2),
                                      (acc.arg1 & 0xffu) | (acc.parity << 8), signs);
            }
            __syncthreads();
        }
        it++;
        if ((a.early && it % a.interval == 0) || it == a.max_iterations) {
            ok = frame_syndrome_ok(a, app);
            if (a.early && ok)
                break;
        }
    }
    frame_store(a, app, f, it, ok && has_info); /* erased frames: never decoded */
}

#endif
