/* The pair kernel's builds at float16, two frames per word (lanes_f16). */
#include "qc_pair_pick.cuh"

qc_kernel_fn qc_pick_pair_f16(const qc_plan* p, qc_pair_use use) { return pick_lean_pair<lanes_f16>(p, use); }
