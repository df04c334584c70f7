/* The pair kernel's builds at int8p16, two frames per word in half2 without the posterior clamp
 * (lanes_h2w). */
#include "qc_pair_pick.cuh"

qc_kernel_fn qc_pick_pair_h2w(const qc_plan* p, qc_pair_use use) { return pick_lean_pair<lanes_h2w>(p, use); }
