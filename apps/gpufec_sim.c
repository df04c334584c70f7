/* gpufec-sim: bit/frame error-rate simulator on the gr-gpufec C API.
 * information bits -> encoder -> BPSK/AWGN or BSC -> decoder -> error counts, per point of a sweep
 * (sim_engine.c: the same statistics for any thread count; sim_ranks.c: and any number of MPI
 * ranks), with a live progress line, the JSON rewritten after every point (and every 30 s within
 * one), Ctrl-C keeping what is done, and --resume. */
#define _POSIX_C_SOURCE 200809L
#include <gpufec/gpufec.h>

#include "cli_util.h"
#include "sim_engine.h"
#include "sim_gpu.h"
#include "sim_json.h"
#include "sim_ranks.h"

#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <spawn.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

extern char** environ;

typedef struct {
    const char* code_name;
    gpufec_decoder_opts dec;
    sim_channel channel;
    int bits_per_symbol; /* AWGN: 1 BPSK, 2 QPSK, 4 16-QAM, 6 64-QAM */
    int esn0;            /* the range is Es/N0 (else Eb/N0; BSC/BEC: p) */
    double start, stop, step;
    int have_range;
    long min_frame_errors;
    long max_frames;
    unsigned long long seed;
    int threads;
    int batch;
    const char* json_path;
    const char* resume_path;
    const char* plot_path; /* redrawn by gpufec-plot after every point */
    int all_zero;          /* the all-zero codeword (symmetric decoders only) */
    int host_encoder;      /* GPU chain: encode on the host even where the device could */
    const char* chain;     /* where the frames are made and decoded (the JSON's "chain") */
    const char* devices;   /* --devices 0,1,... or all (CUDA) */
    int threads_given;
    double max_seconds; /* per point; 0: none */
    int keep_going;     /* go on after a point with no frame error */
    int progress;       /* -1: auto (a terminal: redrawn; else a line every 10 s), 0: off */
} sim_params;

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
    gpufec_family fam; /* each family's decoders, from the library's option table */
    for (size_t i = 0; gpufec_family_at(i, &fam) == GPUFEC_OK; i++) {
        print_choices(f, gpufec_family_algorithm_option(fam));
        fprintf(f, " (%s)%s", gpufec_family_label(fam), i + 1 < gpufec_family_count() ? " | " : "");
    }
    fputs("\n"
          "       --iterations N [--schedule auto|flooding|layered] [--norm F] [--offset F]\n"
          "       [--pgab-p F] [--channel awgn|bsc]\n"
          "       [--channel awgn|bsc|bec] [--modulation bpsk|qpsk|16qam|64qam (awgn)]\n"
          "       (--ebn0 START:STOP:STEP | --esn0 START:STOP:STEP (awgn) | --p START:STOP:STEP (bsc, bec))\n"
          "       [--min-frame-errors N] [--max-frames N] [--backend auto|cpu|cuda]\n"
          "       [--seed N] [--threads N] [--batch N] [--no-early-stop] [--syndrome-interval N]\n"
          "       [--precision float32|float16|int8|int8p16] [--quant-step F] [--json FILE]\n"
          "       [--param NAME=VALUE ...] (any decoder option; gpufec-info --params lists them)\n"
          "       [--max-time-per-point SECONDS] [--keep-going] [--resume FILE] [--no-progress]\n"
          "       [--plot FILE.png (redrawn by gpufec-plot after every point; needs --json)]\n"
          "       [--all-zero (the all-zero codeword: no encoder; refused for fixed-point decoders)]\n"
          "       [--host-encoder (CUDA: make and encode the frames' bits on the host, not the GPU)]\n"
          "       [--devices 0,1,...|all (CUDA: threads spread over these GPUs; default 2 threads each)]\n"
          "A point stops at --min-frame-errors (default 100) or --max-frames (default 1000000); the sweep\n"
          "stops after a point without a frame error unless --keep-going. Ctrl-C writes what is done\n"
          "(the point in progress marked partial) and --resume FILE goes on from it.\n",
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
    p->progress = -1;
    int have_decoder = 0, have_iters = 0, ebn0 = 0, prob = 0;
    const char* modulation = "bpsk";
    const char* channel = "awgn";
    static const struct option opts[] = {
        {"code", 1, 0, 'c'}, {"decoder", 1, 0, 'd'}, {"iterations", 1, 0, 'i'},
        {"norm", 1, 0, 'n'}, {"offset", 1, 0, 'o'}, {"channel", 1, 0, 'C'},
        {"ebn0", 1, 0, 'e'}, {"esn0", 1, 0, 'r'}, {"modulation", 1, 0, 'M'}, {"p", 1, 0, 'p'}, {"min-frame-errors", 1, 0, 'E'},
        {"max-frames", 1, 0, 'F'}, {"backend", 1, 0, 'b'}, {"seed", 1, 0, 's'},
        {"threads", 1, 0, 't'}, {"batch", 1, 0, 'B'}, {"json", 1, 0, 'j'}, {"param", 1, 0, 'Z'},
        {"no-early-stop", 0, 0, 'N'}, {"schedule", 1, 0, 'S'}, {"pgab-p", 1, 0, 'P'},
        {"syndrome-interval", 1, 0, 'I'}, {"precision", 1, 0, 'R'}, {"quant-step", 1, 0, 'Q'},
        {"max-time-per-point", 1, 0, 'T'}, {"keep-going", 0, 0, 'K'}, {"resume", 1, 0, 'U'},
        {"no-progress", 0, 0, 'G'}, {"plot", 1, 0, 'L'}, {"all-zero", 0, 0, 'A'}, {"host-encoder", 0, 0, 'H'}, {"devices", 1, 0, 'V'}, {"help", 0, 0, 'h'}, {0, 0, 0, 0}};
    int ch;
    opterr = 0;
    while ((ch = getopt_long(argc, argv, "", opts, NULL)) != -1) {
        switch (ch) {
        case 'c': p->code_name = optarg; break;
        case 'd':
            set_decoder(&p->dec, optarg);
            have_decoder = 1;
            break;
        case 'i':
            set_named_param(&p->dec, "max_iterations", optarg, "--iterations");
            have_iters = 1;
            cli_note_option("max_iterations", "--iterations");
            break;
        case 'n':
            set_named_param(&p->dec, "norm", optarg, "--norm");
            break;
        case 'o':
            set_named_param(&p->dec, "offset", optarg, "--offset");
            break;
        case 'C': channel = optarg; break;
        case 'e': parse_range(optarg, p, "--ebn0"); ebn0 = 1; break;
        case 'r': parse_range(optarg, p, "--esn0"); ebn0 = 1; p->esn0 = 1; break;
        case 'M': modulation = optarg; break;
        case 'p': parse_range(optarg, p, "--p"); prob = 1; break;
        case 'E': p->min_frame_errors = parse_long(optarg, "--min-frame-errors", 1, 1000000000L); break;
        case 'F': p->max_frames = parse_long(optarg, "--max-frames", 1, 2000000000L); break;
        case 'b':
            if (gpufec_backend_from_name(optarg, &p->dec.backend))
                die("--backend: unknown backend '%s' (auto, cpu, cuda)", optarg);
            cli_note_option("backend", "--backend");
            break;
        case 's': p->seed = (unsigned long long)parse_long(optarg, "--seed", 0, 2147483647L); break;
        case 't':
            p->threads = (int)parse_long(optarg, "--threads", 1, 256);
            p->threads_given = 1;
            break;
        case 'B': p->batch = (int)parse_long(optarg, "--batch", 1, 1000000); break;
        case 'j': p->json_path = optarg; break;
        case 'N': p->dec.early_termination = 0; cli_note_option("early_termination", "--no-early-stop"); break;
        case 'I':
            set_named_param(&p->dec, "syndrome_interval", optarg, "--syndrome-interval");
            break;
        case 'S':
            if (gpufec_schedule_from_name(optarg, &p->dec.schedule))
                die("--schedule: unknown schedule '%s' (auto, flooding, layered)", optarg);
            cli_note_option("schedule", "--schedule");
            break;
        case 'P':
            set_named_param(&p->dec, "pgab_p", optarg, "--pgab-p");
            break;
        case 'R':
            set_named_param(&p->dec, "precision", optarg, "--precision");
            break;
        case 'Q':
            set_named_param(&p->dec, "quant_step", optarg, "--quant-step");
            break;
        case 'Z':
            apply_param(&p->dec, optarg);
            have_decoder |= cli_names_algorithm(optarg);
            break;
        case 'T':
            p->max_seconds = parse_double(optarg, "--max-time-per-point");
            if (!(p->max_seconds > 0))
                die("--max-time-per-point: must be > 0 seconds");
            break;
        case 'K': p->keep_going = 1; break;
        case 'U': p->resume_path = optarg; break;
        case 'G': p->progress = 0; break;
        case 'L': p->plot_path = optarg; break;
        case 'A': p->all_zero = 1; break;
        case 'H': p->host_encoder = 1; break;
        case 'V': p->devices = optarg; break;
        case 'h': usage(stdout); exit(0);
        default:
            if (optopt)
                die("option '%s' needs a value or is unknown (see --help)", argv[optind - 1]);
            die("unknown option '%s' (see --help)", argv[optind - 1]);
        }
    }
    if (optind < argc)
        die("unexpected argument '%s'", argv[optind]);
    if (p->resume_path && !p->json_path)
        p->json_path = p->resume_path; /* the results go on in the same file */
    if (p->plot_path && !p->json_path)
        die("--plot draws the --json file: give --json FILE too");
    if (!p->code_name)
        die("--code is required");
    if (!have_decoder)
        die("--decoder is required");
    if (!have_iters)
        die("--iterations is required");
    if (strcmp(channel, "awgn") == 0)
        p->channel = SIM_AWGN;
    else if (strcmp(channel, "bsc") == 0)
        p->channel = SIM_BSC;
    else if (strcmp(channel, "bec") == 0)
        p->channel = SIM_BEC;
    else
        die("--channel: unknown channel '%s' (awgn, bsc, bec)", channel);
    if (strcmp(modulation, "bpsk") == 0)
        p->bits_per_symbol = 1;
    else if (strcmp(modulation, "qpsk") == 0)
        p->bits_per_symbol = 2;
    else if (strcmp(modulation, "16qam") == 0)
        p->bits_per_symbol = 4;
    else if (strcmp(modulation, "64qam") == 0)
        p->bits_per_symbol = 6;
    else
        die("--modulation: unknown modulation '%s' (bpsk, qpsk, 16qam, 64qam)", modulation);
    if (p->have_range != 1)
        die("give exactly one of --ebn0 or --esn0 START:STOP:STEP (awgn) or --p START:STOP:STEP (bsc, bec)");
    if (p->channel != SIM_AWGN && !prob)
        die("--channel %s takes --p, not --ebn0/--esn0", channel);
    if (p->channel == SIM_AWGN && !ebn0)
        die("--channel awgn takes --ebn0 or --esn0, not --p");
    if (p->channel != SIM_AWGN && p->bits_per_symbol != 1)
        die("--modulation %s: the %s channel carries bits, not symbols", modulation, channel);
    if (p->channel == SIM_BSC && (p->start <= 0 || p->stop >= 0.5))
        die("--p: crossover probabilities must lie in (0, 0.5)");
    if (p->channel == SIM_BEC && (p->start <= 0 || p->stop >= 1))
        die("--p: erasure probabilities must lie in (0, 1)");
}

