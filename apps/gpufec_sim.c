/* gpufec-sim: bit/frame error-rate simulator on the gr-gpufec C API.
 * random information bits -> encoder -> BPSK/AWGN or BSC -> decoder -> error counts. */
#define _POSIX_C_SOURCE 200809L
#include <gpufec/gpufec.h>

#include "cli_util.h"
#include "sim_channel.h"

#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

typedef struct {
    const char* code_name;
    gpufec_decoder_opts dec;
    int channel_bsc;
    double start, stop, step;
    int have_range;
    long min_frame_errors;
    long max_frames;
    unsigned long long seed;
    int threads;
    int batch;
    const char* json_path;
} sim_params;

typedef struct {
    double x; /* Eb/N0 in dB or crossover p */
    long frames, frame_errors;
    long long bit_errors, iterations;
    double decode_seconds, seconds;
    double decoder_bps; /* sum over the threads that decoded of their bits / their decode time */
    int busy_threads;   /* threads that decoded at least one batch */
} sim_point;

typedef struct {
    const sim_params* prm;
    const gpufec_code* code;
    gpufec_code_info info;
    double x;
    int point_index;
    pthread_mutex_t lock;
    long claimed;
    long next_batch;
    sim_point acc;
    gpufec_status error;
    char error_text[160];
} sim_shared;

#define SIM_MAX_POINTS 10000

static void parse_range(const char* s, sim_params* p, const char* what)
{
    char buf[128];
    if (strlen(s) >= sizeof buf)
        die("%s: range too long", what);
    strcpy(buf, s);
    char* a = buf;
    char* b = strchr(a, ':');
    char* c = b ? strchr(b + 1, ':') : NULL;
    if (!b || !c)
        die("%s: expected START:STOP:STEP, got '%s'", what, s);
    *b++ = 0;
    *c++ = 0;
    p->start = parse_double(a, what);
    p->stop = parse_double(b, what);
    p->step = parse_double(c, what);
    if (p->step <= 0 || p->stop < p->start)
        die("%s: need STEP > 0 and STOP >= START", what);
    const double points = floor((p->stop - p->start) / p->step + 1e-9) + 1;
    if (!(points <= SIM_MAX_POINTS))
        die("%s: %.3g points from %s (limit %d): use a larger STEP", what, points, s, SIM_MAX_POINTS);
    p->have_range++;
}

static void usage(FILE* f)
{
    fputs("usage: gpufec-sim --code NAME|FILE --decoder ", f);
    print_choices(f, "algorithm"); /* the names come from the library's option table */
    fputs(" (LDPC) | ", f);
    print_choices(f, "turbo_algorithm");
    fputs(" (LTE turbo: --param subblocks=P guard=... window=G) | ", f);
    print_choices(f, "nb_algorithm");
    fputs(" (GF(q) LDPC: nb-* codes, .kn / .nbalist files)\n"
          "       --iterations N [--schedule auto|flooding|layered] [--norm F] [--offset F]\n"
          "       [--pgab-p F] [--channel awgn|bsc]\n"
          "       (--ebn0 START:STOP:STEP | --p START:STOP:STEP)\n"
          "       [--min-frame-errors N] [--max-frames N] [--backend auto|cpu|cuda]\n"
          "       [--seed N] [--threads N] [--batch N] [--no-early-stop] [--syndrome-interval N]\n"
          "       [--precision float32|float16|int8] [--quant-step F] [--json FILE]\n"
          "       [--param NAME=VALUE ...] (any decoder option; gpufec-info --params lists them)\n",
          f);
}

