/* One point of an error-rate simulation, the same statistics for any number of threads: frames
 * are handed out in fixed units of SIM_UNIT_FRAMES, each frame made from its own counters
 * (sim_frames.h), and a point's result is that of the first units, in order, that reach the
 * frame-error target or the frame limit. Units finished beyond that are dropped; a thread never
 * runs more than a window of units ahead of the first unfinished one, so memory does not grow
 * with the frame count. */
#ifndef GPUFEC_SIM_ENGINE_H
#define GPUFEC_SIM_ENGINE_H

#include <gpufec/gpufec.h>

#include "sim_frames.h"

#include <signal.h>

#define SIM_UNIT_FRAMES 32

typedef struct {
    long long frames, frame_errors, bit_errors, iterations;
} sim_counts;

typedef enum { SIM_STOP_ERRORS, SIM_STOP_FRAMES, SIM_STOP_TIME, SIM_STOP_INTERRUPT } sim_stop;
typedef enum { SIM_AWGN, SIM_BSC, SIM_BEC } sim_channel;

/* What a thread keeps from one point to the next: its decoder context and its GPU buffers, made on
 * first use (their start-up was a visible share of a short point) on the slot's device. */
typedef struct {
    gpufec_decoder* dec;
    struct sim_gpu* gpu;
    int device;
} sim_slot;

typedef struct {
    sim_slot* slots; /* one per thread */
    int count;
} sim_pool;

/* threads slots, slot t on devices[t % ndevices] (ndevices 0: the options' device). NULL: out of
 * memory. */
sim_pool* sim_pool_create(int threads, const int* devices, int ndevices);
void sim_pool_destroy(sim_pool* pool);

typedef struct {
    sim_pool* pool; /* threads == pool->count */
    const gpufec_code* code;
    const gpufec_decoder_opts* dec;
    sim_channel channel;
    int all_zero;        /* the all-zero codeword every frame (no encoder; symmetric decoders only) */
    int gpu_chain;       /* frames made and counted on the GPU (CUDA decoder; sim_gpu.h) */
    int device_frames;   /* random codewords: information bits and encoder on the GPU too */
    int bits_per_symbol; /* AWGN: 1 BPSK (real), 2 QPSK, 4 16-QAM, 6 64-QAM */
    double x, sigma2;    /* x: BSC crossover or BEC erasure probability; sigma2: AWGN per dimension */
    sim_key key;
    long long min_frame_errors, max_frames;
    int threads, batch_units; /* units per decode call */
    double max_seconds;       /* 0: no time limit */
    volatile sig_atomic_t* interrupted;
    long long start_unit;     /* resuming: units already counted in `start` */
    sim_counts start;
    long long end_unit;       /* > 0: no unit at or beyond it runs (an MPI rank's share of a round) */
    sim_counts* unit_counts;  /* non-NULL: each folded unit's counts, at [unit - start_unit] */
    int whole_claims;         /* claims of a whole batch from the start (an MPI share: its rounds ramp) */
} sim_point_job;

typedef struct {
    sim_counts counts;
    long long units;     /* units counted, from the first */
    double seconds;      /* wall time of this run of the point */
    double decoder_bps;  /* sum over the threads that decoded of their bits over their decode time */
    int busy_threads;
    sim_stop stop;
    gpufec_status error; /* GPUFEC_OK unless a library call failed (error_text says which) */
    char error_text[200];
} sim_point_result;

/* Called about every `every` seconds while the point runs, with the counts of the first `units`
 * units, folded so far (this run's part and the resumed part together), and the elapsed time of
 * this run. */
typedef void (*sim_progress_fn)(void* user, const sim_counts* so_far, long long units, long long new_frames,
                                double elapsed);

void sim_run_point(const sim_point_job* job, sim_point_result* out, sim_progress_fn progress, void* user,
                   double every);

#endif
