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

#endif
