#define _POSIX_C_SOURCE 200809L
#include "sim_engine.h"

#include "cli_util.h"
#include "sim_gpu.h"

#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

typedef struct {
    const sim_point_job* job;
    uint32_t n, k;
    long long total_units;
    size_t window; /* units a thread may run ahead of the first unfinished one */
    pthread_mutex_t lock;
    pthread_cond_t changed;
    long long next_unit, prefix;
    sim_counts acc; /* the units before `prefix`, folded in order */
    sim_counts* ring;
    unsigned char* ring_done;
    int stop, running;
    sim_stop reason;
    gpufec_status error;
    char error_text[200];
    double decoder_bps;
    int busy_threads;
    double t0;
} sim_shared;

static long long unit_frames(const sim_shared* sh, long long u)
{
    const long long left = sh->job->max_frames - u * SIM_UNIT_FRAMES;
    return left < SIM_UNIT_FRAMES ? left : SIM_UNIT_FRAMES;
}

/* With the lock held: the finished units at the front join the total, in order, and the point
 * stops at the first unit where the total reaches the target or the limit. */
static void fold(sim_shared* sh)
{
    const sim_point_job* job = sh->job;
    while (!sh->stop && sh->prefix < sh->total_units && sh->ring_done[sh->prefix % (long long)sh->window]) {
        const size_t slot = (size_t)(sh->prefix % (long long)sh->window);
        const sim_counts* c = &sh->ring[slot];
        sh->acc.frames += c->frames;
        sh->acc.frame_errors += c->frame_errors;
        sh->acc.bit_errors += c->bit_errors;
        sh->acc.iterations += c->iterations;
        if (job->unit_counts)
            job->unit_counts[sh->prefix - job->start_unit] = *c;
        sh->ring_done[slot] = 0;
        sh->prefix++;
        if (sh->acc.frame_errors >= job->min_frame_errors) {
            sh->stop = 1;
            sh->reason = SIM_STOP_ERRORS;
        } else if (sh->prefix >= sh->total_units) {
            sh->stop = 1;
            sh->reason = SIM_STOP_FRAMES;
        }
    }
}

static void fail(sim_shared* sh, gpufec_status st, const char* what)
{
    pthread_mutex_lock(&sh->lock);
    if (!sh->error) {
        sh->error = st;
        snprintf(sh->error_text, sizeof sh->error_text, "%s: %s", what, gpufec_status_str(st));
    }
    sh->stop = 1;
    pthread_cond_broadcast(&sh->changed);
    pthread_mutex_unlock(&sh->lock);
}

sim_pool* sim_pool_create(int threads, const int* devices, int ndevices)
{
    sim_pool* p = calloc(1, sizeof *p);
    if (p)
        p->slots = calloc((size_t)threads, sizeof *p->slots);
    if (!p || !p->slots) {
        free(p);
        return NULL;
    }
    p->count = threads;
    for (int t = 0; t < threads; t++)
        p->slots[t].device = ndevices > 0 ? devices[t % ndevices] : -1;
    return p;
}

void sim_pool_destroy(sim_pool* p)
{
    if (!p)
        return;
    for (int t = 0; t < p->count; t++) {
        gpufec_decoder_destroy(p->slots[t].dec);
        sim_gpu_destroy(p->slots[t].gpu);
    }
    free(p->slots);
    free(p);
}

typedef struct {
    sim_shared* sh;
    int index;
} worker_arg;

