/* The packed QC kernel's builds for one lane policy (k_qc_packed, qc_packed_kernel.cuh); each
 * policy's are in a translation unit of their own (qc_kernels_packed*.cu). */
#ifndef GPUFEC_QC_PACKED_PICK_CUH
#define GPUFEC_QC_PACKED_PICK_CUH

#include "qc_packed_kernel.cuh"

namespace {

template <class L, int SV, int DMAX> qc_kernel_fn pick_packed_post(const qc_plan* p)
{
    if constexpr (L::BYTE_POST) /* (on chip by design) */
        return k_qc_packed<L, SV, false, DMAX>;
    else
        return p->packed_gpost ? k_qc_packed<L, SV, true, DMAX> : k_qc_packed<L, SV, false, DMAX>;
}

/* The kernel built for the code's longest row: one sign word (state vector) while the rows fit
 * a lane's bits. */
template <class L> qc_kernel_fn pick_packed(const qc_plan* p)
{
    if (p->packed_dmax <= 8)
        return pick_packed_post<L, 1, 8>(p);
    if (p->packed_dmax <= L::BITS)
        return pick_packed_post<L, 1, 16>(p);
    return p->packed_dmax <= 16 ? pick_packed_post<L, 2, 16>(p) : pick_packed_post<L, 2, PACKED_MAX_DEGREE>(p);
}

} // namespace

#endif
