/* Per-call settings against every implementation (issue 23): for each family's CPU
 * implementations and variants (and the CUDA ones where a GPU is present), an iteration limit
 * changed between calls (gpufec_decoder_set_max_iterations) gives exactly what a context created
 * with that limit gives, decisions, iteration counts and flags, and never more iterations; and
 * numbering the frames (gpufec_decoder_set_frame_index) gives a randomised decoder the decisions
 * of a fresh context started at that number. And the front's per-frame work, once for every
 * implementation: float16 and int8 input decode exactly like the float32 of their values, and
 * an all-erasure frame (0, -0, NaN; at int8 storage, values below half a step) is never
 * reported decoded, in any input type. */
#include "test_util.h"

typedef struct {
    const char* code;
    const char* options; /* name=value words */
    double ebn0;         /* where the limit matters: some frames need many iterations */
    const char* cpu;     /* what the CPU variant's name must contain (VOLK's habit: the variant
                            that was asked for is the one that ran) */
} per_call_case;

static const per_call_case CASES[] = {
    {"wifi-648-1_2", "algorithm=nms schedule=layered cpu_simd=0", 1.5, "scalar"},
    {"wifi-648-1_2", "algorithm=nms schedule=layered cpu_simd=1", 1.5, "float32, 8 lanes"},
    {"wifi-648-1_2", "algorithm=nms schedule=layered precision=int8", 1.5, "int8"},
    {"wifi-648-1_2", "algorithm=spa schedule=flooding", 1.5, "float32, 8 lanes"},
    {"wifi-648-1_2", "algorithm=oms schedule=flooding cpu_simd=1", 1.5, "float32, 8 lanes"},
    {"mackay-1008-504", "algorithm=gallager-b", 4.5, "cpu"},
    {"mackay-1008-504", "algorithm=pgab", 4.5, "cpu"},
    {"lte-turbo-1024:crc=24a", "turbo_algorithm=maxlogmap arithmetic=float", 0.6, "cpu"},
    {"lte-turbo-1024:crc=24a", "turbo_algorithm=maxlogmap arithmetic=int16", 0.6, "int16"},
    {"lte-turbo-1024:crc=24a", "turbo_algorithm=maxlogmap arithmetic=int8", 0.6, "int8"},
    {"lte-turbo-512", "turbo_algorithm=logmap subblocks=8", 0.6, "cpu"},
    {"nb-gf16-504", "nb_algorithm=min-max", 1.5, "cpu"},
    {"nb-gf16-504", "nb_algorithm=fft-bp schedule=flooding", 1.5, "cpu"},
    {"lte-tbcc-40", "conv_algorithm=viterbi", 0.5, "Viterbi"},
    {"conv-k7-171-133:k=300:term=tb", "conv_algorithm=viterbi", 1.0, "Viterbi"},
};

#define FRAMES 40

/* A context for the case on `backend` with `iterations`; NULL (and why, printed) where this
 * machine has no such implementation (no GPU, no AVX-512 for a variant that needs it). */
static gpufec_decoder* make(const gpufec_code* c, const per_call_case* k, gpufec_backend backend, int iterations)
{
    gpufec_decoder_opts o;
    gpufec_decoder_opts_default(&o);
    char words[256];
    snprintf(words, sizeof words, "%s", k->options);
    for (char* w = strtok(words, " "); w; w = strtok(NULL, " ")) {
        char* eq = strchr(w, '=');
        *eq = '\0';
        gpufec_diag d = {0, ""};
        if (gpufec_decoder_opts_set(&o, w, eq + 1, &d) != GPUFEC_OK) {
            fprintf(stderr, "%s: %s\n", k->options, d.message);
            exit(2);
        }
    }
    o.backend = backend;
    o.max_iterations = iterations;
    gpufec_decoder* d = NULL;
    if (gpufec_decoder_create(&d, c, &o) != GPUFEC_OK)
        return NULL;
    return d;
}