static const char* channel_name(const sim_params* p)
{
    return p->channel == SIM_BSC ? "bsc" : p->channel == SIM_BEC ? "bec" : "awgn";
}

static const char* modulation_name(const sim_params* p)
{
    if (p->channel != SIM_AWGN)
        return "none";
    return p->bits_per_symbol == 1 ? "bpsk" : p->bits_per_symbol == 2 ? "qpsk" : p->bits_per_symbol == 4 ? "16qam" : "64qam";
}

/* The sweep's variable as the JSON names it. */
static const char* x_name(const sim_params* p) { return p->channel != SIM_AWGN ? "p" : p->esn0 ? "esn0" : "ebn0"; }

/* Es/N0 and Eb/N0 in dB of a point of an AWGN sweep: Es/N0 = Eb/N0 + 10 log10(R m), m bits per
 * symbol. */
static double esn0_db(const sim_params* p, const gpufec_code_info* info, double x)
{
    return p->esn0 ? x : x + 10.0 * log10(info->rate * p->bits_per_symbol);
}
static double ebn0_db(const sim_params* p, const gpufec_code_info* info, double x)
{
    return p->esn0 ? x - 10.0 * log10(info->rate * p->bits_per_symbol) : x;
}

/* gpufec-plot redraws the curve: the one beside this program first (build tree, install), else
 * the one on PATH. A failure is said once and does not stop the simulation. */
