/* The packed QC kernel's builds (k_qc_packed, qc_packed_kernel.cuh): several frames per word on
 * rows that are not the lean ones. */
#include "qc_packed_pick.cuh"

qc_kernel_fn qc_pick_packed(const qc_plan* p)
{
    return p->prec == LDPC_PREC_F16 ? pick_packed<lanes_f16>(p)
           : p->i8p16               ? qc_pick_packed_h2w(p)
           : p->packed_bpost        ? pick_packed<lanes_h2b>(p)
           : p->packed == 2         ? pick_packed<lanes_h2>(p)
                                    : pick_packed<lanes_b4>(p);
}