static void run_case(const per_call_case* k, gpufec_backend backend)
{
    gpufec_code* c = open_test_code(k->code);
    gpufec_code_info info;
    gpufec_code_get_info(c, &info);
    uint8_t* u = malloc(FRAMES * info.k);
    uint8_t* x = malloc(FRAMES * info.n);
    float* llr = malloc(FRAMES * info.n * sizeof(float));
    test_random_codewords(c, FRAMES, u, x);
    test_awgn_llr(x, FRAMES * info.n, info.rate, k->ebn0, llr);
    gpufec_decoder* live = make(c, k, backend, 20);
    if (!live) {
        printf("%s [%s] on %s: not available here, skipped\n", k->code, k->options, gpufec_backend_name(backend));
        gpufec_code_destroy(c);
        free(u), free(x), free(llr);
        return;
    }
    char variant[96];
    gpufec_decoder_variant(live, variant, sizeof variant);
    if (backend == GPUFEC_BACKEND_CPU)
        CHECK(strstr(variant, k->cpu) != NULL, "%s [%s]: variant '%s' ran, not one with '%s'", k->code, k->options,
              variant, k->cpu);
    else
        CHECK(strncmp(variant, "cuda", 4) == 0, "%s [%s]: variant '%s' ran on the CUDA backend", k->code, k->options,
              variant);
    uint8_t *a = malloc(FRAMES * info.k), *b = malloc(FRAMES * info.k);
    int32_t ia[FRAMES], ib[FRAMES];
    uint8_t oa[FRAMES], ob[FRAMES];
    const int limits[] = {3, 20, 1, 7};
    for (size_t li = 0; li < sizeof limits / sizeof *limits; li++) {
        const int lim = limits[li];
        CHECK(gpufec_decoder_set_max_iterations(live, lim) == GPUFEC_OK, "set_max_iterations(%d)", lim);
        gpufec_decoder_set_frame_index(live, 1000 * li);
        gpufec_decoder* fresh = make(c, k, backend, lim);
        gpufec_decoder_set_frame_index(fresh, 1000 * li);
        CHECK(gpufec_decoder_decode(live, llr, FRAMES, a, ia, oa) == GPUFEC_OK, "%s: decode", variant);
        CHECK(gpufec_decoder_decode(fresh, llr, FRAMES, b, ib, ob) == GPUFEC_OK, "%s: decode", variant);
        int differ = 0, over = 0, full = 0;
        for (int f = 0; f < FRAMES; f++) {
            differ += memcmp(a + (size_t)f * info.k, b + (size_t)f * info.k, info.k) != 0 || ia[f] != ib[f] ||
                      oa[f] != ob[f];
            over += ia[f] > lim;
            full += ia[f] == lim;
        }
        CHECK(differ == 0, "%s [%s] %s: limit %d set per call: %d of %d frames differ from a context made with it",
              k->code, k->options, variant, lim, differ, FRAMES);
        CHECK(over == 0, "%s %s: %d frames ran more than %d iterations", k->code, variant, over, lim);
        if (li == 0)
            printf("%s [%s] %s: per-call limits agree (%d of %d frames used all %d iterations)\n", k->code,
                   k->options, variant, full, FRAMES, lim);
        gpufec_decoder_destroy(fresh);
    }
    gpufec_decoder_destroy(live);
    gpufec_code_destroy(c);
    free(u), free(x), free(llr), free(a), free(b);
}

/* Binary16 bits of the small integers and halves used below (exact). */
static uint16_t half_of(float v)
{
    if (v == 0.0f)
        return signbit(v) ? 0x8000u : 0u;
    uint32_t bits;
    memcpy(&bits, &v, sizeof bits);
    return (uint16_t)(((bits >> 16) & 0x8000u) | ((((bits >> 23) & 0xffu) - 112u) << 10) | ((bits >> 13) & 0x3ffu));
}

#define RULE_FRAMES 6