static void redraw(const char* json, const char* png)
{
    static int warned = 0;
    char exe[4096], tool[4200];
    const ssize_t len = readlink("/proc/self/exe", exe, sizeof exe - 1);
    const char* prog = "gpufec-plot";
    if (len > 0) {
        exe[len] = '\0';
        char* slash = strrchr(exe, '/');
        if (slash) {
            *slash = '\0';
            snprintf(tool, sizeof tool, "%s/gpufec-plot", exe);
            if (access(tool, X_OK) == 0)
                prog = tool;
        }
    }
    char* const args[] = {(char*)prog, (char*)json, (char*)"-o", (char*)png, NULL};
    pid_t pid;
    int status = -1;
    fflush(stdout);
    if (posix_spawnp(&pid, prog, NULL, NULL, args, environ) == 0)
        waitpid(pid, &status, 0);
    if (status != 0 && !warned) {
        warned = 1;
        fprintf(stderr, "gpufec-sim: --plot: %s did not draw %s (exit status %d); the simulation goes on\n", prog,
                png, WIFEXITED(status) ? WEXITSTATUS(status) : -1);
    }
}

static volatile sig_atomic_t interrupted = 0;

static void on_signal(int sig)
{
    (void)sig;
    interrupted = 1;
}

/* Options that change no decision (where and how fast it runs): left out of the run key, so that a
 * run may be resumed with other threads, batch or vector instructions. */
static int option_changes_results(const char* name)
{
    static const char* const neutral[] = {"backend", "device", "max_batch", "cpu_simd", "cuda_tuning", "simd"};
    for (size_t i = 0; i < sizeof neutral / sizeof *neutral; i++)
        if (strcmp(name, neutral[i]) == 0)
            return 0;
    return 1;
}

/* Every option that applies to the code's family, as name=value words (JSON object text when
 * json is set). */
