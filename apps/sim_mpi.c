#include "sim_mpi.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifdef GPUFEC_HAVE_MPI
#include <mpi.h>
#endif

/* 1 once MPI_Init ran (never without MPI): until then every call acts for a process alone. */
static int started;

/* Environment variables that MPI launchers set in the processes they start (Open MPI, PMIx, the
 * PMI of MPICH/Slurm). */
static const char* launched_by(void)
{
    static const char* const vars[] = {"OMPI_COMM_WORLD_SIZE", "PMIX_RANK", "PMI_SIZE", "PMI_RANK"};
    for (size_t i = 0; i < sizeof vars / sizeof *vars; i++)
        if (getenv(vars[i]))
            return vars[i];
    return NULL;
}

int sim_mpi_start(int* argc, char*** argv, sim_ranks* r, char* why, size_t why_len)
{
    r->rank = 0, r->size = 1, r->local_rank = 0;
    const char* var = launched_by();
    if (!var)
        return 0;
#ifdef GPUFEC_HAVE_MPI
    (void)var;
    if (MPI_Init(argc, argv) != MPI_SUCCESS) {
        snprintf(why, why_len, "MPI_Init failed");
        return -1;
    }
    started = 1;
    MPI_Comm_rank(MPI_COMM_WORLD, &r->rank);
    MPI_Comm_size(MPI_COMM_WORLD, &r->size);
    MPI_Comm local;
    if (MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &local) == MPI_SUCCESS) {
        MPI_Comm_rank(local, &r->local_rank);
        MPI_Comm_free(&local);
    }
    return 0;
#else /* alone, and refusing a launcher that started several processes */
    (void)argc, (void)argv;
    const char* size = getenv(var[0] == 'O' ? "OMPI_COMM_WORLD_SIZE" : "PMI_SIZE");
    if (size && atoi(size) == 1)
        return 0;
    snprintf(why, why_len,
             "started by an MPI launcher (%s is set), but this gpufec-sim was built without MPI: each process "
             "would run the whole sweep alone. Install Open MPI (libopenmpi-dev) and rebuild, or run it "
             "without mpirun",
             var);
    return -1;
#endif
}

void sim_mpi_stop(void)
{
#ifdef GPUFEC_HAVE_MPI
    if (started)
        MPI_Finalize();
#endif
    started = 0;
}

int sim_mpi_allgather(const void* mine, size_t bytes, void* all)
{
    if (!started) {
        memcpy(all, mine, bytes);
        return 0;
    }
#ifdef GPUFEC_HAVE_MPI
    if (bytes <= INT_MAX &&
        MPI_Allgather(mine, (int)bytes, MPI_BYTE, all, (int)bytes, MPI_BYTE, MPI_COMM_WORLD) == MPI_SUCCESS)
        return 0;
#endif
    return -1;
}

int sim_mpi_allgatherv(const void* mine, const size_t* bytes, void* all)
{
    if (!started) {
        memcpy(all, mine, bytes[0]);
        return 0;
    }
    int rc = -1;
#ifdef GPUFEC_HAVE_MPI
    int size, rank;
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    int* counts = malloc((size_t)size * sizeof *counts);
    int* offsets = malloc((size_t)size * sizeof *offsets);
    rc = counts && offsets ? 0 : -1;
    size_t at = 0;
    for (int i = 0; !rc && i < size; i++) {
        if (bytes[i] > INT_MAX || at > INT_MAX - bytes[i])
            rc = -1;
        else {
            counts[i] = (int)bytes[i];
            offsets[i] = (int)at;
            at += bytes[i];
        }
    }
    if (!rc && MPI_Allgatherv(mine, counts[rank], MPI_BYTE, all, counts, offsets, MPI_BYTE, MPI_COMM_WORLD) != MPI_SUCCESS)
        rc = -1;
    free(counts), free(offsets);
#endif
    return rc;
}

int sim_mpi_bcast(void* buf, size_t bytes)
{
    if (!started)
        return 0;
#ifdef GPUFEC_HAVE_MPI
    if (bytes <= INT_MAX && MPI_Bcast(buf, (int)bytes, MPI_BYTE, 0, MPI_COMM_WORLD) == MPI_SUCCESS)
        return 0;
#else
    (void)buf, (void)bytes;
#endif
    return -1;
}

void sim_mpi_abort(int code)
{
#ifdef GPUFEC_HAVE_MPI
    if (started)
        MPI_Abort(MPI_COMM_WORLD, code);
#endif
    exit(code);
}
