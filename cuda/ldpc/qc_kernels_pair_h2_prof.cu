/* The pair kernel's builds at int8 (lanes_h2) whose layers are compiled for a 5G NR base graph's
 * (pair_prof_steps): a BG1 code (its rows of 19 edges keep the compact row state) and a BG2 one
 * (one sign word), each with the row state on chip for many groups (the high rates) or for one
 * group per SM with the edge offsets (a slot), or in global memory in the short form for many
 * groups (the mother codes). Their own translation unit: each is long straight code. */
#include "qc_pair_pick.cuh"

namespace {

template <int PROF, int SV> qc_kernel_fn pick_pair_prof(const qc_plan* p, bool one)
{
    if (p->pair_ssmem)
        return !one ? k_qc_lean_pair<lanes_h2, SV, false, true, false, 2, false, false, PROF>
               : p->ow_tab ? k_qc_lean_pair<lanes_h2, SV, false, true, false, 1, false, true, PROF>
                           : nullptr;
    if (p->pair_short && !one)
        return k_qc_lean_pair<lanes_h2, SV, false, false, true, 2, false, false, PROF>;
    return nullptr;
}

} // namespace

qc_kernel_fn qc_pick_pair_h2_prof(const qc_plan* p, bool one)
{
    static_assert(LAYER_PROFILES == 2, "a build per profile");
    if (p->packed != 2 || p->prec != LDPC_PREC_I8 || p->packed_gpost)
        return nullptr;
    const int sv = p->pair_compact ? 0 : p->packed_sv;
    if (p->pair_prof == 1 && sv == 0)
        return pick_pair_prof<1, 0>(p, one);
    if (p->pair_prof == 2 && sv == 1)
        return pick_pair_prof<2, 1>(p, one);
    return nullptr;
}