static void* worker(void* arg)
{
    sim_shared* sh = ((worker_arg*)arg)->sh;
    sim_slot* slot = &sh->job->pool->slots[((worker_arg*)arg)->index];
    const sim_point_job* job = sh->job;
    const uint32_t n = sh->n, k = sh->k;
    const size_t cap = (size_t)job->batch_units * SIM_UNIT_FRAMES;
    gpufec_status st = GPUFEC_OK;
    if (!slot->dec) {
        gpufec_decoder_opts o = *job->dec;
        if (slot->device >= 0)
            o.device = slot->device;
        st = gpufec_decoder_create(&slot->dec, job->code, &o);
    }
    gpufec_decoder* dec = slot->dec;
    uint8_t* info = malloc(cap * k);
    uint8_t* cw = malloc(cap * n);
    uint8_t* out = malloc(cap * k);
    float* llr = malloc(cap * n * sizeof *llr);
    int32_t* iters = malloc(cap * sizeof *iters);
    sim_counts* per_unit = malloc((size_t)job->batch_units * sizeof *per_unit);
    int32_t* frame_errors = malloc(cap * sizeof *frame_errors);
    sim_gpu* gpu = slot->gpu;
    double my_bits = 0, my_seconds = 0;
    if (st)
        fail(sh, st, "creating a decoder");
    else if (!info || !cw || !out || !llr || !iters || !per_unit || !frame_errors)
        fail(sh, st = GPUFEC_ERR_OUT_OF_MEMORY, "buffers");
    if (!st && job->gpu_chain && !gpu) {
        char why[160];
        const int frames_on = job->all_zero ? SIM_FRAMES_ALL_ZERO : job->device_frames ? SIM_FRAMES_DEVICE : SIM_FRAMES_HOST;
        if (sim_gpu_create(&gpu, slot->device >= 0 ? slot->device : job->dec->device, job->code, cap, frames_on, why,
                           sizeof why) == 0)
            slot->gpu = gpu;
        else {
            st = GPUFEC_ERR_DEVICE;
            pthread_mutex_lock(&sh->lock);
            if (!sh->error) {
                sh->error = st;
                snprintf(sh->error_text, sizeof sh->error_text, "the GPU chain: %s", why);
            }
            sh->stop = 1;
            pthread_cond_broadcast(&sh->changed);
            pthread_mutex_unlock(&sh->lock);
        }
    }
    while (!st) {
        pthread_mutex_lock(&sh->lock);
        for (;;) {
            if (job->interrupted && *job->interrupted && !sh->stop) {
                sh->stop = 1;
                sh->reason = SIM_STOP_INTERRUPT;
            }
            if (job->max_seconds > 0 && now() - sh->t0 > job->max_seconds && !sh->stop) {
                sh->stop = 1;
                sh->reason = SIM_STOP_TIME;
            }
            if (sh->stop || sh->next_unit >= sh->total_units)
                break;
            if (sh->next_unit + job->batch_units <= sh->prefix + (long long)sh->window)
                break;
            pthread_cond_wait(&sh->changed, &sh->lock); /* too far ahead of the first unfinished unit */
        }
        const int done = sh->stop || sh->next_unit >= sh->total_units;
        const long long u0 = sh->next_unit;
        /* Claims start at one unit and grow with what the point has handed out, up to the batch:
         * a point that ends early (its target reached in a few units) does not leave threads
         * working on large batches that the in-order rule then drops. The statistics do not
         * depend on the claim sizes. */
        long long units = job->whole_claims ? job->batch_units : u0 - job->start_unit < 1 ? 1 : u0 - job->start_unit;
        units = units < job->batch_units ? units : job->batch_units;
        units = sh->total_units - u0 < units ? sh->total_units - u0 : units;
        if (!done)
            sh->next_unit += units;
        pthread_mutex_unlock(&sh->lock);
        if (done)
            break;
        /* The frames' bits: generated and encoded on the host, unless the GPU makes them (the
         * all-zero word needs neither; the host path compares against info, so it is zeroed
         * there). */
        size_t nf = 0;
        for (long long u = u0; u < u0 + units; u++)
            nf += (size_t)unit_frames(sh, u);
        const int on_device = gpu && job->device_frames;
        if (job->all_zero) {
            if (!gpu)
                memset(info, 0, nf * k);
        } else if (!on_device) {
            for (size_t f = 0; f < nf; f++)
                sim_frame_info(job->key, (uint64_t)(u0 * SIM_UNIT_FRAMES) + f, k, info + f * k);
            if ((st = gpufec_code_encode(job->code, info, nf, cw))) {
                fail(sh, st, "encoding");
                break;
            }
        }
        const uint8_t* coded = job->all_zero || on_device ? NULL : cw;
        const uint64_t first = (uint64_t)(u0 * SIM_UNIT_FRAMES); /* the units' frames are consecutive */
        /* a randomised decoder (PGaB) draws from the frame's number, not the context's count */
        gpufec_decoder_set_frame_index(dec, first);
        if (gpu) { /* channel, decoding and counting on the device: per-frame counts come back */
            const double t0 = now();
            if ((st = sim_gpu_run(gpu, dec, job, first, nf, coded ? info : NULL, coded, frame_errors, iters))) {
                fail(sh, st, "the GPU chain");
                break;
            }
            my_seconds += now() - t0;
        } else {
            for (size_t f = 0; f < nf; f++) {
                const uint8_t* c = coded ? coded + f * n : NULL;
                if (job->channel == SIM_BSC)
                    sim_frame_bsc(job->key, first + f, c, n, job->x, llr + f * n);
                else if (job->channel == SIM_BEC)
                    sim_frame_bec(job->key, first + f, c, n, job->x, llr + f * n);
                else if (job->bits_per_symbol > 1)
                    sim_frame_awgn_qam(job->key, first + f, c, n, job->bits_per_symbol, job->sigma2, llr + f * n);
                else
                    sim_frame_awgn_bpsk(job->key, first + f, c, n, job->sigma2, llr + f * n);
            }
            const double t0 = now();
            if ((st = gpufec_decoder_decode(dec, llr, nf, out, iters, NULL))) {
                fail(sh, st, "decoding");
                break;
            }
            my_seconds += now() - t0;
            for (size_t f = 0; f < nf; f++) {
                int32_t e = 0;
                for (uint32_t i = 0; i < k; i++)
                    e += out[f * k + i] != info[f * k + i];
                frame_errors[f] = e;
            }
        }
        my_bits += (double)nf * k;
        nf = 0;
        for (long long u = 0; u < units; u++) {
            sim_counts c = {0, 0, 0, 0};
            for (long long j = 0; j < unit_frames(sh, u0 + u); j++, nf++) {
                c.frames++;
                c.bit_errors += frame_errors[nf];
                c.frame_errors += frame_errors[nf] != 0;
                c.iterations += iters[nf];
            }
            per_unit[u] = c;
        }
        pthread_mutex_lock(&sh->lock);
        for (long long u = 0; u < units; u++) {
            const size_t slot = (size_t)((u0 + u) % (long long)sh->window);
            sh->ring[slot] = per_unit[u];
            sh->ring_done[slot] = 1;
        }
        fold(sh);
        pthread_cond_broadcast(&sh->changed);
        pthread_mutex_unlock(&sh->lock);
    }
    pthread_mutex_lock(&sh->lock);
    if (my_seconds > 0) {
        sh->decoder_bps += my_bits / my_seconds;
        sh->busy_threads++;
    }
    sh->running--;
    pthread_cond_broadcast(&sh->changed);
    pthread_mutex_unlock(&sh->lock);
    free(info), free(cw), free(out), free(llr), free(iters), free(per_unit), free(frame_errors);
    return NULL;
}

