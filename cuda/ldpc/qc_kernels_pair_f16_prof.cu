/* The pair kernel's builds at float16 (lanes_f16) whose layers are compiled for a 5G NR base
 * graph's (pick_pair_prof, pair_prof_steps). Their own translation unit: each is long straight code. */
#include "qc_pair_pick.cuh"

qc_kernel_fn qc_pick_pair_f16_prof(const qc_plan* p, bool one) { return pick_pair_prof<lanes_f16>(p, one); }
