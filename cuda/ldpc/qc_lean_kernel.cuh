/* The lean QC kernel (its builds: qc_kernels_lean.cu): for codes whose
 * layers are whole (one colour, no lane slices, no skipped lanes) and whose rows have at most
 * LEAN_MAX_DEGREE edges: 5G NR (BG1's core rows have 19), Wi-Fi, WiMAX. One thread per row, one
 * frame per block. Each row runs code compiled for its exact degree (chosen by a short binary
 * search on the layer's degree), so nothing is decoded, masked or branched per edge: an edge
 * costs its address (lane plus shift, wrapped), its load, the old message, the two minima and
 * the store. Same rule and same results as k_qc_layered at every precision (the equivalence
 * test's variant records); float16 stores round with the hardware conversion, which equals
 * ldpc_round_half on the clamped value. */

#ifndef GPUFEC_QC_LEAN_KERNEL_CUH
#define GPUFEC_QC_LEAN_KERNEL_CUH

#include "qc_common.cuh"
#include "qc_layer_profile.cuh"

#define LEAN_MAX_DEGREE 20

namespace {

/* One row of D edges, SPLIT threads per row (adjacent threads; part p of them takes edges
 * [p H, p H + H), H = ceil(D / SPLIT), the last part's spare slot masked). float32 and float16
 * storage work in float as row_small; int8 in whole steps as row_small_i8 (an exact subtract,
 * a saturating add, magnitudes capped at 127). The minima update is ms_push's (the first position wins a
 * tie) without a branch; the parts' accumulators merge by shuffles (ms_merge, bit-exact in any
 * grouping). */
template <int PREC, typename PostT, int D, int SPLIT>
__device__ __forceinline__ row_state lean_row(const qc_args& a, PostT* app, const uint2* ents, uint32_t lane,
                                              uint32_t part, unsigned mask, const row_state& old)
{
    constexpr bool I8 = PREC == LDPC_PREC_I8;
    typedef typename std::conditional<I8, int, float>::type V;
    constexpr int H = (D + SPLIT - 1) / SPLIT;
    constexpr bool SPARE = H * SPLIT != D; /* the last part has a slot past the row */
    const uint32_t t0 = SPLIT == 1 ? 0u : part * H;
    const bool last = SPLIT > 1 && part == SPLIT - 1;
    uint32_t jv[H];
    V v[H];
#pragma unroll
    for (int t = 0; t < H; t++) {
        /* the spare slot repeats the row's last edge (a valid address), masked below */
        const uint2 e = ents[SPARE && t == H - 1 ? min(t0 + t, (uint32_t)D - 1) : t0 + t];
        const uint32_t u = lane + e.y; /* no skipped lanes: e.y is the shift alone */
        jv[t] = e.x + min(u, u - a.z); /* u - z wraps to a huge value when u < z */
    }
#pragma unroll
    for (int t = 0; t < H; t++)
        v[t] = load_as<V>(app, jv[t]);
    const V om1 = (V)old.m1, om2 = (V)old.m2;
    const uint32_t oarg = old.arg - t0, osig = old.signs >> t0;
    V min1 = I8 ? (V)LDPC_I8_MIN_MAX : (V)INFINITY, min2 = min1; /* ms_init_prec */
    uint32_t arg1 = 0xffffffffu, sgn = 0;
#pragma unroll
    for (int t = 0; t < H; t++) {
        const bool valid = !(SPARE && last && t == H - 1);
        const V mag = (uint32_t)t == oarg ? om2 : om1;
        V x, m;
        if constexpr (I8) {
            x = (osig >> t) & 1u ? v[t] + mag : v[t] - mag; /* exact (ldpc_i8_sat) */
            m = valid ? min(abs(x), 127) : 127;
        } else {
            x = prec_round<PREC>((osig >> t) & 1u ? v[t] + mag : v[t] - mag); /* ldpc_extrinsic */
            m = valid ? fabsf(x) : INFINITY;
        }
        v[t] = x;
        min2 = min(min2, max(min1, m));
        arg1 = m < min1 ? (uint32_t)t : arg1;
        min1 = min(min1, m);
        sgn |= (uint32_t)(valid && x < (V)0) << t;
    }
    ms_acc acc = {(float)min1, (float)min2, arg1 == 0xffffffffu ? arg1 : arg1 + t0, __popc(sgn) & 1u};
    split_merge<SPLIT>(&acc, mask);
    row_state ns = new_row_state(a, acc.min1, acc.min2, acc.arg1, PREC);
    const uint32_t valid_bits = SPARE && last ? (1u << (H - 1)) - 1u : (H >= 32 ? 0xffffffffu : (1u << H) - 1u);
    const uint32_t neg = (acc.parity ? ~sgn : sgn) & valid_bits;
    const uint32_t rarg = acc.arg1 - t0;
    const V m1 = (V)ns.m1, m2 = (V)ns.m2;
#pragma unroll
    for (int t = 0; t < H; t++) {
        const V mag = (uint32_t)t == rarg ? m2 : m1;
        const V out = (neg >> t) & 1u ? v[t] - mag : v[t] + mag;
        if (SPARE && last && t == H - 1)
            continue;
        if constexpr (I8)
            app[jv[t]] = (int8_t)max(-128, min(127, out));
        else
            qc_post_store<PREC>(app, jv[t], out);
    }
    ns.signs = split_or<SPLIT>(neg << t0, mask);
    return ns;
}

/* The row code for degree d in [LO, HI], by binary search on d (a few uniform branches per row). */
template <int PREC, typename PostT, int SPLIT, int LO, int HI>
__device__ __forceinline__ row_state lean_row_any(const qc_args& a, PostT* app, const uint2* ents, uint32_t d,
                                                  uint32_t lane, uint32_t part, unsigned mask, const row_state& old)
{
    if constexpr (LO == HI) {
        return lean_row<PREC, PostT, LO, SPLIT>(a, app, ents, lane, part, mask, old);
    } else {
        constexpr int MID = (LO + HI) / 2;
        if (d <= MID)
            return lean_row_any<PREC, PostT, SPLIT, LO, MID>(a, app, ents, d, lane, part, mask, old);
        return lean_row_any<PREC, PostT, SPLIT, MID + 1, HI>(a, app, ents, d, lane, part, mask, old);
    }
}

/* A row's state in global memory (many frames of a long code), fetched into L2 two layers ahead
 * of its use, so that the load a layer ahead (into registers) finds it there rather than in DRAM
 * (the pair kernel's float16 form gained 15% from it, pair_state_prefetch). A hint: no value
 * changes. */
template <typename T> __device__ __forceinline__ void lean_state_prefetch(const T* p)
{
    asm volatile("{ .reg .u64 g; cvta.to.global.u64 g, %0; prefetch.global.L2 [g]; }" ::"l"(p));
}

/* One layer's rows (their entries at ents, degree d, the code for degrees LO to HI: a profile's
 * constant where LO == HI) and the barrier. next: this layer's row state on entry (loaded a layer
 * ahead), the following layer's on exit. */
template <int PREC, typename PostT, int W, bool SSMEM, int SPLIT, int LO, int HI>
__device__ __forceinline__ void lean_layer(const qc_args& a, PostT* app, const uint2* ents, uint32_t d, uint32_t l,
                                           typename raw_words<W>::type* rstate, uint32_t rt, uint32_t part,
                                           unsigned mask, bool active, typename raw_words<W>::type& next)
{
    typedef typename raw_words<W>::type raw_t;
    typedef state_codec<PREC, W> codec;
    /* A row's state is read by its own threads and written by the first: the next layer's is
     * loaded before this layer's barrier (its latency overlaps the row). */
    if (active) {
        const raw_t cur = next;
        next = rstate[(l + 1 < a.layers ? l + 1 : 0) * a.z + rt];
        if (!SSMEM && a.layers > 2) /* two layers ahead into L2 (lean_state_prefetch); with
                                       fewer, l + 2 - layers could pass the state's end */
            lean_state_prefetch(rstate + (size_t)(l + 2 < a.layers ? l + 2 : l + 2 - a.layers) * a.z + rt);
        const raw_t ns =
            codec::pack(lean_row_any<PREC, PostT, SPLIT, LO, HI>(a, app, ents, d, rt, part, mask, codec::unpack(cur)));
        if constexpr (SPLIT > 1)
            __syncwarp(mask); /* the partner's read of this state (its prefetch) comes first */
        if (part == 0)
            rstate[l * a.z + rt] = ns;
        if (a.layers == 1)
            next = ns;
    }
    __syncthreads();
}

/* Layers LAYER to the straight window's end (row_profile_end, qc_layer_profile.cuh) or the
 * code's on profile PROF, each compiled for its degree, its entries at the constant E0 (the
 * degrees before it): no search, no loop, no entry pointer. */
template <int PREC, typename PostT, int W, bool SSMEM, int SPLIT, int PROF, int LAYER, int E0>
__device__ __forceinline__ void lean_prof_steps(const qc_args& a, PostT* app, const uint2* ents,
                                                typename raw_words<W>::type* rstate, uint32_t rt, uint32_t part,
                                                unsigned mask, bool active, typename raw_words<W>::type& next)
{
    using P = layer_profile<PROF>;
    if constexpr (LAYER < row_profile_end<PROF>()) {
        if (LAYER >= a.layers)
            return;
        constexpr int D = P::deg[LAYER];
        lean_layer<PREC, PostT, W, SSMEM, SPLIT, D, D>(a, app, ents + E0, D, LAYER, rstate, rt, part, mask, active, next);
        lean_prof_steps<PREC, PostT, W, SSMEM, SPLIT, PROF, LAYER + 1, E0 + D>(a, app, ents, rstate, rt, part, mask, active,
                                                                              next);
    }
}

/* MINB: blocks per SM the registers must allow (1: the latency plan; 2: many frames). SPLIT:
 * threads per row (1, or 2 in the latency plan). PROF: a layer profile whose window of layers is
 * compiled (lean_prof_steps), 0: none. */
template <int PREC, typename PostT, int W, bool SSMEM, int MINB, int SPLIT, int PROF = 0>
__global__ void __launch_bounds__(512 * SPLIT, MINB) k_qc_lean(qc_args a)
{
    extern __shared__ __align__(16) unsigned char smem[];
    const uint32_t f = blockIdx.x, tid = threadIdx.x, nt = blockDim.x;
    const size_t state_words = (size_t)a.layers * a.z * W;
    const auto [ents, ent_ptr, ncolor, app, state] = qc_frame_layout<PostT, SSMEM>(a, smem, state_words, f);
    qc_load_tables(a, ents, ent_ptr, ncolor, tid, nt);
    const int has_info = qc_frame_load<PREC>(a, app, state, state_words, f, tid, nt);

    typedef typename raw_words<W>::type raw_t;
    raw_t* rstate = reinterpret_cast<raw_t*>(state);
    const uint32_t rt = tid / SPLIT, part = tid % SPLIT; /* the row's lane; this thread's part */
    const bool active = rt < a.z;
    const unsigned mask = SPLIT > 1 ? __ballot_sync(0xffffffffu, active) : 0xffffffffu;
    raw_t next = active ? rstate[rt] : raw_t();
    int it = 0;
    bool ok = false;
    while (it < a.max_iterations) {
        uint32_t l0 = 0;
        if constexpr (PROF != 0) {
            lean_prof_steps<PREC, PostT, W, SSMEM, SPLIT, PROF, 0, 0>(a, app, ents, rstate, rt, part, mask, active, next);
            l0 = (uint32_t)row_profile_end<PROF>();
        }
        for (uint32_t l = l0; l < a.layers; l++) {
            const uint32_t e0 = ent_ptr[l], d = ent_ptr[l + 1] - e0;
            lean_layer<PREC, PostT, W, SSMEM, SPLIT, 1, LEAN_MAX_DEGREE>(a, app, ents + e0, d, l, rstate, rt, part, mask,
                                                                         active, next);
        }
        if (qc_stop_after(a, ++it, ents, ent_ptr, app, tid, nt, &ok))
            break;
    }
    qc_frame_store(a, app, f, tid, nt, it, ok && has_info);
}

} // namespace

#endif
