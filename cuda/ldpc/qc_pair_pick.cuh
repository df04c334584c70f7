/* The pair kernel's builds for one lane policy (k_qc_lean_pair, qc_lean_pair_kernel.cuh); each
 * policy's are their own translation unit (qc_kernels_pair_*.cu). */
#ifndef GPUFEC_QC_PAIR_PICK_CUH
#define GPUFEC_QC_PAIR_PICK_CUH

#include "qc_lean_pair_kernel.cuh"

namespace {

/* The row state's place; one: a chunk of at most one group per SM (a slot of 152 5G NR blocks
 * is 76 pairs on 132 SMs), the kernel built for one block per SM, whose registers are not
 * capped for two (pair_one_wave; posteriors in global memory keep the two-block build). */
template <class L, int SV, bool SHORT> qc_kernel_fn pick_lean_pair_mem(const qc_plan* p, bool one)
{
    if (p->packed_gpost)
        return k_qc_lean_pair<L, SV, true, false, SHORT, 2>;
    if (p->pair_ssmem && one && p->ow_tab)
        return k_qc_lean_pair<L, SV, false, true, SHORT, 1, false, true>;
    if (p->pair_ssmem)
        return one ? k_qc_lean_pair<L, SV, false, true, SHORT, 1> : k_qc_lean_pair<L, SV, false, true, SHORT, 2>;
    return one ? k_qc_lean_pair<L, SV, false, false, SHORT, 1> : k_qc_lean_pair<L, SV, false, false, SHORT, 2>;
}

template <class L, int SV> qc_kernel_fn pick_lean_pair_short(const qc_plan* p, bool one)
{
    if constexpr (L::PREC == LDPC_PREC_I8 && L::FR == 2)
        if (p->pair_short)
            return pick_lean_pair_mem<L, SV, true>(p, one);
    return pick_lean_pair_mem<L, SV, false>(p, one);
}

/* The edge pairs' build (one frame per block) for the plan's soft-bit source (ep_src) */
template <class L, bool TAB, int PROF> qc_kernel_fn pick_edge_pairs_src(const qc_plan* p)
{
    return p->ep_src == 2 ? k_qc_lean_pair<L, 0, false, true, false, 1, true, TAB, PROF, false, 2>
                          : k_qc_lean_pair<L, 0, false, true, false, 1, true, TAB, PROF, false, 1>;
}
template <class L, int PROF> qc_kernel_fn pick_edge_pairs(const qc_plan* p)
{
    return p->ep_tab ? pick_edge_pairs_src<L, true, PROF>(p) : pick_edge_pairs_src<L, false, PROF>(p);
}

/* Rows longer than one sign word of two frames: the compact row state (lean rows have at most
 * LEAN_MAX_DEGREE edges, within PAIR_COMPACT_MAX_DEGREE); else packed_row's. The latency plan's
 * edge pairs: 16-bit lanes, row state on chip, one frame per block. */
template <class L> qc_kernel_fn pick_lean_pair(const qc_plan* p, qc_pair_use use)
{
    static_assert(LEAN_MAX_DEGREE <= PAIR_COMPACT_MAX_DEGREE, "lean rows in the compact state");
    if constexpr (L::FR == 2) { /* one sign word, or the compact state */
        if (use == QC_PAIR_EDGES) {
            if constexpr (EP_TWO<L, true>) /* a layer profile's code (qc_layer_profile.cuh) */
                if (p->ep_prof == 1 || p->ep_prof == 2) {
                    static_assert(LAYER_PROFILES == 2, "a kernel per profile");
                    return p->ep_prof == 1 ? pick_edge_pairs<L, 1>(p) : pick_edge_pairs<L, 2>(p);
                }
            return pick_edge_pairs<L, 0>(p);
        }
        const bool one = use == QC_PAIR_ONE_WAVE;
        return p->pair_compact ? pick_lean_pair_short<L, 0>(p, one) : pick_lean_pair_short<L, 1>(p, one);
    } else {
        return p->packed_sv > 1 ? pick_lean_pair_mem<L, 2, false>(p, false) : pick_lean_pair_mem<L, 1, false>(p, false);
    }
}

/* The builds on the plan's layer profile (pair_prof_steps), for many groups with the row state on
 * chip or in global memory (int8: in the short form) and for one group per SM with the state and
 * the edge offsets on chip; NULL where none is built for the plan's row state. SV: the plan's,
 * each profile's own (BG1's rows of 19 edges: the compact state; BG2's: one sign word). Many
 * groups at Z = 384 (qc_pair_kz): the window's entries compiled (z384_offsets). */
template <class L, int PROF, int SV> qc_kernel_fn pick_pair_prof_mem(const qc_plan* p, bool one)
{
    constexpr bool SHORT = L::PREC == LDPC_PREC_I8; /* the int8 plan's state in global memory */
    const bool kz = qc_pair_kz(p);
    if (p->pair_ssmem && !one)
        return kz ? k_qc_lean_pair<L, SV, false, true, false, 2, false, false, PROF, true>
                  : k_qc_lean_pair<L, SV, false, true, false, 2, false, false, PROF>;
    if (p->pair_ssmem)
        return p->ow_tab ? k_qc_lean_pair<L, SV, false, true, false, 1, false, true, PROF> : nullptr;
    if (!one && (p->pair_short != 0) == SHORT)
        return kz ? k_qc_lean_pair<L, SV, false, false, SHORT, 2, false, false, PROF, true>
                  : k_qc_lean_pair<L, SV, false, false, SHORT, 2, false, false, PROF>;
    return nullptr;
}

template <class L> qc_kernel_fn pick_pair_prof(const qc_plan* p, bool one)
{
    static_assert(LAYER_PROFILES == 2, "a build per profile");
    if (p->packed != 2 || p->packed_gpost || p->prec != L::PREC)
        return nullptr;
    const int sv = p->pair_compact ? 0 : p->packed_sv;
    if (p->pair_prof == 1 && sv == 0)
        return pick_pair_prof_mem<L, 1, 0>(p, one);
    if (p->pair_prof == 2 && sv == 1)
        return pick_pair_prof_mem<L, 2, 1>(p, one);
    return nullptr;
}

} // namespace

#endif
