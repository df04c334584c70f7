#define _POSIX_C_SOURCE 200809L
#include "cli_util.h"

#include <gpufec/gpufec.h>

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

const char* cli_program = "gpufec";

void die(const char* fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fprintf(stderr, "%s: ", cli_program);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
    exit(2);
}

double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

gpufec_code* open_code_or_die(const char* name)
{
    gpufec_code* code = NULL;
    gpufec_diag diag = {0, ""};
    gpufec_status st = gpufec_code_open(&code, name, &diag);
    if (st)
        die("--code %s: %s", name, diag.message[0] ? diag.message : gpufec_status_str(st));
    return code;
}

double parse_double(const char* s, const char* what)
{
    char* end;
    errno = 0;
    double v = strtod(s, &end);
    if (errno || end == s || *end || !isfinite(v))
        die("%s: '%s' is not a number", what, s);
    return v;
}

long parse_long(const char* s, const char* what, long lo, long hi)
{
    char* end;
    errno = 0;
    long v = strtol(s, &end, 10);
    if (errno || end == s || *end || v < lo || v > hi)
        die("%s: '%s' is not an integer in %ld..%ld", what, s, lo, hi);
    return v;
}

/* What the command line set, by the library's option name and the flag that set it, checked
 * against the code's family once the code is open (a tool is one run: static state is fine). */
#define CLI_MAX_NOTED 64
static struct {
    char name[64];
    char flag[64];
} noted[CLI_MAX_NOTED];
static int n_noted = 0;
static const char* pending_decoder = NULL;

void cli_note_option(const char* name, const char* flag)
{
    if (n_noted < CLI_MAX_NOTED) {
        snprintf(noted[n_noted].name, sizeof noted[n_noted].name, "%s", name);
        snprintf(noted[n_noted].flag, sizeof noted[n_noted].flag, "%s", flag);
        n_noted++;
    }
}

int cli_option_noted(const char* name)
{
    for (int i = 0; i < n_noted; i++)
        if (strcmp(noted[i].name, name) == 0)
            return 1;
    return 0;
}

void apply_param(void* opts, const char* assignment)
{
    char name[64];
    const char* eq = strchr(assignment, '=');
    if (!eq || eq == assignment || (size_t)(eq - assignment) >= sizeof name)
        die("--param: expected NAME=VALUE, got '%s' (gpufec-info --params lists the names)", assignment);
    memcpy(name, assignment, (size_t)(eq - assignment));
    name[eq - assignment] = '\0';
    gpufec_diag d;
    if (gpufec_decoder_opts_set((gpufec_decoder_opts*)opts, name, eq + 1, &d) != GPUFEC_OK)
        die("--param: %s", d.message);
    cli_note_option(name, "--param");
}

void set_named_param(void* opts, const char* name, const char* value, const char* flag)
{
    gpufec_diag d;
    if (gpufec_decoder_opts_set((gpufec_decoder_opts*)opts, name, value, &d) != GPUFEC_OK)
        die("%s: %s", flag, d.message);
    cli_note_option(name, flag);
}

const char* opt_text(const void* opts, const char* name, char* buf, size_t len)
{
    if (gpufec_decoder_opts_get((const gpufec_decoder_opts*)opts, name, buf, len) != GPUFEC_OK)
        snprintf(buf, len, "?");
    return buf;
}

/* The algorithm option of a family (the library's family record says). */
static const char* algorithm_option(int family)
{
    const char* o = gpufec_family_algorithm_option((gpufec_family)family);
    return o ? o : "algorithm";
}

static int is_choice(const char* option, const char* value)
{
    for (size_t i = 0; i < gpufec_decoder_param_count(); i++) {
        gpufec_param_info p;
        gpufec_decoder_param_info(i, &p);
        if (strcmp(p.name, option) == 0)
            for (size_t c = 0; c < p.n_choices; c++)
                if (strcmp(p.choices[c], value) == 0)
                    return 1;
    }
    return 0;
}

