/* The lean QC kernel's builds (k_qc_lean, qc_lean_kernel.cuh). */
#include "qc_lean_kernel.cuh"

namespace {

template <int PREC, typename PostT, int W, int MINB, int SPLIT> qc_kernel_fn pick_lean_mem(bool sm)
{
    return sm ? k_qc_lean<PREC, PostT, W, true, MINB, SPLIT> : k_qc_lean<PREC, PostT, W, false, MINB, SPLIT>;
}

template <int MINB, int SPLIT> qc_kernel_fn pick_lean(const qc_plan* p, bool sm)
{
    switch (p->prec) {
    case LDPC_PREC_F16: return p->words == 2 ? pick_lean_mem<LDPC_PREC_F16, __half, 2, MINB, SPLIT>(sm)
                                             : pick_lean_mem<LDPC_PREC_F16, __half, 4, MINB, SPLIT>(sm);
    case LDPC_PREC_I8: return p->words == 1 ? pick_lean_mem<LDPC_PREC_I8, int8_t, 1, MINB, SPLIT>(sm)
                                            : pick_lean_mem<LDPC_PREC_I8, int8_t, 2, MINB, SPLIT>(sm);
    default:
        return p->half_post ? pick_lean_mem<LDPC_PREC_F32, __half, 4, MINB, SPLIT>(sm)
                            : pick_lean_mem<LDPC_PREC_F32, float, 4, MINB, SPLIT>(sm);
    }
}

} // namespace

/* The builds the plan launches: (2, 1) for many frames, (1, 1) and (1, 2) in the latency plan. */
qc_kernel_fn qc_pick_lean(const qc_plan* p, int minb, int split, bool sm)
{
    if (split == 1)
        if (qc_kernel_fn k = qc_pick_lean_prof(p, minb, sm))
            return k;
    if (minb == 2)
        return pick_lean<2, 1>(p, sm);
    return split == 2 ? pick_lean<1, 2>(p, sm) : pick_lean<1, 1>(p, sm);
}
