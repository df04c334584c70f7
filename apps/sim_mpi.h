/* gpufec-sim across processes and hosts: `mpirun -np N gpufec-sim ...`. Built with MPI when CMake
 * finds it (GPUFEC_HAVE_MPI); MPI is started only when a launcher started this process, so a plain
 * run never touches it. A build without MPI refuses to run under a launcher (each process would
 * run the whole sweep alone and write the same file). */
#ifndef GPUFEC_SIM_MPI_H
#define GPUFEC_SIM_MPI_H

#include <stddef.h>

typedef struct {
    int rank, size;  /* size 1: alone */
    int local_rank;  /* among the processes of this host: picks its GPU */
} sim_ranks;

/* Starts MPI when a launcher started this process; else rank 0 of 1. Returns 0, or -1 with the
 * reason in why. */
int sim_mpi_start(int* argc, char*** argv, sim_ranks* r, char* why, size_t why_len);
void sim_mpi_stop(void);
/* Every rank's `bytes` bytes of `mine`, in rank order, into `all` (size * bytes). 0 or -1. */
int sim_mpi_allgather(const void* mine, size_t bytes, void* all);
/* Every rank's `bytes[r]` bytes (known to all ranks), in rank order, packed into `all`. 0 or -1. */
int sim_mpi_allgatherv(const void* mine, const size_t* bytes, void* all);
/* Rank 0's `bytes` bytes of buf into every rank's buf. 0 or -1. */
int sim_mpi_bcast(void* buf, size_t bytes);
/* Ends every rank (a rank's error that the others cannot see). */
void sim_mpi_abort(int code);

#endif
