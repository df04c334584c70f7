/* The pair kernel's builds at int8, four frames per word in bytes (lanes_b4). */
#include "qc_pair_pick.cuh"

qc_kernel_fn qc_pick_pair_b4(const qc_plan* p) { return pick_lean_pair<lanes_b4>(p, QC_PAIR_MANY); }