static void write_options(FILE* f, const gpufec_decoder_opts* o, const gpufec_code* code, int json, int all)
{
    int first = 1;
    for (size_t i = 0; i < gpufec_decoder_param_count(); i++) {
        gpufec_param_info p;
        gpufec_decoder_param_info(i, &p);
        char value[64];
        if (gpufec_decoder_param_check_family(p.name, code, NULL) != GPUFEC_OK || (!all && !option_changes_results(p.name)) ||
            gpufec_decoder_opts_get(o, p.name, value, sizeof value) != GPUFEC_OK)
            continue;
        if (json) {
            fprintf(f, "%s", first ? "" : ", ");
            sim_json_string(f, p.name);
            fputs(": ", f);
            sim_json_string(f, value);
        } else {
            fprintf(f, "%s%s=%s", first ? "" : " ", p.name, value);
        }
        first = 0;
    }
}

/* The "parameters" object of the result file and the run key (what decides the statistics: a
 * --resume must match it). */
static void describe_run(const sim_params* p, const gpufec_code* code, const gpufec_code_info* info, const char* backend,
                         int ranks, char** head, char** key)
{
    size_t len;
    FILE* f = open_memstream(head, &len);
    char sched_buf[64], t_norm[32], t_off[32], t_prec[32], t_step[32];
    if (!f)
        die("out of memory");
    fprintf(f, "\"parameters\": {\"code\": ");
    sim_json_string(f, p->code_name);
    fprintf(f,
            ", \"n\": %u, \"k\": %u, \"rate\": %.6f, \"decoder\": \"%s\", \"schedule\": \"%s\", \"iterations\": %d, "
            "\"norm\": %s, \"offset\": %s, \"precision\": \"%s\", \"quant_step\": %s, \"early_stop\": %s, "
            "\"channel\": \"%s\", \"modulation\": \"%s\", \"range_of\": \"%s\", \"range\": [%g, %g, %g], \"min_frame_errors\": %ld, "
            "\"max_frames\": %ld, \"max_seconds_per_point\": %g, \"backend\": \"%s\", \"backend_requested\": \"%s\", "
            "\"seed\": %llu, \"ranks\": %d, \"threads\": %d, \"devices\": \"%s\", \"all_zero\": %s, \"chain\": \"%s\", \"unit_frames\": %d, \"generator\": \"philox4x32-10 (seed, point, frame)\", "
            "\"version\": \"%s\", \"options\": {",
            info->n, info->k, info->rate, decoder_label(&p->dec, info->family),
            schedule_label(&p->dec, info->family, p->dec.schedule, sched_buf, sizeof sched_buf), p->dec.max_iterations,
            opt_text(&p->dec, "norm", t_norm, sizeof t_norm), opt_text(&p->dec, "offset", t_off, sizeof t_off),
            opt_text(&p->dec, "precision", t_prec, sizeof t_prec), opt_text(&p->dec, "quant_step", t_step, sizeof t_step),
            p->dec.early_termination ? "true" : "false", channel_name(p), modulation_name(p), x_name(p), p->start, p->stop, p->step, p->min_frame_errors, p->max_frames,
            p->max_seconds, backend, gpufec_backend_name(p->dec.backend), p->seed, ranks, p->threads,
            p->devices ? p->devices : "", p->all_zero ? "true" : "false", p->chain, SIM_UNIT_FRAMES,
            gpufec_version());
    write_options(f, &p->dec, code, 1, 1);
    fprintf(f, "}}");
    fclose(f);
    f = open_memstream(key, &len);
    if (!f)
        die("out of memory");
    fprintf(f, "code=%s channel=%s modulation=%s all_zero=%d %s=%.9g:%.9g:%.9g min_frame_errors=%ld max_frames=%ld seed=%llu unit=%d backend=%s ",
            p->code_name, channel_name(p), modulation_name(p), p->all_zero, x_name(p), p->start, p->stop, p->step, p->min_frame_errors,
            p->max_frames, p->seed, SIM_UNIT_FRAMES, backend);
    write_options(f, &p->dec, code, 0, 0);
    fclose(f);
}

typedef struct {
    const sim_params* prm;
    const gpufec_code_info* info;
    double x;
    int tty;
    int shown; /* a redrawn line is on the terminal */
    /* the point in progress is saved, marked partial, every CHECKPOINT_SECONDS: a run killed
     * outright (SIGKILL, a lost node, a power cut) resumes from there */
    sim_point_record* pts;
    int index;
    double seconds_before, last_checkpoint;
    const char *head, *key, *x_key;
} progress_ctx;

#define CHECKPOINT_SECONDS 30.0

