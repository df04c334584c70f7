/* CUDA backend vs the CPU reference on fresh random noisy frames. Exits 77 (ctest: skipped) when
 * no GPU is usable. Min-sum family: identical hard decisions and iteration counts (the same
 * float operations in the same order); SPA: within a small tolerance (device tanhf/atanhf). */
#include "test_util.h"

static void compare(const char* name, gpufec_algorithm alg, double ebn0, size_t frames)
{
    gpufec_code* c = open_test_code(name);
    gpufec_code_info info;
    gpufec_code_get_info(c, &info);
    uint8_t* u = malloc(frames * info.k);
    uint8_t* x = malloc(frames * info.n);
    float* llr = malloc(frames * info.n * sizeof *llr);
    uint8_t *a = malloc(frames * info.n), *b = malloc(frames * info.n);
    int32_t *ia = malloc(frames * 4), *ib = malloc(frames * 4);
    uint8_t *oa = malloc(frames), *ob = malloc(frames);
    for (size_t i = 0; i < frames * info.k; i++)
        u[i] = (uint8_t)(test_rand() & 1);
    gpufec_code_encode(c, u, frames, x);
    double sigma2 = 1.0 / (2.0 * info.rate * pow(10.0, ebn0 / 10.0));
    for (size_t i = 0; i < frames * info.n; i++)
        llr[i] = (float)(2.0 * ((x[i] ? -1.0 : 1.0) + sqrt(sigma2) * test_gauss()) / sigma2);
    llr[3] = NAN; /* the sanitising rule must match too */

    gpufec_decoder_opts o;
    gpufec_decoder_opts_default(&o);
    o.algorithm = alg;
    o.schedule = GPUFEC_SCHEDULE_FLOODING; /* the CUDA backend's schedule so far */
    o.max_iterations = 25;
    o.output = GPUFEC_OUTPUT_CODEWORD;
    gpufec_decoder *cpu = NULL, *gpu = NULL;
    o.backend = GPUFEC_BACKEND_CPU;
    CHECK(gpufec_decoder_create(&cpu, c, &o) == GPUFEC_OK, "cpu create");
    o.backend = GPUFEC_BACKEND_CUDA;
    o.max_batch = 96; /* several launches, last one partial */
    CHECK(gpufec_decoder_create(&gpu, c, &o) == GPUFEC_OK, "cuda create");
    CHECK(gpufec_decoder_decode(cpu, llr, frames, a, ia, oa) == GPUFEC_OK, "cpu decode");
    CHECK(gpufec_decoder_decode(gpu, llr, frames, b, ib, ob) == GPUFEC_OK, "cuda decode");
    size_t bit_diff = 0, frame_diff = 0, it_diff = 0;
    for (size_t f = 0; f < frames; f++) {
        size_t d = 0;
        for (uint32_t j = 0; j < info.n; j++)
            d += a[f * info.n + j] != b[f * info.n + j];
        bit_diff += d;
        frame_diff += d != 0 || oa[f] != ob[f];
        it_diff += ia[f] != ib[f];
    }
    const char* an = gpufec_algorithm_name(alg);
    printf("%s %s %.1f dB: %zu frames, %zu differ, %zu iteration counts differ\n", name, an, ebn0,
           frames, frame_diff, it_diff);
    if (alg == GPUFEC_ALG_SPA)
        CHECK(frame_diff * 50 <= frames, "%s/%s: %zu of %zu frames differ", name, an, frame_diff, frames);
    else
        CHECK(frame_diff * 200 <= frames, "%s/%s: %zu of %zu frames differ (ties only)", name, an, frame_diff, frames);
    gpufec_decoder_destroy(cpu);
    gpufec_decoder_destroy(gpu);
    free(u); free(x); free(llr); free(a); free(b); free(ia); free(ib); free(oa); free(ob);
    gpufec_code_destroy(c);
}

int main(void)
{
    if (!gpufec_cuda_available()) {
        printf("no usable CUDA GPU: skipped\n");
        return 77;
    }
    test_rng_init();
    const gpufec_algorithm algs[] = {GPUFEC_ALG_SPA, GPUFEC_ALG_MS, GPUFEC_ALG_NMS, GPUFEC_ALG_OMS};
    /* GPUFEC_QUICK: a short run of every kernel, for compute-sanitizer. */
    const int quick = getenv("GPUFEC_QUICK") != NULL;
    for (int i = 0; i < 4; i++) {
        if (quick) {
            compare("wifi-648-1_2", algs[i], 2.0, 100);
            continue;
        }
        compare("mackay-1008-504", algs[i], 2.0, 400);
        compare("wifi-1944-5_6", algs[i], 3.5, 300);
        compare("ccsds_c2_8176_7154.alist", algs[i], 3.8, 100);
    }
    TEST_DONE();
}