static void front_rules_case(const per_call_case* k, gpufec_backend backend)
{
    gpufec_code* c = open_test_code(k->code);
    gpufec_code_info info;
    gpufec_code_get_info(c, &info);
    const size_t n = info.n;
    uint8_t* u = malloc(RULE_FRAMES * info.k);
    uint8_t* x = malloc(RULE_FRAMES * n);
    test_random_codewords(c, RULE_FRAMES, u, x);
    /* frames: 0 clean, 1 all +0, 2 clean, 3 all -0, 4 all NaN (float types; int8: 0), 5 clean
     * with a few erasures. Values +-4 and 0: exact in every input type at input_scale 0.25. */
    float* f32 = malloc(RULE_FRAMES * n * sizeof *f32);
    uint16_t* f16 = malloc(RULE_FRAMES * n * sizeof *f16);
    int8_t* i8 = malloc(RULE_FRAMES * n);
    for (size_t f = 0; f < RULE_FRAMES; f++)
        for (size_t j = 0; j < n; j++) {
            const size_t i = f * n + j;
            float v = x[i] ? -4.0f : 4.0f;
            if (f == 1 || (f == 5 && j % 41 == 0))
                v = 0.0f;
            if (f == 3)
                v = -0.0f;
            f32[i] = f == 4 ? NAN : v;
            f16[i] = f == 4 ? 0x7e00u : half_of(v);
            i8[i] = f == 4 ? 0 : (int8_t)(v * 4.0f);
        }
    const void* bufs[3] = {f32, f16, i8};
    const char* types[3] = {"float32", "float16", "int8"};
    uint8_t* ref = malloc(RULE_FRAMES * info.k);
    int32_t ref_it[RULE_FRAMES];
    for (int t = 0; t < 3; t++) {
        gpufec_decoder_opts o;
        gpufec_decoder_opts_default(&o);
        test_set(&o, "input_type", types[t]);
        gpufec_diag d = {0, ""};
        if (gpufec_decoder_opts_set_text(&o, k->options, c, &d) != GPUFEC_OK) {
            fprintf(stderr, "%s: %s\n", k->options, d.message);
            exit(2);
        }
        o.backend = backend;
        gpufec_decoder* dec = NULL;
        if (gpufec_decoder_create(&dec, c, &o) != GPUFEC_OK)
            break; /* not here (reported by run_case) */
        uint8_t* out = malloc(RULE_FRAMES * info.k);
        int32_t it[RULE_FRAMES];
        uint8_t ok[RULE_FRAMES];
        CHECK(gpufec_decoder_decode_soft(dec, bufs[t], RULE_FRAMES, out, it, ok) == GPUFEC_OK, "%s %s: decode",
              k->code, types[t]);
        CHECK(ok[0] && ok[2] && ok[5], "%s [%s] %s input on %s: a clean frame not decoded (%d %d %d)", k->code,
              k->options, types[t], gpufec_backend_name(backend), ok[0], ok[2], ok[5]);
        CHECK(!ok[1] && !ok[3] && !ok[4], "%s [%s] %s input on %s: an erased frame reported decoded (%d %d %d)",
              k->code, k->options, types[t], gpufec_backend_name(backend), ok[1], ok[3], ok[4]);
        if (t == 0) {
            memcpy(ref, out, RULE_FRAMES * info.k);
            memcpy(ref_it, it, sizeof it);
        } else {
            CHECK(memcmp(ref, out, RULE_FRAMES * info.k) == 0 && memcmp(ref_it, it, sizeof it) == 0,
                  "%s [%s] on %s: %s input decodes differently from the float32 of its values", k->code, k->options,
                  gpufec_backend_name(backend), types[t]);
        }
        /* At int8 storage a frame of values below half a step is what the decoder sees as erased. */
        if (t == 0 && strstr(k->options, "precision=int8")) {
            for (size_t j = 0; j < n; j++)
                f32[j] = x[j] ? -0.01f : 0.01f;
            CHECK(gpufec_decoder_decode_soft(dec, f32, 1, out, it, ok) == GPUFEC_OK && !ok[0],
                  "%s [%s] on %s: a frame below half an int8 step reported decoded", k->code, k->options,
                  gpufec_backend_name(backend));
            for (size_t j = 0; j < n; j++)
                f32[j] = x[j] ? -4.0f : 4.0f;
        }
        free(out);
        gpufec_decoder_destroy(dec);
    }
    gpufec_code_destroy(c);
    free(u), free(x), free(f32), free(f16), free(i8), free(ref);
}

int main(void)
{
    test_rng_init();
    for (size_t i = 0; i < sizeof CASES / sizeof *CASES; i++) {
        run_case(&CASES[i], GPUFEC_BACKEND_CPU);
        front_rules_case(&CASES[i], GPUFEC_BACKEND_CPU);
        if (gpufec_cuda_available()) {
            run_case(&CASES[i], GPUFEC_BACKEND_CUDA);
            front_rules_case(&CASES[i], GPUFEC_BACKEND_CUDA);
        }
    }
    TEST_DONE();
}
