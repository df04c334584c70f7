/* One point of a simulation spread over MPI ranks, with the statistics of one process: the ranks
 * run rounds; in each, every rank runs a consecutive share of the next units (shares sized by the
 * ranks' measured speeds, so a slow rank does not hold the others back), then all ranks exchange
 * their per-unit counts and fold them in unit order, each the same way. The point ends at the first
 * unit where the fold reaches the target, exactly where one process would end it. */
#ifndef GPUFEC_SIM_RANKS_H
#define GPUFEC_SIM_RANKS_H

#include "sim_engine.h"
#include "sim_mpi.h"

/* sim_run_point on one rank; across ranks when r->size > 1 (every rank calls it with the same
 * job). progress is called on rank 0 only. */
void sim_run_point_ranks(const sim_ranks* r, const sim_point_job* job, sim_point_result* out,
                         sim_progress_fn progress, void* user, double every);

#endif