static void parse_args(int argc, char** argv, sim_params* p)
{
    memset(p, 0, sizeof *p);
    gpufec_decoder_opts_default(&p->dec);
    p->min_frame_errors = 100;
    p->max_frames = 1000000;
    p->threads = 1;
    p->seed = 1;
    int have_decoder = 0, have_iters = 0, ebn0 = 0, prob = 0;
    const char* channel = "awgn";
    static const struct option opts[] = {
        {"code", 1, 0, 'c'}, {"decoder", 1, 0, 'd'}, {"iterations", 1, 0, 'i'},
        {"norm", 1, 0, 'n'}, {"offset", 1, 0, 'o'}, {"channel", 1, 0, 'C'},
        {"ebn0", 1, 0, 'e'}, {"p", 1, 0, 'p'}, {"min-frame-errors", 1, 0, 'E'},
        {"max-frames", 1, 0, 'F'}, {"backend", 1, 0, 'b'}, {"seed", 1, 0, 's'},
        {"threads", 1, 0, 't'}, {"batch", 1, 0, 'B'}, {"json", 1, 0, 'j'}, {"param", 1, 0, 'Z'},
        {"no-early-stop", 0, 0, 'N'}, {"schedule", 1, 0, 'S'}, {"pgab-p", 1, 0, 'P'},
        {"syndrome-interval", 1, 0, 'I'}, {"precision", 1, 0, 'R'}, {"quant-step", 1, 0, 'Q'},
        {"help", 0, 0, 'h'}, {0, 0, 0, 0}};
    int ch;
    opterr = 0;
    while ((ch = getopt_long(argc, argv, "", opts, NULL)) != -1) {
        switch (ch) {
        case 'c': p->code_name = optarg; break;
        case 'd':
            set_decoder(&p->dec, optarg);
            have_decoder = 1;
            break;
        case 'i': p->dec.max_iterations = (int)parse_long(optarg, "--iterations", 1, 10000); have_iters = 1; break;
        case 'n':
            p->dec.normalization = (float)parse_double(optarg, "--norm");
            cli_note_option("norm", "--norm");
            if (!(p->dec.normalization > 0 && p->dec.normalization <= 1))
                die("--norm: must be in (0, 1]");
            break;
        case 'o':
            p->dec.offset = (float)parse_double(optarg, "--offset");
            cli_note_option("offset", "--offset");
            if (!(p->dec.offset >= 0 && p->dec.offset < 1000))
                die("--offset: must be in [0, 1000)");
            break;
        case 'C': channel = optarg; break;
        case 'e': parse_range(optarg, p, "--ebn0"); ebn0 = 1; break;
        case 'p': parse_range(optarg, p, "--p"); prob = 1; break;
        case 'E': p->min_frame_errors = parse_long(optarg, "--min-frame-errors", 1, 1000000000L); break;
        case 'F': p->max_frames = parse_long(optarg, "--max-frames", 1, 2000000000L); break;
        case 'b':
            if (gpufec_backend_from_name(optarg, &p->dec.backend))
                die("--backend: unknown backend '%s' (auto, cpu, cuda)", optarg);
            break;
        case 's': p->seed = (unsigned long long)parse_long(optarg, "--seed", 0, 2147483647L); break;
        case 't': p->threads = (int)parse_long(optarg, "--threads", 1, 256); break;
        case 'B': p->batch = (int)parse_long(optarg, "--batch", 1, 1000000); break;
        case 'j': p->json_path = optarg; break;
        case 'N': p->dec.early_termination = 0; break;
        case 'I':
            p->dec.syndrome_interval = (int)parse_long(optarg, "--syndrome-interval", 1, 10000);
            cli_note_option("syndrome_interval", "--syndrome-interval");
            break;
        case 'S':
            if (gpufec_schedule_from_name(optarg, &p->dec.schedule))
                die("--schedule: unknown schedule '%s' (auto, flooding, layered)", optarg);
            cli_note_option("schedule", "--schedule");
            break;
        case 'P':
            p->dec.pgab_p = (float)parse_double(optarg, "--pgab-p");
            cli_note_option("pgab_p", "--pgab-p");
            if (!(p->dec.pgab_p >= 0 && p->dec.pgab_p <= 1))
                die("--pgab-p: must be in [0, 1]");
            break;
        case 'R':
            if (gpufec_precision_from_name(optarg, &p->dec.precision))
                die("--precision: unknown precision '%s' (float32, float16, int8)", optarg);
            cli_note_option("precision", "--precision");
            break;
        case 'Q':
            p->dec.quant_step = (float)parse_double(optarg, "--quant-step");
            cli_note_option("quant_step", "--quant-step");
            if (!(p->dec.quant_step >= 1e-3f && p->dec.quant_step <= 1e3f))
                die("--quant-step: must be in [0.001, 1000]");
            break;
        case 'Z':
            apply_param(&p->dec, optarg);
            if (strncmp(optarg, "algorithm=", 10) == 0 || strncmp(optarg, "turbo_algorithm=", 16) == 0 ||
                strncmp(optarg, "nb_algorithm=", 13) == 0)
                have_decoder = 1;
            break;
        case 'h': usage(stdout); exit(0);
        default:
            if (optopt)
                die("option '%s' needs a value or is unknown (see --help)", argv[optind - 1]);
            die("unknown option '%s' (see --help)", argv[optind - 1]);
        }
    }
    if (optind < argc)
        die("unexpected argument '%s'", argv[optind]);
    if (!p->code_name)
        die("--code is required");
    if (!have_decoder)
        die("--decoder is required");
    if (!have_iters)
        die("--iterations is required");
    if (strcmp(channel, "awgn") == 0)
        p->channel_bsc = 0;
    else if (strcmp(channel, "bsc") == 0)
        p->channel_bsc = 1;
    else
        die("--channel: unknown channel '%s' (awgn, bsc)", channel);
    if (p->have_range != 1)
        die("give exactly one of --ebn0 START:STOP:STEP (awgn) or --p START:STOP:STEP (bsc)");
    if (p->channel_bsc && !prob)
        die("--channel bsc takes --p, not --ebn0");
    if (!p->channel_bsc && !ebn0)
        die("--channel awgn takes --ebn0, not --p");
    if (p->channel_bsc && (p->start <= 0 || p->stop >= 0.5))
        die("--p: crossover probabilities must lie in (0, 0.5)");
}

