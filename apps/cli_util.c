#define _POSIX_C_SOURCE 200809L
#include "cli_util.h"

#include <gpufec/gpufec.h>

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
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
