/* gpufec-bench: decoder throughput and latency on fresh random noisy frames.
 * Every number is a median over --repeat timed decode calls after a warm-up: one call, or calls
 * for at least --warmup milliseconds (for a GPU whose clock rises only under load; the H200s
 * measured hold 1980 MHz throughout, docs/performance.md, thirty-fifth pass). */
#define _POSIX_C_SOURCE 200809L
#include <gpufec/gpufec.h>

#include "cli_util.h"
#include "cuda_tuning.h"
#include "sim_channel.h"
#include "sim_json.h"
#include "soft_convert.h"

#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* The default warm-up (--warmup): one call */
#define BENCH_WARMUP_MS 0

typedef struct {
    const char* code;
    gpufec_decoder_opts o;
    int frames, repeat, threads;
    double ebn0, warmup_s; /* warm-up: decode calls for at least this long (0: one call) */
    long long seed; /* < 0: from the clock */
    const char* json;
} bench_args;

typedef struct {
    const bench_args* a;
    const gpufec_code* code;
    const void* llr; /* soft bits of a->o.input_type */
    double* times;  /* repeat entries: wall time of the decode call */
    gpufec_status st;
    double mean_iterations;
    pthread_barrier_t* barrier;
} worker_ctx;

static int cmp_double(const void* x, const void* y)
{
    double a = *(const double*)x, b = *(const double*)y;
    return (a > b) - (a < b);
}

/* One decode call, then more until warmup_s seconds have passed since the first began. */
static gpufec_status warm_up(gpufec_decoder* dec, const void* soft, size_t frames, uint8_t* out, int32_t* it,
                             double warmup_s)
{
    const double t0 = now();
    gpufec_status st;
    do
        st = gpufec_decoder_decode_soft(dec, soft, frames, out, it, NULL);
    while (!st && now() - t0 < warmup_s);
    return st;
}

static void* worker(void* arg)
{
    worker_ctx* w = arg;
    const bench_args* a = w->a;
    gpufec_decoder* dec = NULL;
    w->st = gpufec_decoder_create(&dec, w->code, &a->o);
    uint32_t in_len, out_len;
    if (!w->st)
        gpufec_decoder_frame_sizes(dec, &in_len, &out_len);
    uint8_t* out = NULL;
    if (!w->st) /* pinned when the CUDA backend is there, so output copies are asynchronous */
        gpufec_host_alloc((void**)&out, (size_t)a->frames * out_len);
    int32_t* it = NULL; /* pinned too: a copy to pageable memory costs a call about 2 us (H200) */
    if (!w->st)
        gpufec_host_alloc((void**)&it, (size_t)a->frames * sizeof *it);
    if (!w->st && (!out || !it))
        w->st = GPUFEC_ERR_OUT_OF_MEMORY;
    if (!w->st) /* warm-up: allocations, caches, CUDA module load, the GPU's clock */
        w->st = warm_up(dec, w->llr, (size_t)a->frames, out, it, a->warmup_s);
    for (int r = 0; r < a->repeat; r++) {
        pthread_barrier_wait(w->barrier);
        double t0 = now();
        if (!w->st)
            w->st = gpufec_decoder_decode_soft(dec, w->llr, (size_t)a->frames, out, it, NULL);
        w->times[r] = now() - t0;
    }
    double sum = 0;
    for (int f = 0; !w->st && f < a->frames; f++)
        sum += it[f];
    w->mean_iterations = sum / a->frames;
    gpufec_decoder_destroy(dec);
    gpufec_host_free(out);
    gpufec_host_free(it);
    return NULL;
}