static void* worker(void* arg)
{
    sim_shared* sh = arg;
    const sim_params* prm = sh->prm;
    const uint32_t n = sh->info.n, k = sh->info.k;
    gpufec_decoder* dec = NULL;
    gpufec_status st = gpufec_decoder_create(&dec, sh->code, &prm->dec);
    const size_t batch = (size_t)(prm->batch > 0 ? prm->batch : 32);
    double my_bits = 0, my_seconds = 0; /* this thread's decoding, for the throughput */
    uint8_t* info = malloc(batch * k);
    uint8_t* cw = malloc(batch * n);
    uint8_t* out = malloc(batch * k);
    float* llr = malloc(batch * n * sizeof *llr);
    int32_t* iters = malloc(batch * sizeof *iters);
    if (!st && (!info || !cw || !out || !llr || !iters))
        st = GPUFEC_ERR_OUT_OF_MEMORY;
    const double rate = (double)k / n;
    const double sigma2 = prm->channel_bsc ? 0 : 1.0 / (2.0 * rate * pow(10.0, sh->x / 10.0));
    while (st == GPUFEC_OK) {
        pthread_mutex_lock(&sh->lock);
        int stop = sh->error || sh->acc.frame_errors >= prm->min_frame_errors ||
                   sh->claimed >= prm->max_frames;
        long b = sh->next_batch++;
        size_t nf = batch;
        if (!stop && (long)nf > prm->max_frames - sh->claimed)
            nf = (size_t)(prm->max_frames - sh->claimed);
        sh->claimed += stop ? 0 : (long)nf;
        pthread_mutex_unlock(&sh->lock);
        if (stop)
            break;
        /* Each batch draws from its own stream, so its data do not depend on thread timing. */
        sim_rng rng;
        sim_rng_seed(&rng, prm->seed, (uint64_t)sh->point_index + 1, (uint64_t)b + 1);
        for (size_t i = 0; i < nf * k; i++)
            info[i] = (uint8_t)(sim_rng_next(&rng) >> 63);
        st = gpufec_code_encode(sh->code, info, nf, cw);
        if (st)
            break;
        if (prm->channel_bsc)
            sim_bsc(&rng, cw, nf * n, sh->x, llr);
        else
            sim_awgn_bpsk(&rng, cw, nf * n, sigma2, llr);
        double t0 = now();
        st = gpufec_decoder_decode(dec, llr, nf, out, iters, NULL);
        double dt = now() - t0;
        if (st)
            break;
        my_bits += (double)nf * k;
        my_seconds += dt;
        long fe = 0;
        long long be = 0, it = 0;
        for (size_t f = 0; f < nf; f++) {
            long e = 0;
            for (uint32_t i = 0; i < k; i++)
                e += out[f * k + i] != info[f * k + i];
            be += e;
            fe += e != 0;
            it += iters[f];
        }
        pthread_mutex_lock(&sh->lock);
        sh->acc.frames += (long)nf;
        sh->acc.frame_errors += fe;
        sh->acc.bit_errors += be;
        sh->acc.iterations += it;
        sh->acc.decode_seconds += dt;
        pthread_mutex_unlock(&sh->lock);
    }
    pthread_mutex_lock(&sh->lock);
    if (my_seconds > 0) {
        sh->acc.decoder_bps += my_bits / my_seconds;
        sh->acc.busy_threads++;
    }
    pthread_mutex_unlock(&sh->lock);
    if (st) {
        pthread_mutex_lock(&sh->lock);
        if (!sh->error) {
            sh->error = st;
            snprintf(sh->error_text, sizeof sh->error_text, "%s", gpufec_status_str(st));
        }
        pthread_mutex_unlock(&sh->lock);
    }
    gpufec_decoder_destroy(dec);
    free(info);
    free(cw);
    free(out);
    free(llr);
    free(iters);
    return NULL;
}