static void show_progress(void* user, const sim_counts* c, long long units, long long new_frames, double elapsed)
{
    progress_ctx* pc = user;
    if (pc->prm->json_path && elapsed - pc->last_checkpoint >= CHECKPOINT_SECONDS) {
        sim_point_record* q = &pc->pts[pc->index];
        q->x = pc->x;
        q->counts = *c;
        q->units = units;
        q->seconds = pc->seconds_before + elapsed;
        q->partial = 1;
        q->stop = SIM_STOP_INTERRUPT;
        if (sim_json_write(pc->prm->json_path, pc->head, pc->key, pc->x_key, pc->info->k, pc->pts, pc->index + 1, 0) != 0)
            fprintf(stderr, "gpufec-sim: --json: cannot write '%s': %s (the run goes on)\n", pc->prm->json_path,
                    strerror(errno));
        pc->last_checkpoint = elapsed;
    }
    if (pc->prm->progress == 0)
        return;
    const double fr = c->frames ? (double)c->frames : 1.0, rate = (double)new_frames * pc->info->k / elapsed / 1e6;
    char left[64] = "";
    const long long need = pc->prm->min_frame_errors - c->frame_errors;
    if (c->frame_errors > 0 && new_frames > 0) {
        const double frames_left = (double)need * fr / (double)c->frame_errors, per_frame = elapsed / (double)new_frames;
        const double by_errors = frames_left * per_frame,
                     by_frames = (double)(pc->prm->max_frames - c->frames) * per_frame;
        snprintf(left, sizeof left, ", about %.0f s left", by_errors < by_frames ? by_errors : by_frames);
    }
    fprintf(stderr, "%s%s %g: %lld frames, %lld frame errors, BER %.3e, FER %.3e, %.1f Mb/s simulated%s%s",
            pc->tty ? "\r" : "", pc->prm->channel != SIM_AWGN ? "p" : pc->prm->esn0 ? "Es/N0" : "Eb/N0", pc->x, c->frames, c->frame_errors,
            (double)c->bit_errors / (fr * pc->info->k), (double)c->frame_errors / fr, rate, left,
            pc->tty ? "\033[K" : "\n");
    pc->shown = pc->tty;
}

static void print_row(const sim_params* prm, const gpufec_code_info* info, const sim_point_record* q, const char* note)
{
    const double fr = q->counts.frames ? (double)q->counts.frames : 1.0;
    const double ber = (double)q->counts.bit_errors / (fr * info->k), fer = (double)q->counts.frame_errors / fr;
    if (prm->channel != SIM_AWGN)
        printf("  %9.5f | %10lld | %10lld | %10lld | %9.3e | %9.3e | %6.2f | %12.3f | %12.3f | %8.2f%s\n", q->x,
               q->counts.frames, q->counts.bit_errors, q->counts.frame_errors, ber, fer,
               (double)q->counts.iterations / fr, q->decoder_bps / 1e6, q->simulated_bps / 1e6, q->seconds, note);
    else
        printf("  %6.2f | %6.2f | %10lld | %10lld | %10lld | %9.3e | %9.3e | %6.2f | %12.3f | %12.3f | %8.2f%s\n",
               esn0_db(prm, info, q->x), ebn0_db(prm, info, q->x), q->counts.frames, q->counts.bit_errors, q->counts.frame_errors, ber,
               fer, (double)q->counts.iterations / fr, q->decoder_bps / 1e6, q->simulated_bps / 1e6, q->seconds, note);
    fflush(stdout);
}