int main(int argc, char** argv)
{
    cli_program = "gpufec-bench";
    bench_args a;
    memset(&a, 0, sizeof a);
    gpufec_decoder_opts_default(&a.o);
    a.o.early_termination = 0; /* fixed work per frame unless --early-stop */
    a.frames = 0;
    a.repeat = 5;
    a.threads = 1;
    a.ebn0 = 1.0;
    a.seed = -1;
    a.warmup_s = BENCH_WARMUP_MS * 1e-3;
    static const struct option opts[] = {
        {"code", 1, 0, 'c'}, {"decoder", 1, 0, 'd'}, {"schedule", 1, 0, 's'},
        {"iterations", 1, 0, 'i'}, {"backend", 1, 0, 'b'}, {"frames", 1, 0, 'f'},
        {"precision", 1, 0, 'p'}, {"json", 1, 0, 'j'}, {"repeat", 1, 0, 'r'},
        {"threads", 1, 0, 't'}, {"ebn0", 1, 0, 'e'}, {"early-stop", 0, 0, 'E'},
        {"no-simd", 0, 0, 'S'}, {"syndrome-interval", 1, 0, 'I'}, {"norm", 1, 0, 'n'}, {"device", 1, 0, 'D'}, {"help", 0, 0, 'h'},
        {"quant-step", 1, 0, 'q'}, {"cuda-tuning", 1, 0, 'T'}, {"input", 1, 0, 'N'}, {"param", 1, 0, 'Z'},
        {"seed", 1, 0, 'R'}, {"warmup", 1, 0, 'W'},
        {0, 0, 0, 0}};
    int ch;
    opterr = 0;
    while ((ch = getopt_long(argc, argv, "", opts, NULL)) != -1) {
        switch (ch) {
        case 'c': a.code = optarg; break;
        case 'd':
            set_decoder(&a.o, optarg);
            break;
        case 's':
            if (gpufec_schedule_from_name(optarg, &a.o.schedule))
                die("--schedule: unknown schedule '%s'", optarg);
            cli_note_option("schedule", "--schedule");
            break;
        case 'i': set_named_param(&a.o, "max_iterations", optarg, "--iterations"); break;
        case 'b':
            if (gpufec_backend_from_name(optarg, &a.o.backend))
                die("--backend: unknown backend '%s'", optarg);
            break;
        case 'f': a.frames = (int)parse_long(optarg, "--frames", 1, 10000000); break;
        case 'p':
            set_named_param(&a.o, "precision", optarg, "--precision");
            break;
        case 'q':
            set_named_param(&a.o, "quant_step", optarg, "--quant-step");
            break;
        case 'N':
            if (gpufec_input_type_from_name(optarg, &a.o.input_type))
                die("--input: unknown soft-bit type '%s' (float32, float16, int8)", optarg);
            break;
        case 'Z': apply_param(&a.o, optarg); break;
        case 'T':
            a.o.cuda_tuning = (uint32_t)parse_long(optarg, "--cuda-tuning", 0, GPUFEC_CUDA_TUNING_ALL);
            cli_note_option("cuda_tuning", "--cuda-tuning");
            break;
        case 'j': a.json = optarg; break;
        case 'r': a.repeat = (int)parse_long(optarg, "--repeat", 1, 100000); break;
        case 't': a.threads = (int)parse_long(optarg, "--threads", 1, 256); break;
        case 'e': a.ebn0 = parse_double(optarg, "--ebn0"); break;
        case 'E': a.o.early_termination = 1; break;
        case 'R': a.seed = parse_long(optarg, "--seed", 0, 2147483647); break;
        case 'W': a.warmup_s = 1e-3 * (double)parse_long(optarg, "--warmup", 0, 60000); break;
        case 'S': /* not noted: harmless for every family, where no vector path is used */
            (void)gpufec_decoder_opts_set(&a.o, "cpu_simd", "0", NULL);
            break;
        case 'I':
            set_named_param(&a.o, "syndrome_interval", optarg, "--syndrome-interval");
            break;
        case 'n':
            set_named_param(&a.o, "norm", optarg, "--norm");
            break;
        case 'D': a.o.device = (int)parse_long(optarg, "--device", 0, 64); break;
        case 'h':
            printf("usage: gpufec-bench --code NAME|FILE [--decoder D] [--schedule S] [--iterations N]\n"
                   "       [--backend auto|cpu|cuda] [--frames N] [--precision float32|float16|int8|int8p16]\n"
                   "       [--quant-step F] [--threads N] [--cuda-tuning FLAGS (lib/core/cuda_tuning.h)]\n"
                   "       [--input float32|float16|int8 (soft-bit type copied to the decoder)]\n"
                   "       [--param NAME=VALUE ...] (any decoder option; gpufec-info --params lists them)\n"
                   "       [--repeat N] [--ebn0 DB] [--seed N (same frames every run: A/B with --early-stop)]\n"
                   "       [--early-stop] [--no-simd] [--json FILE]\n"
                   "       [--warmup MS (decode calls before timing, for at least MS ms; default %d)]",
                   BENCH_WARMUP_MS);
            putchar('\n');
            return 0;
        default: die("unknown or incomplete option '%s'", argv[optind - 1]);
        }
    }
    if (!a.code)
        die("--code is required");
    gpufec_code* code = open_code_or_die(a.code);
    gpufec_status st;
    gpufec_code_info info;
    gpufec_code_get_info(code, &info);
    cli_check_family(&a.o, code);

    gpufec_decoder* probe = NULL;
    gpufec_diag why;
    if ((st = gpufec_decoder_opts_check(&a.o, code, &why)))
        die("decoder options: %s", why.message);
    if ((st = gpufec_decoder_create(&probe, code, &a.o)))
        die("decoder: %s", gpufec_status_str(st));
    gpufec_backend used;
    gpufec_schedule sched;
    gpufec_decoder_backend(probe, &used);
    gpufec_decoder_schedule(probe, &sched);
    char variant[800] = ""; /* the kernel or vector path that runs, with the plan's rules (VOLK's habit) */
    gpufec_decoder_variant(probe, variant, sizeof variant);
    gpufec_decoder_destroy(probe);
    a.o.backend = used;
    a.o.schedule = sched;
    if (a.frames == 0)
        a.frames = used == GPUFEC_BACKEND_CUDA ? 4096 : 64;

    /* Fresh random codewords over BPSK/AWGN. */
    uint8_t* u = malloc((size_t)a.frames * info.k);
    uint8_t* x = malloc((size_t)a.frames * info.n);
    float* llr = NULL;
    gpufec_host_alloc((void**)&llr, (size_t)a.frames * info.n * sizeof *llr);
    if (!u || !x || !llr)
        die("out of memory for %d frames", a.frames);
    sim_rng rng;
    sim_rng_seed(&rng, a.seed >= 0 ? (uint64_t)a.seed : (uint64_t)time(NULL), 1, 2);
    for (size_t i = 0; i < (size_t)a.frames * info.k; i++)
        u[i] = (uint8_t)(sim_rng_next(&rng) >> 63);
    if ((st = gpufec_code_encode(code, u, (size_t)a.frames, x))) {
        /* Freed before exiting: the sanitizer suite runs this refusal and counts leaks. */
        free(u);
        free(x);
        gpufec_host_free(llr);
        gpufec_code_destroy(code);
        die("--code %s: cannot encode: %s", a.code, gpufec_status_str(st));
    }
    sim_awgn_bpsk(&rng, x, (size_t)a.frames * info.n, 1.0 / (2.0 * info.rate * pow(10.0, a.ebn0 / 10.0)), llr);
    /* The soft bits in the type the decoder is asked to read (converted before any timing). */
    const size_t n_soft = (size_t)a.frames * info.n, width = soft_bytes(a.o.input_type);
    void* soft = llr;
    if (a.o.input_type != GPUFEC_INPUT_FLOAT32) {
        gpufec_host_alloc(&soft, n_soft * width);
        if (!soft)
            die("out of memory for %d frames", a.frames);
        soft_from_float(llr, n_soft, a.o.input_type, a.o.input_scale, soft);
    }

    pthread_barrier_t barrier;
    pthread_barrier_init(&barrier, NULL, (unsigned)a.threads);
    worker_ctx* w = calloc((size_t)a.threads, sizeof *w);
    pthread_t* th = calloc((size_t)a.threads, sizeof *th);
    for (int t = 0; t < a.threads; t++) {
        w[t] = (worker_ctx){&a, code, soft, calloc((size_t)a.repeat, sizeof(double)), GPUFEC_OK, 0, &barrier};
        pthread_create(&th[t], NULL, worker, &w[t]);
    }
    for (int t = 0; t < a.threads; t++)
        pthread_join(th[t], NULL);
    for (int t = 0; t < a.threads; t++)
        if (w[t].st)
            die("decode failed: %s", gpufec_status_str(w[t].st));
    /* Wall time of a round is the slowest thread's. */
    double* round = calloc((size_t)a.repeat, sizeof *round);
    for (int r = 0; r < a.repeat; r++)
        for (int t = 0; t < a.threads; t++)
            round[r] = fmax(round[r], w[t].times[r]);
    qsort(round, (size_t)a.repeat, sizeof *round, cmp_double);
    const double med = round[a.repeat / 2];
    double kmed = 0, kmin = 0, kmax = 0; /* the kernel-only figures, measured below */
    double d2d = 0, h2d = 0;
    if (used == GPUFEC_BACKEND_CUDA && gpufec_cuda_bandwidth(a.o.device, &d2d, &h2d) != GPUFEC_OK)
        d2d = h2d = 0;
    /* Kernel-only: one chunk (the backend's chunk: half its preferred batch, whole waves of
     * thread blocks), so the kernel's events are not overlapped by another chunk's work; median
     * of the repeats. */
    int kframes = a.frames < 512 ? a.frames : 512;
    if (used == GPUFEC_BACKEND_CUDA) {
        gpufec_decoder* kd = NULL;
        uint32_t il, ol;
        double* ks = calloc((size_t)a.repeat, sizeof *ks);
        gpufec_decoder_opts ko_opts = a.o; /* only this decoder records events: they cost a call */
        ko_opts.kernel_timing = 1;
        if (gpufec_decoder_create(&kd, code, &ko_opts) == GPUFEC_OK) {
            size_t pref = 0;
            if (gpufec_decoder_preferred_batch(kd, &pref) == GPUFEC_OK && pref >= 2)
                kframes = a.frames < (int)(pref / 2) ? a.frames : (int)(pref / 2);
            gpufec_decoder_frame_sizes(kd, &il, &ol);
            uint8_t* ko = NULL;
            gpufec_host_alloc((void**)&ko, (size_t)kframes * ol);
            warm_up(kd, soft, (size_t)kframes, ko, NULL, a.warmup_s);
            for (int r = 0; r < a.repeat; r++) {
                gpufec_decoder_decode_soft(kd, soft, (size_t)kframes, ko, NULL, NULL);
                gpufec_decoder_kernel_seconds(kd, &ks[r]);
            }
            gpufec_host_free(ko);
            gpufec_decoder_destroy(kd);
        }
        qsort(ks, (size_t)a.repeat, sizeof *ks, cmp_double);
        kmed = ks[a.repeat / 2];
        kmin = ks[0];
        kmax = ks[a.repeat - 1];
        free(ks);
    }
    const double frames_total = (double)a.frames * a.threads;
    const double coded = frames_total * info.n / med / 1e9, infob = frames_total * info.k / med / 1e9;
    char sched_buf[64], prec_buf[32], simd_buf[32];
    const int simd_on = strcmp(opt_text(&a.o, "cpu_simd", simd_buf, sizeof simd_buf), "0") != 0;
    printf("code %s N=%u K=%u | %s %s %d it%s | backend %s | %d frames x %d thread(s) | %s\n",
           a.code, info.n, info.k, schedule_label(&a.o, info.family, sched, sched_buf, sizeof sched_buf),
           decoder_label(&a.o, info.family),
           a.o.max_iterations, a.o.early_termination ? " (early stop)" : "", gpufec_backend_name(used),
           a.frames, a.threads, opt_text(&a.o, "precision", prec_buf, sizeof prec_buf));
    printf("soft-bit input %s (%zu byte(s) each)\n", gpufec_input_type_name(a.o.input_type), width);
    printf("variant %s\n", variant);
    printf("coded %.4f Gb/s | info %.4f Gb/s | batch latency %.3f ms | per frame %.2f us | mean it %.2f | "
           "transfers included | simd %s\n",
           coded, infob, med * 1e3, med * 1e6 / a.frames, w[0].mean_iterations,
           simd_on ? "auto" : "off");
    /* Input rate in GB/s of the soft bits as copied (4, 2 or 1 bytes each), comparable with the
     * copy ceilings. */
    const double llr_gbs = frames_total * info.n * (double)width / med / 1e9;
    double kcoded = 0, kllr = 0;
    if (used == GPUFEC_BACKEND_CUDA && kmed > 0) {
        kcoded = (double)kframes * info.n / kmed / 1e9;
        kllr = (double)kframes * info.n * (double)width / kmed / 1e9;
        printf("kernel-only coded %.4f Gb/s (%.3f ms for one chunk of %d frames) | LLR rate kernel-only %.1f GB/s, with "
               "transfers %.1f GB/s\n", kcoded, kmed * 1e3, kframes, kllr, llr_gbs);
        printf("kernel-only spread: min %.1f us, median %.1f, max %.1f over %d calls after %.0f ms of warm-up\n",
               kmin * 1e6, kmed * 1e6, kmax * 1e6, a.repeat, a.warmup_s * 1e3);
        printf("ceilings on this device: D2D copy %.1f GB/s (read+write), pinned H2D %.1f GB/s | with "
               "transfers = %.0f%% of the H2D bound | kernel-only LLR rate = %.0f%% of D2D\n",
               d2d, h2d, h2d > 0 ? 100.0 * llr_gbs / h2d : 0.0, d2d > 0 ? 100.0 * kllr / d2d : 0.0);
    }
    if (a.json) {
        FILE* f = fopen(a.json, "w");
        if (!f)
            die("--json: cannot write '%s'", a.json);
        fprintf(f,
                "{\"code\": \"%s\", \"n\": %u, \"k\": %u, \"decoder\": \"%s\", \"schedule\": \"%s\", "
                "\"iterations\": %d, \"early_stop\": %s, \"backend\": \"%s\", \"frames\": %d, \"threads\": %d, "
                "\"precision\": \"%s\", \"input\": \"%s\", \"cpu_simd\": %d, \"repeat\": %d, \"coded_gbps\": %.6f, \"info_gbps\": %.6f, "
                "\"batch_latency_ms\": %.6f, \"frame_latency_us\": %.4f, \"mean_iterations\": %.3f, "
                "\"transfers_included\": true, \"kernel_coded_gbps\": %.6f, \"kernel_batch_ms\": %.6f, "
                "\"llr_gbytes_per_s\": %.4f, \"d2d_gbps\": %.2f, \"h2d_pinned_gbps\": %.2f, "
                "\"h2d_bound_fraction\": %.4f, \"variant\": ",
                a.code, info.n, info.k, decoder_label(&a.o, info.family),
                schedule_label(&a.o, info.family, sched, sched_buf, sizeof sched_buf),
                a.o.max_iterations, a.o.early_termination ? "true" : "false", gpufec_backend_name(used),
                a.frames, a.threads, prec_buf, gpufec_input_type_name(a.o.input_type), simd_on, a.repeat, coded, infob, med * 1e3,
                med * 1e6 / a.frames, w[0].mean_iterations, kcoded, kmed * 1e3, llr_gbs, d2d, h2d,
                h2d > 0 ? llr_gbs / h2d : 0.0);
        sim_json_string(f, variant);
        fputs("}\n", f);
        fclose(f);
    }
    return 0;
}