static void json_escape(FILE* f, const char* s)
{
    fputc('"', f);
    for (; *s; s++) {
        if (*s == '"' || *s == '\\')
            fprintf(f, "\\%c", *s);
        else if ((unsigned char)*s < 32)
            fprintf(f, "\\u%04x", *s);
        else
            fputc(*s, f);
    }
    fputc('"', f);
}

static void write_json(FILE* f, const sim_params* p, const gpufec_code_info* info, const char* backend,
                       const sim_point* pts, int npts)
{
    const char* key = p->channel_bsc ? "p" : "ebn0";
    char sched_buf[64];
    fprintf(f, "{\n  \"parameters\": {\"code\": ");
    json_escape(f, p->code_name);
    fprintf(f,
            ", \"n\": %u, \"k\": %u, \"rate\": %.6f, \"decoder\": \"%s\", \"schedule\": \"%s\", \"iterations\": %d, "
            "\"norm\": %g, \"offset\": %g, \"precision\": \"%s\", \"quant_step\": %g, \"early_stop\": %s, \"channel\": \"%s\", "
            "\"range\": [%g, %g, %g], \"min_frame_errors\": %ld, \"max_frames\": %ld, "
            "\"backend\": \"%s\", \"backend_requested\": \"%s\", \"seed\": %llu, \"threads\": %d, "
            "\"version\": \"%s\"},\n  \"points\": [\n",
            info->n, info->k, info->rate, decoder_label(&p->dec, info->family),
            schedule_label(&p->dec, info->family, p->dec.schedule, sched_buf, sizeof sched_buf), p->dec.max_iterations, p->dec.normalization, p->dec.offset,
            gpufec_precision_name(p->dec.precision), p->dec.quant_step,
            p->dec.early_termination ? "true" : "false", p->channel_bsc ? "bsc" : "awgn",
            p->start, p->stop, p->step, p->min_frame_errors, p->max_frames, backend,
            gpufec_backend_name(p->dec.backend), p->seed, p->threads, gpufec_version());
    for (int i = 0; i < npts; i++) {
        const sim_point* q = &pts[i];
        double fr = q->frames ? (double)q->frames : 1.0;
        fprintf(f,
                "    {\"%s\": %.6g, \"frames\": %ld, \"bit_errors\": %lld, \"frame_errors\": %ld, "
                "\"ber\": %.6e, \"fer\": %.6e, \"mean_iterations\": %.4f, \"decoder_mbps\": %.4f, "
                "\"seconds\": %.3f, \"busy_threads\": %d}%s\n",
                key, q->x, q->frames, q->bit_errors, q->frame_errors,
                (double)q->bit_errors / (fr * info->k), (double)q->frame_errors / fr,
                (double)q->iterations / fr,
                q->decoder_bps / 1e6,
                q->seconds, q->busy_threads, i + 1 < npts ? "," : "");
    }
    fprintf(f, "  ]\n}\n");
    if (fclose(f) != 0)
        die("--json: cannot write '%s'", p->json_path);
}

