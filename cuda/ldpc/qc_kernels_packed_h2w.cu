/* The packed QC kernel's builds at int8p16 (lanes_h2w): two frames per word in half2 on rows that
 * are not the lean ones. */
#include "qc_packed_pick.cuh"

qc_kernel_fn qc_pick_packed_h2w(const qc_plan* p) { return pick_packed<lanes_h2w>(p); }
