#define _POSIX_C_SOURCE 200809L
#include "sim_json.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

static const char* const STOP_NAMES[] = {"errors", "frames", "time", "interrupted"};

void sim_json_string(FILE* f, const char* s)
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

int sim_json_write(const char* path, const char* head, const char* run_key, const char* x_key, unsigned k,
                   const sim_point_record* pts, int npts, int complete)
{
    char tmp[4096];
    if (snprintf(tmp, sizeof tmp, "%s.tmp", path) >= (int)sizeof tmp) {
        errno = ENAMETOOLONG;
        return -1;
    }
    FILE* f = fopen(tmp, "w");
    if (!f)
        return -1;
    fprintf(f, "{\n  %s,\n  \"run_key\": ", head);
    sim_json_string(f, run_key);
    fprintf(f, ",\n  \"complete\": %s,\n  \"points\": [\n", complete ? "true" : "false");
    for (int i = 0; i < npts; i++) {
        const sim_point_record* q = &pts[i];
        const double fr = q->counts.frames ? (double)q->counts.frames : 1.0;
        fprintf(f,
                "    {\"%s\": %.6g, \"frames\": %lld, \"bit_errors\": %lld, \"frame_errors\": %lld, "
                "\"iterations\": %lld, \"ber\": %.6e, \"fer\": %.6e, \"mean_iterations\": %.4f, "
                "\"decoder_mbps\": %.4f, \"simulated_mbps\": %.4f, \"seconds\": %.3f, \"busy_threads\": %d, "
                "\"units\": %lld, \"stop\": \"%s\", \"partial\": %s}%s\n",
                x_key, q->x, q->counts.frames, q->counts.bit_errors, q->counts.frame_errors, q->counts.iterations,
                (double)q->counts.bit_errors / (fr * (double)k),
                (double)q->counts.frame_errors / fr, (double)q->counts.iterations / fr, q->decoder_bps / 1e6,
                q->simulated_bps / 1e6, q->seconds, q->busy_threads, q->units, STOP_NAMES[q->stop],
                q->partial ? "true" : "false", i + 1 < npts ? "," : "");
    }
    fprintf(f, "  ]\n}\n");
    if (fflush(f) != 0 || fclose(f) != 0) {
        remove(tmp);
        return -1;
    }
    if (rename(tmp, path) != 0) {
        remove(tmp);
        return -1;
    }
    return 0;
}

/* The number after "key": in [p, end), or 0 when absent. */
static const char* find_key(const char* p, const char* end, const char* key)
{
    char pat[64];
    snprintf(pat, sizeof pat, "\"%s\":", key);
    const size_t len = strlen(pat);
    for (; p + len <= end; p++)
        if (memcmp(p, pat, len) == 0)
            return p + len;
    return NULL;
}

static int read_number(const char* p, const char* end, const char* key, double* v)
{
    const char* at = find_key(p, end, key);
    if (!at)
        return 0;
    char* stop;
    *v = strtod(at, &stop);
    return stop != at;
}

int sim_json_read(const char* path, char* key, size_t key_len, const char* x_key, sim_point_record* pts, int max,
                  char* why, size_t why_len)
{
    FILE* f = fopen(path, "rb");
    if (!f) {
        snprintf(why, why_len, "cannot read '%s': %s", path, strerror(errno));
        return -1;
    }
    char* text = NULL;
    size_t len = 0, cap = 0;
    for (;;) {
        if (len + 65536 > cap) {
            if (cap > ((size_t)1 << 30)) { /* no result file of ours is that large */
                free(text);
                fclose(f);
                snprintf(why, why_len, "'%s' is too large to be a gpufec-sim result", path);
                return -1;
            }
            char* t = realloc(text, cap = cap * 2 + 65536);
            if (!t) {
                free(text);
                fclose(f);
                snprintf(why, why_len, "out of memory");
                return -1;
            }
            text = t;
        }
        const size_t got = fread(text + len, 1, cap - len - 1, f);
        len += got;
        if (got == 0)
            break;
    }
    fclose(f);
    text[len] = '\0';
    const char* end = text + len;
    const char* k = find_key(text, end, "run_key");
    const char* pts_at = find_key(text, end, "points");
    if (!k || !pts_at) {
        free(text);
        snprintf(why, why_len, "'%s' is not a gpufec-sim result file (no run_key or points)", path);
        return -1;
    }
    while (*k == ' ')
        k++;
    size_t o = 0;
    if (*k == '"')
        for (k++; *k && *k != '"' && o + 1 < key_len; k++) {
            if (*k == '\\' && k[1])
                k++;
            key[o++] = *k;
        }
    key[o] = '\0';
    int n = 0;
    for (const char* p = strchr(pts_at, '{'); p && n < max; p = strchr(p + 1, '{')) {
        const char* q = strchr(p, '}');
        if (!q)
            break;
        double v[8];
        if (!read_number(p, q, x_key, &v[0]) || !read_number(p, q, "frames", &v[1]) ||
            !read_number(p, q, "bit_errors", &v[2]) || !read_number(p, q, "frame_errors", &v[3]) ||
            !read_number(p, q, "iterations", &v[4]) || !read_number(p, q, "units", &v[5]) ||
            !read_number(p, q, "seconds", &v[6])) {
            free(text);
            snprintf(why, why_len, "'%s': point %d lacks a field --resume needs", path, n + 1);
            return -1;
        }
        sim_point_record* r = &pts[n++];
        memset(r, 0, sizeof *r);
        r->x = v[0];
        r->counts.frames = (long long)v[1];
        r->counts.bit_errors = (long long)v[2];
        r->counts.frame_errors = (long long)v[3];
        r->counts.iterations = (long long)v[4];
        r->units = (long long)v[5];
        r->seconds = v[6];
        const char* partial = find_key(p, q, "partial");
        r->partial = partial && strncmp(partial + (*partial == ' '), "true", 4) == 0;
        const char* stop = find_key(p, q, "stop");
        r->stop = SIM_STOP_FRAMES;
        for (int s = 0; stop && s < 4; s++)
            if (strncmp(stop + (*stop == ' ') + 1, STOP_NAMES[s], strlen(STOP_NAMES[s])) == 0)
                r->stop = (sim_stop)s;
        p = q;
    }
    free(text);
    return n;
}