int main(int argc, char** argv)
{
    cli_program = "gpufec-sim";
    sim_params prm;
    parse_args(argc, argv, &prm);
    gpufec_code* code = open_code_or_die(prm.code_name);
    gpufec_status st;
    gpufec_code_info info;
    gpufec_code_get_info(code, &info);
    cli_check_family(&prm.dec, code);
    if (prm.dec.output != GPUFEC_OUTPUT_INFO)
        die("--param output=%s: gpufec-sim counts errors in the information bits; only output=info is "
            "simulated",
            gpufec_output_name(prm.dec.output));
    {
        /* The code must encode (a code too large for the generic encoder does not): find out
         * before simulating, with the library's reason. */
        uint8_t* u = calloc(info.k ? info.k : 1, 1);
        uint8_t* x = malloc(info.n ? info.n : 1);
        if (!u || !x)
            die("out of memory");
        st = gpufec_code_encode(code, u, 1, x);
        free(u);
        free(x);
        if (st)
            die("--code %s: cannot encode: %s", prm.code_name, gpufec_status_str(st));
    }

    /* Everything that can fail is checked before simulating: the output file, the options, the
     * backend (resolved once by a probe decoder). */
    FILE* json = NULL;
    if (prm.json_path && !(json = fopen(prm.json_path, "w")))
        die("--json: cannot write '%s'", prm.json_path);
    gpufec_diag why;
    st = gpufec_decoder_opts_check(&prm.dec, code, &why);
    if (st)
        die("decoder options: %s", why.message);
    gpufec_decoder* probe = NULL;
    st = gpufec_decoder_create(&probe, code, &prm.dec);
    if (st)
        die("cannot create the %s decoder: %s", gpufec_backend_name(prm.dec.backend),
            gpufec_status_str(st));
    gpufec_backend used;
    gpufec_decoder_backend(probe, &used);
    gpufec_schedule sched;
    gpufec_decoder_schedule(probe, &sched);
    prm.dec.schedule = sched; /* every worker uses what the probe resolved */
    gpufec_decoder_destroy(probe);
    if (prm.batch == 0 && used == GPUFEC_BACKEND_CUDA)
        prm.batch = 4096;
    if (prm.batch > prm.max_frames)
        prm.batch = (int)prm.max_frames; /* no batch larger than the frames it may simulate */
    /* A batch's buffers (soft values and bits) must fit: refuse rather than fail mid-run. */
    if ((double)(prm.batch > 0 ? prm.batch : 32) * info.n * (sizeof(float) + 2.0) * prm.threads > 16e9)
        die("--batch %d: %d thread(s) x %d frames x %u soft bits need more than 16 GB; use a smaller --batch",
            prm.batch, prm.threads, prm.batch, info.n);

    int npts = (int)floor((prm.stop - prm.start) / prm.step + 1e-9) + 1;
    sim_point* pts = calloc((size_t)npts, sizeof *pts);
    pthread_t* th = calloc((size_t)prm.threads, sizeof *th);
    if (!pts || !th)
        die("out of memory");
    char sched_buf[64];
    printf("# gpufec-sim %s: code %s (N=%u, K=%u, R=%.4f), decoder %s %s, %d iterations%s, %s, backend %s, "
           "%s, seed %llu, %d thread(s)\n",
           gpufec_version(), prm.code_name, info.n, info.k, info.rate,
           schedule_label(&prm.dec, info.family, prm.dec.schedule, sched_buf, sizeof sched_buf),
           decoder_label(&prm.dec, info.family),
           prm.dec.max_iterations, prm.dec.early_termination ? "" : " (no early stop)",
           gpufec_precision_name(prm.dec.precision), gpufec_backend_name(used),
           prm.channel_bsc ? "BSC" : "BPSK/AWGN", prm.seed, prm.threads);
    if (prm.channel_bsc)
        printf("# %9s | %10s | %10s | %10s | %9s | %9s | %6s | %12s | %8s\n", "p", "FRA", "BE", "FE",
               "BER", "FER", "ITE", "DEC_THR_Mbps", "TIME_s");
    else
        printf("# %6s | %6s | %10s | %10s | %10s | %9s | %9s | %6s | %12s | %8s\n", "Es/N0", "Eb/N0",
               "FRA", "BE", "FE", "BER", "FER", "ITE", "DEC_THR_Mbps", "TIME_s");
    fflush(stdout);
    for (int i = 0; i < npts; i++) {
        sim_shared sh;
        memset(&sh, 0, sizeof sh);
        sh.prm = &prm;
        sh.code = code;
        sh.info = info;
        sh.x = prm.start + i * prm.step;
        sh.point_index = i;
        pthread_mutex_init(&sh.lock, NULL);
        double t0 = now();
        for (int t = 0; t < prm.threads; t++)
            if (pthread_create(&th[t], NULL, worker, &sh))
                die("cannot start thread %d", t);
        for (int t = 0; t < prm.threads; t++)
            pthread_join(th[t], NULL);
        pthread_mutex_destroy(&sh.lock);
        if (sh.error)
            die("simulation failed at point %g: %s", sh.x, sh.error_text);
        pts[i] = sh.acc;
        pts[i].x = sh.x;
        pts[i].seconds = now() - t0;
        const sim_point* q = &pts[i];
        double fr = q->frames ? (double)q->frames : 1.0;
        double thr = q->decoder_bps / 1e6; /* measured work over measured time, per busy thread */
        if (prm.channel_bsc)
            printf("  %9.5f | %10ld | %10lld | %10ld | %9.3e | %9.3e | %6.2f | %12.3f | %8.2f\n", q->x,
                   q->frames, q->bit_errors, q->frame_errors, (double)q->bit_errors / (fr * info.k),
                   (double)q->frame_errors / fr, (double)q->iterations / fr, thr, q->seconds);
        else
            printf("  %6.2f | %6.2f | %10ld | %10lld | %10ld | %9.3e | %9.3e | %6.2f | %12.3f | %8.2f\n",
                   q->x + 10.0 * log10(info.rate), q->x, q->frames, q->bit_errors, q->frame_errors,
                   (double)q->bit_errors / (fr * info.k), (double)q->frame_errors / fr,
                   (double)q->iterations / fr, thr, q->seconds);
        fflush(stdout);
    }
    if (json)
        write_json(json, &prm, &info, gpufec_backend_name(used), pts, npts);
    free(pts);
    free(th);
    gpufec_code_destroy(code);
    return 0;
}