int main(int argc, char** argv)
{
    cli_program = "gpufec-sim";
    sim_ranks ranks;
    char why_mpi[400];
    if (sim_mpi_start(&argc, &argv, &ranks, why_mpi, sizeof why_mpi) != 0)
        die("%s", why_mpi);
    static char rank_name[64];
    if (ranks.rank > 0) { /* rank 0 prints the table and writes the files; the others say only what fails */
        snprintf(rank_name, sizeof rank_name, "gpufec-sim (rank %d)", ranks.rank);
        cli_program = rank_name;
        if (!freopen("/dev/null", "w", stdout))
            die("cannot silence stdout");
    }
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
     * backend (resolved once by a probe decoder), the file to resume. */
    if (prm.json_path && !prm.resume_path && ranks.rank == 0) {
        char tmp[4096];
        snprintf(tmp, sizeof tmp, "%s.tmp", prm.json_path);
        FILE* t = fopen(tmp, "w");
        if (!t)
            die("--json: cannot write '%s'", prm.json_path);
        fclose(t);
        remove(tmp);
    }
    int devices[64], ndevices = 0;
    if (prm.devices) {
        const int present = sim_gpu_count();
        if (strcmp(prm.devices, "all") == 0) {
            for (ndevices = 0; ndevices < present && ndevices < 64; ndevices++)
                devices[ndevices] = ndevices;
        } else {
            char list[256];
            snprintf(list, sizeof list, "%s", prm.devices);
            for (char* w = strtok(list, ","); w && ndevices < 64; w = strtok(NULL, ","))
                devices[ndevices++] = (int)parse_long(w, "--devices", 0, 63);
        }
        if (ndevices == 0)
            die("--devices %s: no CUDA device here", prm.devices);
        for (int d = 0; d < ndevices; d++)
            if (devices[d] >= present)
                die("--devices: device %d is not present (%d CUDA device(s))", devices[d], present);
        if (prm.dec.backend == GPUFEC_BACKEND_CPU)
            die("--devices: GPUs for the CPU backend (use --backend cuda or auto)");
        prm.dec.backend = GPUFEC_BACKEND_CUDA;
        if (ranks.size > 1) { /* the host's ranks share the list: each takes one GPU of it */
            devices[0] = devices[ranks.local_rank % ndevices];
            ndevices = 1;
        }
        prm.dec.device = devices[0];
        if (!prm.threads_given)
            prm.threads = 2 * ndevices; /* two contexts per GPU overlap one's copies with the other's kernels */
    } else if (ranks.size > 1 && prm.dec.backend != GPUFEC_BACKEND_CPU && sim_gpu_count() > 0) {
        /* ranks on a host with GPUs: one GPU each, in turn */
        devices[0] = ranks.local_rank % sim_gpu_count();
        ndevices = 1;
        prm.dec.device = devices[0];
        if (!prm.threads_given)
            prm.threads = 2;
    }
    gpufec_diag why;
    st = gpufec_decoder_opts_check(&prm.dec, code, &why);
    if (st)
        die("decoder options: %s", why.message);
    gpufec_decoder* probe = NULL;
    st = gpufec_decoder_create(&probe, code, &prm.dec);
    if (st)
        die("cannot create the %s decoder: %s", gpufec_backend_name(prm.dec.backend), gpufec_status_str(st));
    gpufec_backend used;
    gpufec_decoder_backend(probe, &used);
    if (prm.all_zero) {
        /* The all-zero word stands for every codeword only when the decoder treats +x and -x
         * alike (gpufec_decoder_symmetric); saturating two's complement (LDPC int8, turbo int16
         * and int8) does not, LDPC int8p16 (+-2047) does. */
        int symmetric = 1;
        gpufec_decoder_symmetric(probe, &symmetric);
        if (!symmetric) {
            char variant[96] = "", prec[32] = "";
            gpufec_decoder_variant(probe, variant, sizeof variant);
            if (gpufec_family_reads_option(info.family, "precision")) /* the family's records say, not its name */
                opt_text(&prm.dec, "precision", prec, sizeof prec);
            gpufec_decoder_destroy(probe); /* (the sanitizer suite runs this refusal and counts leaks) */
            gpufec_code_destroy(code);
            die("--all-zero: the decoder in use (%s%s%s) saturates asymmetrically, so the all-zero codeword does "
                "not stand for the others; simulate random codewords (drop --all-zero) or choose float arithmetic",
                variant, prec[0] ? ", precision " : "", prec);
        }
    }
    gpufec_schedule sched;
    gpufec_decoder_schedule(probe, &sched);
    prm.dec.schedule = sched; /* every worker uses what the probe resolved */
    gpufec_decoder_destroy(probe);
    /* With the CUDA backend the channel runs on the GPU where the frames are decoded, and random
     * codewords are made there too where the library has a device encoder for the code. */
    const int gpu_chain = used == GPUFEC_BACKEND_CUDA;
    int device_frames = 0;
    char host_why[300] = "--host-encoder";
    if (gpu_chain && !prm.all_zero && !prm.host_encoder) {
        gpufec_device_encoder* probe_enc = NULL;
        gpufec_diag d = {0, ""};
        device_frames = gpufec_device_encoder_create(&probe_enc, code, prm.dec.device, &d) == GPUFEC_OK;
        snprintf(host_why, sizeof host_why, "%s", d.message);
        gpufec_device_encoder_destroy(probe_enc);
    }
    prm.chain = !gpu_chain ? "cpu" : prm.all_zero || device_frames ? "gpu" : "host bits, gpu channel and decoder";
    if (prm.batch == 0)
        prm.batch = used == GPUFEC_BACKEND_CUDA ? 4096 : SIM_UNIT_FRAMES;
    if (prm.batch > prm.max_frames)
        prm.batch = (int)prm.max_frames; /* no batch larger than the frames it may simulate */
    const int batch_units = (prm.batch + SIM_UNIT_FRAMES - 1) / SIM_UNIT_FRAMES;
    /* A batch's buffers (soft values and bits) must fit: refuse rather than fail mid-run. */
    if ((double)batch_units * SIM_UNIT_FRAMES * info.n * (sizeof(float) + 3.0) * prm.threads > 16e9)
        die("--batch %d: %d thread(s) x %d frames x %u soft bits need more than 16 GB; use a smaller --batch",
            prm.batch, prm.threads, prm.batch, info.n);

    const int npts = (int)floor((prm.stop - prm.start) / prm.step + 1e-9) + 1;
    sim_point_record* pts = calloc((size_t)npts, sizeof *pts);
    if (!pts)
        die("out of memory");
    char *head = NULL, *key = NULL;
    describe_run(&prm, code, &info, gpufec_backend_name(used), ranks.size, &head, &key);
    const char* x_key = x_name(&prm);
    int resumed = 0;
    if (prm.resume_path) { /* read by rank 0 (the only one that writes it), then sent to the others */
        char old_key[4096], reason[256], refusal[8192 + 512] = "";
        if (ranks.rank == 0) {
            resumed = sim_json_read(prm.resume_path, old_key, sizeof old_key, x_key, pts, npts, reason, sizeof reason);
            if (resumed < 0)
                snprintf(refusal, sizeof refusal, "--resume: %s", reason);
            else if (strcmp(old_key, key) != 0)
                snprintf(refusal, sizeof refusal, "--resume %s: that run had other settings (run key '%s'; this one '%s')",
                         prm.resume_path, old_key, key);
            for (int i = 0; !refusal[0] && i < resumed; i++)
                if (fabs(pts[i].x - (prm.start + i * prm.step)) > 1e-6 * (1.0 + fabs(pts[i].x)))
                    snprintf(refusal, sizeof refusal, "--resume %s: point %d is at %g, this sweep's at %g",
                             prm.resume_path, i + 1, pts[i].x, prm.start + i * prm.step);
        }
        if (sim_mpi_bcast(refusal, sizeof refusal) || sim_mpi_bcast(&resumed, sizeof resumed) ||
            sim_mpi_bcast(pts, (size_t)npts * sizeof *pts))
            die("MPI: sending the resumed points failed");
        if (refusal[0]) { /* (freed first: the sanitizer suite runs these refusals and counts leaks) */
            free(pts), free(head), free(key);
            gpufec_code_destroy(code);
            if (ranks.rank == 0)
                die("%s", refusal);
            sim_mpi_stop();
            return 2;
        }
    }

    char sched_buf[64], workers[64], prec_buf[32];
    if (ranks.size > 1)
        snprintf(workers, sizeof workers, "MPI: %d ranks x %d thread(s)", ranks.size, prm.threads);
    else
        snprintf(workers, sizeof workers, "%d thread(s)", prm.threads);
    printf("# gpufec-sim %s: code %s (N=%u, K=%u, R=%.4f), decoder %s %s, %d iterations%s, %s, backend %s, "
           "%s, seed %llu, %s\n",
           gpufec_version(), prm.code_name, info.n, info.k, info.rate,
           schedule_label(&prm.dec, info.family, prm.dec.schedule, sched_buf, sizeof sched_buf),
           decoder_label(&prm.dec, info.family), prm.dec.max_iterations,
           prm.dec.early_termination ? "" : " (no early stop)", opt_text(&prm.dec, "precision", prec_buf, sizeof prec_buf),
           gpufec_backend_name(used),
           prm.channel == SIM_BSC ? "BSC" : prm.channel == SIM_BEC ? "BEC"
           : prm.bits_per_symbol == 1 ? "BPSK/AWGN" : prm.bits_per_symbol == 2 ? "QPSK/AWGN (Gray, max-log)"
           : prm.bits_per_symbol == 4 ? "16-QAM/AWGN (Gray, max-log)" : "64-QAM/AWGN (Gray, max-log)",
           prm.seed, workers);
    if (!gpu_chain)
        printf("# chain: CPU\n");
    else if (prm.all_zero)
        printf("# chain: GPU (all-zero frames made, decoded and counted on the device)\n");
    else if (device_frames)
        printf("# chain: GPU (bits, encoder, channel, decoder and counting on the device)\n");
    else
        printf("# chain: host bits and encoder (%s), GPU channel, decoder and counting\n", host_why);
    printf("# options: ");
    write_options(stdout, &prm.dec, code, 0, 1);
    printf("\n# DEC_THR: information bits per second inside %s (summed over threads); SIM_THR: "
           "information bits simulated per second of wall time\n",
           gpu_chain ? "the GPU chain's calls (frames, channel, decoder, counting)" : "the decoder");
    if (prm.channel != SIM_AWGN)
        printf("# %9s | %10s | %10s | %10s | %9s | %9s | %6s | %12s | %12s | %8s\n", "p", "FRA", "BE", "FE", "BER",
               "FER", "ITE", "DEC_THR_Mbps", "SIM_THR_Mbps", "TIME_s");
    else
        printf("# %6s | %6s | %10s | %10s | %10s | %9s | %9s | %6s | %12s | %12s | %8s\n", "Es/N0", "Eb/N0", "FRA",
               "BE", "FE", "BER", "FER", "ITE", "DEC_THR_Mbps", "SIM_THR_Mbps", "TIME_s");
    fflush(stdout);

    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_signal;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGINT, &sa, NULL);
    sigaction(SIGTERM, &sa, NULL);
    const int tty = isatty(STDERR_FILENO);
    /* the progress callback also saves the point in progress (every 30 s) */
    const double every = prm.progress != 0 && tty ? 0.5 : 10.0;

    sim_pool* pool = sim_pool_create(prm.threads, devices, ndevices);
    if (!pool)
        die("out of memory");
    int done = 0, sweep_over = 0;
    for (int i = 0; i < npts && !sweep_over; i++) {
        const double x = prm.start + i * prm.step;
        sim_point_record* q = &pts[i];
        if (i < resumed && !q->partial) { /* finished before: shown as it was */
            print_row(&prm, &info, q, "  (resumed: done before)");
            done = i + 1;
            sweep_over = q->counts.frame_errors == 0 && !prm.keep_going;
            continue;
        }
        sim_point_job job;
        memset(&job, 0, sizeof job);
        job.code = code;
        job.dec = &prm.dec;
        job.channel = prm.channel;
        job.bits_per_symbol = prm.bits_per_symbol;
        job.all_zero = prm.all_zero;
        job.gpu_chain = gpu_chain;
        job.device_frames = device_frames;
        job.pool = pool;
        job.x = x;
        /* unit-energy symbols, noise N0/2 per real dimension: sigma2 = 1 / (2 Es/N0) */
        job.sigma2 = prm.channel != SIM_AWGN ? 0 : 1.0 / (2.0 * pow(10.0, esn0_db(&prm, &info, x) / 10.0));
        job.key.seed = prm.seed;
        job.key.point = (uint32_t)i;
        job.min_frame_errors = prm.min_frame_errors;
        job.max_frames = prm.max_frames;
        job.threads = prm.threads;
        job.batch_units = batch_units;
        job.max_seconds = prm.max_seconds;
        job.interrupted = &interrupted;
        const double seconds_before = i < resumed ? q->seconds : 0;
        if (i < resumed) { /* the interrupted point: on from its last counted unit */
            job.start_unit = q->units;
            job.start = q->counts;
        }
        progress_ctx pc = {&prm, &info, x, tty, 0, pts, i, seconds_before, 0, head, key, x_key};
        sim_point_result r;
        sim_run_point_ranks(&ranks, &job, &r, ranks.rank == 0 ? show_progress : NULL, &pc, every);
        if (pc.shown)
            fputs("\r\033[K", stderr);
        q->x = x;
        q->counts = r.counts;
        q->units = r.units;
        q->seconds = seconds_before + r.seconds;
        q->decoder_bps = r.decoder_bps;
        q->simulated_bps = r.seconds > 0 ? (double)(r.counts.frames - job.start.frames) * info.k / r.seconds : 0;
        q->busy_threads = r.busy_threads;
        q->stop = r.stop;
        q->partial = r.stop == SIM_STOP_INTERRUPT || r.error != GPUFEC_OK;
        done = i + 1;
        sweep_over = r.error != GPUFEC_OK || r.stop == SIM_STOP_INTERRUPT ||
                     (q->counts.frame_errors == 0 && !prm.keep_going);
        if (ranks.rank == 0 && prm.json_path &&
            sim_json_write(prm.json_path, head, key, x_key, info.k, pts, done, !q->partial && (i + 1 == npts || sweep_over)) != 0) {
            fprintf(stderr, "%s: --json: cannot write '%s': %s\n", cli_program, prm.json_path, strerror(errno));
            sim_mpi_abort(2);
        }
        if (ranks.rank == 0 && prm.plot_path)
            redraw(prm.json_path, prm.plot_path);
        if (r.error) {
            if (ranks.rank == 0)
                fprintf(stderr, "%s: simulation failed at point %g: %s%s\n", cli_program, x, r.error_text,
                        prm.json_path ? " (the points before it are in the JSON file)" : "");
            sim_mpi_stop();
            return 2;
        }
        print_row(&prm, &info, q,
                  r.stop == SIM_STOP_TIME ? "  (time limit)" : r.stop == SIM_STOP_INTERRUPT ? "  (interrupted: partial)" : "");
        if (r.stop == SIM_STOP_INTERRUPT) {
            if (ranks.rank == 0 && prm.json_path)
                fprintf(stderr, "gpufec-sim: interrupted; the results so far are in %s (the last point marked "
                                "partial): --resume %s goes on from there\n",
                        prm.json_path, prm.json_path);
            else if (ranks.rank == 0)
                fprintf(stderr, "gpufec-sim: interrupted (no --json: nothing saved)\n");
            sim_pool_destroy(pool);
            free(pts), free(head), free(key);
            gpufec_code_destroy(code);
            sim_mpi_stop();
            return 130;
        }
        if (q->counts.frame_errors == 0 && !prm.keep_going && i + 1 < npts)
            printf("# no frame error at this point: the sweep stops here (--keep-going runs the rest)\n");
    }
    if (ranks.rank == 0 && prm.json_path && sim_json_write(prm.json_path, head, key, x_key, info.k, pts, done, 1) != 0)
        die("--json: cannot write '%s': %s", prm.json_path, strerror(errno));
    sim_pool_destroy(pool);
    free(pts), free(head), free(key);
    gpufec_code_destroy(code);
    sim_mpi_stop();
    return 0;
}
