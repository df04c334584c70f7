/* Minimal test harness for the C core tests: CHECK records a failure and carries on, so one run
 * reports every broken case. */
#ifndef GPUFEC_TEST_UTIL_H
#define GPUFEC_TEST_UTIL_H

#include <gpufec/gpufec.h>

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <math.h>
#include <time.h>

static int test_failures = 0;

#define CHECK(cond, ...)                                                                        \
    do {                                                                                        \
        if (!(cond)) {                                                                          \
            test_failures++;                                                                    \
            fprintf(stderr, "FAIL %s:%d: %s: ", __FILE__, __LINE__, #cond);                     \
            fprintf(stderr, __VA_ARGS__);                                                       \
            fputc('\n', stderr);                                                                \
        }                                                                                       \
    } while (0)

#define TEST_DONE()                                                                             \
    do {                                                                                        \
        if (test_failures)                                                                      \
            fprintf(stderr, "%d check(s) failed\n", test_failures);                             \
        else                                                                                    \
            printf("all checks passed\n");                                                      \
        return test_failures ? 1 : 0;                                                           \
    } while (0)

/* Fresh randomness every run (the seed is printed so a failure can be replayed with
 * GPUFEC_TEST_SEED). */
static uint64_t test_rng_state;

static inline void test_rng_init(void)
{
    const char* env = getenv("GPUFEC_TEST_SEED");
    uint64_t seed = env ? strtoull(env, NULL, 10) : (uint64_t)time(NULL) ^ ((uint64_t)clock() << 20);
    test_rng_state = seed ? seed : 1;
    printf("GPUFEC_TEST_SEED=%llu\n", (unsigned long long)seed);
}

static inline uint64_t test_rand(void)
{
    uint64_t x = test_rng_state;
    x ^= x << 13;
    x ^= x >> 7;
    x ^= x << 17;
    return test_rng_state = x;
}

static inline double test_uniform(void) { return (double)(test_rand() >> 11) * 0x1.0p-53; }

static inline double test_gauss(void)
{
    double u = test_uniform(), v = test_uniform();
    if (u < 1e-300)
        u = 1e-300;
    return sqrt(-2.0 * log(u)) * cos(6.283185307179586 * v);
}

/* Random information bits (frames * k, one draw each) and their codewords x (frames * n) */
static inline void test_random_codewords(const gpufec_code* c, size_t frames, uint8_t* u, uint8_t* x)
{
    gpufec_code_info info;
    gpufec_code_get_info(c, &info);
    for (size_t i = 0; i < frames * info.k; i++)
        u[i] = (uint8_t)(test_rand() & 1);
    gpufec_code_encode(c, u, frames, x);
}

/* BPSK over AWGN at ebn0 dB for a code of rate `rate`: each bit of x (0 as +1) as its channel
 * LLR, one Gaussian draw per bit; ebn0 = +inf: noiseless, +-8 */
static inline void test_awgn_llr(const uint8_t* x, size_t n, double rate, double ebn0, float* llr)
{
    const double sigma2 = isinf(ebn0) ? 0 : 1.0 / (2.0 * rate * pow(10.0, ebn0 / 10.0));
    for (size_t i = 0; i < n; i++) {
        const double s = x[i] ? -1.0 : 1.0;
        llr[i] = isinf(ebn0) ? (float)(8.0 * s) : (float)(2.0 * (s + sqrt(sigma2) * test_gauss()) / sigma2);
    }
}

/* A test's frames of one code: `frames` random codewords (u its information bits, x its
 * transmitted bits, one draw per information bit) and room for their channel LLRs, freed as one.
 * test_frames_of takes ownership of the code (opened, and changed, by the caller). */
typedef struct {
    gpufec_code* code;
    gpufec_code_info info;
    size_t frames;
    uint8_t *u, *x;
    float* llr;
} test_frames;

static inline test_frames test_frames_of(gpufec_code* c, size_t frames)
{
    test_frames t = {c, {0}, frames, NULL, NULL, NULL};
    gpufec_code_get_info(c, &t.info);
    t.u = malloc(frames * t.info.k);
    t.x = malloc(frames * t.info.n);
    t.llr = malloc(frames * t.info.n * sizeof *t.llr);
    if (!t.u || !t.x || !t.llr) {
        fprintf(stderr, "test_frames_of: out of memory for %zu frames\n", frames);
        exit(2);
    }
    test_random_codewords(c, frames, t.u, t.x);
    return t;
}

static inline void test_frames_free(test_frames* t)
{
    gpufec_code_destroy(t->code);
    free(t->u);
    free(t->x);
    free(t->llr);
    memset(t, 0, sizeof *t);
}

/* One decoder's outputs for a test's frames: `len` bytes of bits, an iteration count and a
 * decoded flag per frame */
typedef struct {
    uint8_t* bits;
    int32_t* its;
    uint8_t* ok;
} test_out;

static inline test_out test_out_alloc(size_t frames, size_t len)
{
    test_out o = {malloc(frames * len), malloc(frames * sizeof(int32_t)), malloc(frames)};
    if (!o.bits || !o.its || !o.ok) {
        fprintf(stderr, "test_out_alloc: out of memory for %zu frames\n", frames);
        exit(2);
    }
    return o;
}

static inline void test_out_free(test_out* o)
{
    free(o->bits);
    free(o->its);
    free(o->ok);
}

/* Sets a decoder option by name, the way every family's own options are reached; exits on a
 * refusal (a test's own mistake). */
static inline void test_set(gpufec_decoder_opts* o, const char* name, const char* value)
{
    gpufec_diag d = {0, ""};
    if (gpufec_decoder_opts_set(o, name, value, &d) != GPUFEC_OK) {
        fprintf(stderr, "option %s=%s: %s\n", name, value, d.message);
        exit(2);
    }
}

static inline void test_set_int(gpufec_decoder_opts* o, const char* name, long value)
{
    char v[32];
    snprintf(v, sizeof v, "%ld", value);
    test_set(o, name, v);
}

/* Exactly: 9 significant digits name a float32 uniquely. */
static inline void test_set_float(gpufec_decoder_opts* o, const char* name, double value)
{
    char v[48];
    snprintf(v, sizeof v, "%.9g", value);
    test_set(o, name, v);
}

/* The binary LDPC family's enum options, by their names. */
static inline void test_set_alg(gpufec_decoder_opts* o, gpufec_algorithm a) { test_set(o, "algorithm", gpufec_algorithm_name(a)); }
static inline void test_set_prec(gpufec_decoder_opts* o, gpufec_precision p) { test_set(o, "precision", gpufec_precision_name(p)); }

/* Option `name` read back as a number (enums: their index in the choices), or NAN. */
static inline double test_get(const gpufec_decoder_opts* o, const char* name)
{
    char v[64];
    if (gpufec_decoder_opts_get(o, name, v, sizeof v) != GPUFEC_OK)
        return NAN;
    gpufec_algorithm a;
    gpufec_precision p;
    if (strcmp(name, "algorithm") == 0 && gpufec_algorithm_from_name(v, &a) == GPUFEC_OK)
        return (double)a;
    if (strcmp(name, "precision") == 0 && gpufec_precision_from_name(v, &p) == GPUFEC_OK)
        return (double)p;
    return strtod(v, NULL);
}

/* Whether option `name` reads back as exactly `text`. */
static inline int opt_is(const gpufec_decoder_opts* o, const char* name, const char* text)
{
    char v[64];
    return gpufec_decoder_opts_get(o, name, v, sizeof v) == GPUFEC_OK && strcmp(v, text) == 0;
}

static inline gpufec_code* open_test_code(const char* name)
{
    char path[1024];
    const char* dir = getenv("GPUFEC_TEST_DATA");
    gpufec_code* c = NULL;
    gpufec_diag d = {0, ""};
    gpufec_status st;
    if (strchr(name, '.') && dir) {
        snprintf(path, sizeof path, "%s/%s", dir, name);
        st = gpufec_code_open(&c, path, &d);
    } else {
        st = gpufec_code_open(&c, name, &d);
    }
    if (st) {
        fprintf(stderr, "cannot open %s: %s\n", name, d.message);
        exit(2);
    }
    return c;
}

/* Gives c a custom transmission (gpufec_code_set_transmission): every mother position once plus
 * `extra` random repeats, in a random order. For codes with nothing punctured or shortened.
 * Writes the positions to *positions when not NULL (caller frees); returns n. */
static inline uint32_t test_repeat_transmission(gpufec_code* c, uint32_t extra, uint32_t** positions)
{
    gpufec_code_info info;
    gpufec_code_get_info(c, &info);
    const uint32_t n = info.n_full + extra;
    uint32_t* pos = malloc((size_t)n * sizeof *pos);
    for (uint32_t j = 0; j < n; j++)
        pos[j] = j < info.n_full ? j : (uint32_t)(test_rand() % info.n_full);
    for (uint32_t j = n - 1; j > 0; j--) {
        const uint32_t r = (uint32_t)(test_rand() % (j + 1)), t = pos[j];
        pos[j] = pos[r];
        pos[r] = t;
    }
    gpufec_diag d = {0, ""};
    if (gpufec_code_set_transmission(c, pos, n, &d) != GPUFEC_OK) {
        fprintf(stderr, "set_transmission: %s\n", d.message);
        exit(2);
    }
    if (positions)
        *positions = pos;
    else
        free(pos);
    return n;
}

#endif
