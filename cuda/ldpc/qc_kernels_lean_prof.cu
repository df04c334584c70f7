/* The lean QC kernel's builds at float32 whose layers are compiled for a 5G NR base graph's
 * (lean_prof_steps): many frames (two blocks per SM) and the latency plan (one), the row state on
 * chip or in global memory. Their own translation unit: each is long straight code. */
#include "qc_lean_kernel.cuh"

namespace {

template <int PROF, int MINB> qc_kernel_fn pick_lean_prof(bool sm)
{
    return sm ? k_qc_lean<LDPC_PREC_F32, float, 4, true, MINB, 1, PROF> : k_qc_lean<LDPC_PREC_F32, float, 4, false, MINB, 1, PROF>;
}

} // namespace

qc_kernel_fn qc_pick_lean_prof(const qc_plan* p, int minb, bool sm)
{
    static_assert(LAYER_PROFILES == 2, "a build per profile");
    if (p->prec != LDPC_PREC_F32 || p->half_post || p->words != 4 || !p->lean_prof)
        return nullptr;
    if (p->lean_prof == 1)
        return minb == 2 ? pick_lean_prof<1, 2>(sm) : pick_lean_prof<1, 1>(sm);
    return minb == 2 ? pick_lean_prof<2, 2>(sm) : pick_lean_prof<2, 1>(sm);
}
