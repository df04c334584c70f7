/* The generic QC layered kernel (k_qc_layered): any QC layer view (colour tables, lane slices,
 * skipped lanes), min-sum at every precision or SPA at float32, one frame per block. */
#include "qc_common.cuh"

namespace {

/* SPLIT: threads per row (min-sum: 1 in the throughput plan, 2 in the latency plan; SPA: 2,
 * qc_plan_create). SPA: the tanh rule with a message per edge (PREC float32) instead of
 * min-sum row states. */
template <int PREC, typename PostT, int W, bool SSMEM, int SPLIT, bool SPA, int DBMAX>
__global__ void __launch_bounds__(SPLIT > 2 ? 1024 : 512 * SPLIT) k_qc_layered(qc_args a)
{
    static_assert(!SPA || PREC == LDPC_PREC_F32, "SPA: float32");
    extern __shared__ __align__(16) unsigned char smem[];
    const uint32_t rows = a.layers * a.z, f = blockIdx.x, tid = threadIdx.x, nt = blockDim.x;
    const size_t state_words = SPA ? (size_t)a.entries * a.z : (size_t)rows * W; /* SPA: one float per edge slot */
    const auto [ents, ent_ptr, ncolor, app, state] = qc_frame_layout<PostT, SSMEM>(a, smem, state_words, f);

    qc_load_tables(a, ents, ent_ptr, ncolor, tid, nt);
    const int has_info = qc_frame_load<PREC>(a, app, state, state_words, f, tid, nt);

    typedef typename raw_words<W>::type raw_t;
    raw_t* rstate = reinterpret_cast<raw_t*>(state);
    /* Each row's state is read and written only by the thread of its lane, so the next phase's
     * state can be loaded before this phase's barrier: its latency (global memory) overlaps the
     * work. Phase (0, 0) serves lane tid in both colourings. */
    const uint32_t rt = tid / SPLIT, part = tid % SPLIT; /* the row thread; this thread's part */
    raw_t next = !SPA && rt < a.z ? rstate[rt] : raw_t();
    int it = 0;
    bool ok = false;
    while (it < a.max_iterations) {
        for (uint32_t l = 0; l < a.layers; l++) {
            const uint32_t e0 = ent_ptr[l], d = ent_ptr[l + 1] - e0;
            const uint32_t colors = ncolor[l];
            for (uint32_t col = 0; col < colors; col++) {
                const uint32_t lane = phase_lane(a, col, rt);
                const bool active = phase_active(a, colors, l, col, lane);
                if constexpr (SPA) {
                    const unsigned mask = SPLIT > 1 ? __ballot_sync(0xffffffffu, active) : 0xffffffffu;
                    if (active)
                        row_spa<PostT, SPLIT>(a, app, reinterpret_cast<float*>(state), ents, e0, d, lane, part, mask);
                    __syncthreads();
                    continue;
                }
                const raw_t cur = next;
                uint32_t nl, ncol;
                if (phase_next(a, colors, l, col, &nl, &ncol) && phase_lane(a, ncol, rt) < a.z)
                    next = rstate[nl * a.z + phase_lane(a, ncol, rt)];
                const unsigned mask = SPLIT > 1 ? __ballot_sync(0xffffffffu, active) : 0xffffffffu;
                if (active) {
                    const row_state ns =
                        row_update<PREC, PostT, SPLIT, DBMAX>(a, app, ents, e0, d, part, mask, lane,
                                                       state_codec<PREC, W>::unpack(cur));
                    if (part == 0)
                        rstate[l * a.z + lane] = state_codec<PREC, W>::pack(ns);
                }
                __syncthreads();
            }
        }
        if (qc_stop_after(a, ++it, ents, ent_ptr, app, tid, nt, &ok))
            break;
    }
    qc_frame_store(a, app, f, tid, nt, it, ok && has_info);
}

template <int PREC, typename PostT, int W, int SPLIT, bool SPA = false, int DBMAX = 8>
qc_kernel_fn pick_ssmem(bool ssmem)
{
    return ssmem ? k_qc_layered<PREC, PostT, W, true, SPLIT, SPA, DBMAX>
                 : k_qc_layered<PREC, PostT, W, false, SPLIT, SPA, DBMAX>;
}

template <int SPLIT> qc_kernel_fn pick_spa(const qc_plan* p, bool sm)
{
    return p->half_post ? pick_ssmem<LDPC_PREC_F32, __half, 4, SPLIT, true>(sm)
                        : pick_ssmem<LDPC_PREC_F32, float, 4, SPLIT, true>(sm);
}

template <int SPLIT, int DBMAX> qc_kernel_fn pick_one_frame(const qc_plan* p, bool sm)
{
    if (p->spa)
        return p->spa_split == 4 ? pick_spa<4>(p, sm) : pick_spa<2>(p, sm);
    switch (p->prec) {
    case LDPC_PREC_F16: return p->words == 2 ? pick_ssmem<LDPC_PREC_F16, __half, 2, SPLIT, false, DBMAX>(sm)
                                             : pick_ssmem<LDPC_PREC_F16, __half, 4, SPLIT, false, DBMAX>(sm);
    case LDPC_PREC_I8: return p->words == 1 ? pick_ssmem<LDPC_PREC_I8, int8_t, 1, SPLIT, false, DBMAX>(sm)
                                            : pick_ssmem<LDPC_PREC_I8, int8_t, 2, SPLIT, false, DBMAX>(sm);
    default:
        return p->half_post ? pick_ssmem<LDPC_PREC_F32, __half, 4, SPLIT, false, DBMAX>(sm)
                            : pick_ssmem<LDPC_PREC_F32, float, 4, SPLIT, false, DBMAX>(sm);
    }
}

} // namespace

/* The builds the plan launches: (1, 8) for many frames, (1, 20) with GPUFEC_CUDA_WIDE_ROWS and in
 * the latency plan, (2, 20) in the latency plan on small lifts. */
qc_kernel_fn qc_pick_one_frame(const qc_plan* p, int split, int dbmax, bool sm)
{
    if (split == 2)
        return pick_one_frame<2, 20>(p, sm);
    return dbmax > 8 ? pick_one_frame<1, 20>(p, sm) : pick_one_frame<1, 8>(p, sm);
}
