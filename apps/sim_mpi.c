#include "sim_mpi.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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

#ifdef GPUFEC_HAVE_MPI
#include <mpi.h>
#include <limits.h>

static int started;

int sim_mpi_start(int* argc, char*** argv, sim_ranks* r, char* why, size_t why_len)
{
    r->rank = 0, r->size = 1, r->local_rank = 0;
    if (!launched_by())
        return 0;
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
}

void sim_mpi_stop(void)
{
    if (started)
        MPI_Finalize();
    started = 0;
}

int sim_mpi_allgather(const void* mine, size_t bytes, void* all)
{
    if (!started) {
        memcpy(all, mine, bytes);
        return 0;
    }
    if (bytes > INT_MAX)
        return -1;
    return MPI_Allgather(mine, (int)bytes, MPI_BYTE, all, (int)bytes, MPI_BYTE, MPI_COMM_WORLD) == MPI_SUCCESS ? 0 : -1;
}

int sim_mpi_allgatherv(const void* mine, const size_t* bytes, void* all)
{
    if (!started) {
        memcpy(all, mine, bytes[0]);
        return 0;
    }
    int size, rank;
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    int* counts = malloc((size_t)size * sizeof *counts);
    int* offsets = malloc((size_t)size * sizeof *offsets);
    int rc = counts && offsets ? 0 : -1;
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
    return rc;
}

int sim_mpi_bcast(void* buf, size_t bytes)
{
    if (!started)
        return 0;
    if (bytes > INT_MAX)
        return -1;
    return MPI_Bcast(buf, (int)bytes, MPI_BYTE, 0, MPI_COMM_WORLD) == MPI_SUCCESS ? 0 : -1;
}

void sim_mpi_abort(int code)
{
    if (started)
        MPI_Abort(MPI_COMM_WORLD, code);
    exit(code);
}

#else /* built without MPI: alone, and refusing a launcher */

int sim_mpi_start(int* argc, char*** argv, sim_ranks* r, char* why, size_t why_len)
{
    (void)argc, (void)argv;
    r->rank = 0, r->size = 1, r->local_rank = 0;
    const char* var = launched_by();
    const char* size = var ? getenv(var[0] == 'O' ? "OMPI_COMM_WORLD_SIZE" : "PMI_SIZE") : NULL;
    if (var && (!size || atoi(size) != 1)) {
        snprintf(why, why_len,
                 "started by an MPI launcher (%s is set), but this gpufec-sim was built without MPI: each process "
                 "would run the whole sweep alone. Install Open MPI (libopenmpi-dev) and rebuild, or run it "
                 "without mpirun",
                 var);
        return -1;
    }
    return 0;
}
void sim_mpi_stop(void) {}
int sim_mpi_allgather(const void* mine, size_t bytes, void* all)
{
    memcpy(all, mine, bytes);
    return 0;
}
int sim_mpi_allgatherv(const void* mine, const size_t* bytes, void* all)
{
    memcpy(all, mine, bytes[0]);
    return 0;
}
int sim_mpi_bcast(void* buf, size_t bytes)
{
    (void)buf, (void)bytes;
    return 0;
}
void sim_mpi_abort(int code) { exit(code); }
#endif
