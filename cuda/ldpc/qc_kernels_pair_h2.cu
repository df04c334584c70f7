/* The pair kernel's builds at int8, two frames per word in half2 (lanes_h2). */
#include "qc_pair_pick.cuh"

qc_kernel_fn qc_pick_pair_h2(const qc_plan* p, qc_pair_use use) { return pick_lean_pair<lanes_h2>(p, use); }
