/* The pair kernel's builds at int8p16 (lanes_h2w) whose layers are compiled for a 5G NR base
 * graph's (pick_pair_prof, pair_prof_steps). Their own translation unit: each is long straight
 * code. */
#include "qc_pair_pick.cuh"

qc_kernel_fn qc_pick_pair_h2w_prof(const qc_plan* p, bool one) { return pick_pair_prof<lanes_h2w>(p, one); }
