#include "sim_ranks.h"

#include "cli_util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* What a rank says of its share after a round. */
typedef struct {
    long long done; /* units counted from the start of its share, in order */
    double seconds, decoder_bps;
    int busy_threads, stop, error;
    char error_text[200];
} rank_report;

static void add(sim_counts* acc, const sim_counts* c)
{
    acc->frames += c->frames;
    acc->frame_errors += c->frame_errors;
    acc->bit_errors += c->bit_errors;
    acc->iterations += c->iterations;
}

void sim_run_point_ranks(const sim_ranks* r, const sim_point_job* job, sim_point_result* out, sim_progress_fn progress,
                         void* user, double every)
{
    if (r->size <= 1) {
        sim_run_point(job, out, progress, user, every);
        return;
    }
    memset(out, 0, sizeof *out);
    const int size = r->size;
    const long long total = (job->max_frames + SIM_UNIT_FRAMES - 1) / SIM_UNIT_FRAMES;
    rank_report* reports = calloc((size_t)size, sizeof *reports);
    long long* share = calloc((size_t)size, sizeof *share);
    double* speed = calloc((size_t)size, sizeof *speed); /* units per second in the last round */
    double* dec_weighted = calloc((size_t)size, sizeof *dec_weighted);
    double* dec_time = calloc((size_t)size, sizeof *dec_time);
    int* busy = calloc((size_t)size, sizeof *busy);
    size_t* bytes = calloc((size_t)size, sizeof *bytes);
    sim_counts *mine = NULL, *all = NULL;
    size_t mine_cap = 0, all_cap = 0;
    sim_counts acc = job->start;
    long long prefix = job->start_unit;
    const double t0 = now();
    double round_seconds = 0.25, last_report = t0;
    int fatal = !reports || !share || !speed || !dec_weighted || !dec_time || !busy || !bytes;
    out->stop = SIM_STOP_FRAMES;
    while (!fatal) {
        if (acc.frame_errors >= job->min_frame_errors) {
            out->stop = SIM_STOP_ERRORS;
            break;
        }
        if (prefix >= total) {
            out->stop = SIM_STOP_FRAMES;
            break;
        }
        /* This round's shares, in rank order from the first unit not yet counted: one unit per
         * thread in the first round, then what each rank ran in the last one, scaled to the
         * round's length (which grows to a few seconds: short at first, so a point that ends in a
         * few units ends soon). Every rank computes the same shares from the same reports. */
        long long left = total - prefix, first = prefix, my_first = 0;
        for (int q = 0; q < size; q++) {
            long long s = speed[q] > 0 ? (long long)(speed[q] * round_seconds + 0.5) : job->threads;
            s = s < 1 ? 1 : s;
            s = s < left ? s : left;
            share[q] = s;
            left -= s;
            if (q == r->rank)
                my_first = first;
            first += s;
        }
        const long long mine_n = share[r->rank];
        if ((size_t)mine_n > mine_cap) {
            free(mine);
            mine_cap = (size_t)mine_n;
            if (!(mine = malloc(mine_cap * sizeof *mine)))
                fatal = 1;
        }
        rank_report me;
        memset(&me, 0, sizeof me);
        if (fatal) {
            me.error = GPUFEC_ERR_OUT_OF_MEMORY;
            snprintf(me.error_text, sizeof me.error_text, "out of memory");
        } else if (mine_n > 0) {
            sim_point_job local = *job;
            local.start_unit = my_first;
            local.end_unit = my_first + mine_n;
            memset(&local.start, 0, sizeof local.start);
            /* The errors this share needs, alone, for the point to end: beyond them the fold ends
             * within this share whatever the other ranks count. */
            local.min_frame_errors = job->min_frame_errors - acc.frame_errors;
            local.unit_counts = mine;
            local.whole_claims = 1; /* the rounds ramp already; a share is sized to keep every thread busy */
            if (job->max_seconds > 0) {
                const double rest = job->max_seconds - (now() - t0);
                local.max_seconds = rest > 1e-3 ? rest : 1e-3;
            }
            sim_point_result res;
            sim_run_point(&local, &res, NULL, NULL, 0);
            me.done = res.units - my_first;
            me.seconds = res.seconds;
            me.decoder_bps = res.decoder_bps;
            me.busy_threads = res.busy_threads;
            me.stop = res.stop;
            me.error = res.error;
            memcpy(me.error_text, res.error_text, sizeof me.error_text);
        } else {
            me.stop = SIM_STOP_FRAMES;
        }
        if (sim_mpi_allgather(&me, sizeof me, reports) != 0) {
            out->error = GPUFEC_ERR_INTERNAL;
            snprintf(out->error_text, sizeof out->error_text, "MPI: exchanging the ranks' reports failed");
            break;
        }
        size_t units_all = 0;
        for (int q = 0; q < size; q++) {
            bytes[q] = (size_t)reports[q].done * sizeof(sim_counts);
            units_all += (size_t)reports[q].done;
        }
        if (units_all > all_cap) {
            free(all);
            all_cap = units_all;
            all = malloc(all_cap * sizeof *all);
        }
        if ((units_all && !all) || sim_mpi_allgatherv(mine, bytes, all) != 0) {
            out->error = GPUFEC_ERR_INTERNAL;
            snprintf(out->error_text, sizeof out->error_text, "MPI: exchanging the units' counts failed");
            break;
        }
        /* The fold: every rank the same, in unit order, to the first unit that reaches the target
         * or the first unit a rank did not count (it stopped on time, a signal or an error). */
        size_t at = 0;
        int ended = 0;
        for (int q = 0; q < size && !ended; q++) {
            for (long long i = 0; i < reports[q].done && !ended; i++) {
                add(&acc, &all[at + (size_t)i]);
                prefix++;
                if (acc.frame_errors >= job->min_frame_errors) {
                    out->stop = SIM_STOP_ERRORS;
                    ended = 1;
                } else if (prefix >= total) {
                    out->stop = SIM_STOP_FRAMES;
                    ended = 1;
                }
            }
            at += (size_t)reports[q].done;
            if (!ended && reports[q].done < share[q]) {
                out->stop = reports[q].stop;
                ended = 1;
            }
        }
        for (int q = 0; q < size; q++) {
            if (reports[q].done > 0 && reports[q].seconds > 0)
                speed[q] = (double)reports[q].done / reports[q].seconds;
            dec_weighted[q] += reports[q].decoder_bps * reports[q].seconds;
            dec_time[q] += reports[q].decoder_bps > 0 ? reports[q].seconds : 0;
            busy[q] = reports[q].busy_threads > busy[q] ? reports[q].busy_threads : busy[q];
            if (reports[q].error && !out->error) {
                out->error = (gpufec_status)reports[q].error;
                snprintf(out->error_text, sizeof out->error_text, "rank %d: %s", q, reports[q].error_text);
            }
            /* a rank that saw a signal or the time limit after its whole share still ends the point */
            if (!ended && (reports[q].stop == SIM_STOP_INTERRUPT || reports[q].stop == SIM_STOP_TIME)) {
                out->stop = (sim_stop)reports[q].stop;
                ended = 1;
            }
        }
        if (out->error || ended)
            break;
        const double t = now();
        if (progress && every > 0 && r->rank == 0 && t - last_report >= every) {
            progress(user, &acc, prefix, acc.frames - job->start.frames, t - t0);
            last_report = t;
        }
        round_seconds = round_seconds * 2 < 4.0 ? round_seconds * 2 : 4.0;
    }
    if (fatal && !out->error) {
        out->error = GPUFEC_ERR_OUT_OF_MEMORY;
        snprintf(out->error_text, sizeof out->error_text, "out of memory");
    }
    out->counts = acc;
    out->units = prefix;
    out->seconds = now() - t0;
    for (int q = 0; !fatal && q < size; q++) {
        out->decoder_bps += dec_time[q] > 0 ? dec_weighted[q] / dec_time[q] : 0;
        out->busy_threads += busy[q];
    }
    free(reports), free(share), free(speed), free(dec_weighted), free(dec_time), free(busy), free(bytes);
    free(mine), free(all);
}