void sim_run_point(const sim_point_job* job, sim_point_result* out, sim_progress_fn progress, void* user, double every)
{
    memset(out, 0, sizeof *out);
    sim_shared sh;
    memset(&sh, 0, sizeof sh);
    gpufec_code_info info;
    gpufec_code_get_info(job->code, &info);
    sh.job = job;
    sh.n = info.n;
    sh.k = info.k;
    sh.total_units = (job->max_frames + SIM_UNIT_FRAMES - 1) / SIM_UNIT_FRAMES;
    if (job->end_unit > 0 && job->end_unit < sh.total_units)
        sh.total_units = job->end_unit;
    sh.window = (size_t)job->threads * (size_t)job->batch_units * 2 + 1;
    sh.next_unit = sh.prefix = job->start_unit;
    sh.acc = job->start;
    sh.t0 = now();
    sh.ring = calloc(sh.window, sizeof *sh.ring);
    sh.ring_done = calloc(sh.window, 1);
    if (!sh.ring || !sh.ring_done) {
        out->error = GPUFEC_ERR_OUT_OF_MEMORY;
        snprintf(out->error_text, sizeof out->error_text, "out of memory");
        free(sh.ring), free(sh.ring_done);
        return;
    }
    /* Already done (a resumed point that had reached its target): nothing to run. */
    if (sh.acc.frame_errors >= job->min_frame_errors || sh.prefix >= sh.total_units) {
        sh.stop = 1;
        sh.reason = sh.acc.frame_errors >= job->min_frame_errors ? SIM_STOP_ERRORS : SIM_STOP_FRAMES;
    }
    pthread_mutex_init(&sh.lock, NULL);
    pthread_cond_init(&sh.changed, NULL);
    pthread_t* th = calloc((size_t)job->threads, sizeof *th);
    worker_arg* args = calloc((size_t)job->threads, sizeof *args);
    int started = 0;
    for (int t = 0; th && args && t < job->threads && !sh.stop; t++) {
        pthread_mutex_lock(&sh.lock);
        sh.running++;
        pthread_mutex_unlock(&sh.lock);
        args[t].sh = &sh;
        args[t].index = t;
        if (pthread_create(&th[t], NULL, worker, &args[t])) {
            pthread_mutex_lock(&sh.lock);
            sh.running--;
            pthread_mutex_unlock(&sh.lock);
            break;
        }
        started++;
    }
    if (!started && !sh.stop) {
        sh.error = GPUFEC_ERR_OUT_OF_MEMORY;
        snprintf(sh.error_text, sizeof sh.error_text, "cannot start a thread");
    }
    double next_report = sh.t0 + every;
    pthread_mutex_lock(&sh.lock);
    while (sh.running > 0) {
        /* wake for the progress line, and to notice an interrupt or the time limit while every
         * thread is inside a long decode call */
        struct timespec until;
        clock_gettime(CLOCK_REALTIME, &until);
        until.tv_nsec += 200000000L;
        if (until.tv_nsec >= 1000000000L) {
            until.tv_sec++;
            until.tv_nsec -= 1000000000L;
        }
        pthread_cond_timedwait(&sh.changed, &sh.lock, &until);
        if (job->interrupted && *job->interrupted && !sh.stop) {
            sh.stop = 1;
            sh.reason = SIM_STOP_INTERRUPT;
            pthread_cond_broadcast(&sh.changed);
        }
        const double t = now();
        if (progress && every > 0 && t >= next_report && sh.running > 0) {
            const sim_counts c = sh.acc;
            const long long units = sh.prefix;
            pthread_mutex_unlock(&sh.lock);
            progress(user, &c, units, c.frames - job->start.frames, t - sh.t0);
            pthread_mutex_lock(&sh.lock);
            next_report = t + every;
        }
    }
    pthread_mutex_unlock(&sh.lock);
    for (int t = 0; t < started; t++)
        pthread_join(th[t], NULL);
    out->counts = sh.acc;
    out->units = sh.prefix;
    out->seconds = now() - sh.t0;
    out->decoder_bps = sh.decoder_bps;
    out->busy_threads = sh.busy_threads;
    out->stop = sh.reason;
    out->error = sh.error;
    snprintf(out->error_text, sizeof out->error_text, "%s", sh.error_text);
    pthread_mutex_destroy(&sh.lock);
    pthread_cond_destroy(&sh.changed);
    free(th), free(args), free(sh.ring), free(sh.ring_done);
}