void set_decoder(void* opts, const char* name)
{
    (void)opts;
    gpufec_family f;
    for (size_t i = 0; gpufec_family_at(i, &f) == GPUFEC_OK; i++)
        if (is_choice(algorithm_option((int)f), name)) {
            pending_decoder = name; /* applied for the code's family by cli_check_family */
            return;
        }
    fprintf(stderr, "%s: --decoder: unknown decoder '%s':", cli_program, name);
    for (size_t i = 0; gpufec_family_at(i, &f) == GPUFEC_OK; i++) {
        fprintf(stderr, "%s %s ", i ? "," : "", gpufec_family_label(f));
        print_choices(stderr, algorithm_option((int)f));
    }
    fputc('\n', stderr);
    exit(2);
}

void cli_check_family(void* opts, const struct gpufec_code* code)
{
    gpufec_code_info info;
    gpufec_code_get_info(code, &info);
    const int family = (int)info.family;
    const char* fname = gpufec_family_name((gpufec_family)family);
    if (pending_decoder) {
        const char* option = algorithm_option(family);
        gpufec_diag d;
        if (gpufec_decoder_opts_set((gpufec_decoder_opts*)opts, option, pending_decoder, &d) != GPUFEC_OK) {
            fprintf(stderr, "%s: --decoder %s: not a decoder of %s codes (this code's family); they are ", cli_program,
                    pending_decoder, fname);
            print_choices(stderr, option);
            fputc('\n', stderr);
            exit(2);
        }
    }
    for (int i = 0; i < n_noted; i++) {
        gpufec_diag d;
        if (gpufec_decoder_param_check_family(noted[i].name, code, &d) != GPUFEC_OK)
            die("%s: %s", noted[i].flag, d.message);
    }
}

const char* decoder_label(const void* opts, int family)
{
    static char value[64]; /* the tools print from one thread */
    if (gpufec_decoder_opts_get((const gpufec_decoder_opts*)opts, algorithm_option(family), value, sizeof value) !=
        GPUFEC_OK)
        snprintf(value, sizeof value, "unknown");
    return value;
}

/* The decoder's schedule where the family reads one; else the family's other options that
 * differ from the library's defaults, "name=value" (e.g. "subblocks=64 guard=pividstw"), or "-". */
const char* schedule_label(const void* opts, int family, int schedule, char* buf, size_t len)
{
    if (gpufec_family_reads_option((gpufec_family)family, "schedule"))
        return gpufec_schedule_name((gpufec_schedule)schedule);
    gpufec_decoder_opts d;
    gpufec_decoder_opts_default(&d);
    const char* alg = gpufec_family_algorithm_option((gpufec_family)family);
    size_t w = 0;
    buf[0] = '\0';
    gpufec_param_info p;
    for (size_t i = 0; gpufec_decoder_param_info(i, &p) == GPUFEC_OK; i++) {
        char now[64], def[64];
        if (!gpufec_family_reads_option((gpufec_family)family, p.name) || (alg && strcmp(p.name, alg) == 0) ||
            gpufec_decoder_opts_get(opts, p.name, now, sizeof now) != GPUFEC_OK ||
            gpufec_decoder_opts_get(&d, p.name, def, sizeof def) != GPUFEC_OK || strcmp(now, def) == 0)
            continue;
        const int n = snprintf(buf + w, len - w, "%s%s=%s", w ? " " : "", p.name, now);
        if (n < 0 || (size_t)n >= len - w)
            break;
        w += (size_t)n;
    }
    if (!w)
        snprintf(buf, len, "-");
    return buf;
}

/* 1 when "name=value" sets a family's algorithm option. */
int cli_names_algorithm(const char* assignment)
{
    gpufec_family f;
    for (size_t i = 0; gpufec_family_at(i, &f) == GPUFEC_OK; i++) {
        const char* o = gpufec_family_algorithm_option(f);
        const size_t n = strlen(o);
        if (strncmp(assignment, o, n) == 0 && assignment[n] == '=')
            return 1;
    }
    return 0;
}

void print_choices(FILE* f, const char* name)
{
    for (size_t i = 0; i < gpufec_decoder_param_count(); i++) {
        gpufec_param_info p;
        gpufec_decoder_param_info(i, &p);
        if (strcmp(p.name, name) != 0)
            continue;
        for (size_t c = 0; c < p.n_choices; c++)
            fprintf(f, "%s%s", c ? "|" : "", p.choices[c]);
    }
}
