/* LTE turbo FER against a peer's measured curve (../shared/reference/aff3ct/
 * Turbo_N4096_K2048_BCJR_i8_ref_LTE.txt): K = 2048 with CRC24A (2024 information bits), the
 * parity streams punctured to rate 1/2 by the pattern {11, 10, 01} (systematic kept, parity 1
 * at even stages, parity 2 at odd ones, the 12 tail bits kept: N = 4108), BPSK over AWGN with
 * Eb/N0 per information bit, Max-Log-MAP, 8 iterations, early stop on the CRC. The reference
 * FER at 1.1 dB is 0.157, at 1.3 dB 0.0158; ours must be within a factor of 2. Fresh random data
 * every run; the frame counts give about 60-100 errors per point. */
#include "test_util.h"

static const double POINTS[][3] = {{1.1, 0.157, 600}, {1.3, 0.0158, 4000}}; /* Eb/N0, FER, frames */

int main(void)
{
    test_rng_init();
    gpufec_code* c = open_test_code("lte-turbo-2048:crc=24a");
    const uint32_t K = 2048;
    uint32_t* pos = malloc(4200 * sizeof *pos);
    uint32_t n = 0;
    for (uint32_t i = 0; i < K; i++) {
        pos[n++] = 3 * i;
        pos[n++] = 3 * i + (i % 2 == 0 ? 1 : 2);
    }
    for (uint32_t t = 0; t < 12; t++)
        pos[n++] = 3 * K + t;
    gpufec_diag d = {0, ""};
    CHECK(gpufec_code_set_transmission(c, pos, n, &d) == GPUFEC_OK, "puncturing: %s", d.message);
    gpufec_code_info info;
    gpufec_code_get_info(c, &info);
    CHECK(info.n == 4108 && info.k == 2024, "N %u K %u", info.n, info.k);
    gpufec_decoder_opts o;
    gpufec_decoder_opts_default(&o);
    o.backend = GPUFEC_BACKEND_CPU;
    test_set(&o, "turbo_algorithm", "maxlogmap");
    o.max_iterations = 8;
    gpufec_decoder* dec = NULL;
    CHECK(gpufec_decoder_create(&dec, c, &o) == GPUFEC_OK, "create");
    const size_t batch = 100;
    uint8_t* u = malloc(batch * info.k);
    uint8_t* x = malloc(batch * info.n);
    float* llr = malloc(batch * info.n * sizeof *llr);
    uint8_t* out = malloc(batch * info.k);
    for (size_t p = 0; p < sizeof POINTS / sizeof *POINTS; p++) {
        const double ebn0 = POINTS[p][0], ref = POINTS[p][1];
        const size_t frames = (size_t)POINTS[p][2];
        size_t errors = 0;
        for (size_t done = 0; done < frames; done += batch) {
            test_random_codewords(c, batch, u, x);
            test_awgn_llr(x, batch * info.n, info.rate, ebn0, llr);
            gpufec_decoder_decode(dec, llr, batch, out, NULL, NULL);
            for (size_t f = 0; f < batch; f++)
                errors += memcmp(out + f * info.k, u + f * info.k, info.k) != 0;
        }
        const double fer = (double)errors / (double)frames;
        printf("Eb/N0 %.1f dB: FER %.4f (%zu / %zu), reference %.4f, ratio %.2f\n", ebn0, fer, errors, frames, ref,
               fer / ref);
        CHECK(fer <= 2.0 * ref && fer >= 0.5 * ref, "Eb/N0 %.1f dB: FER %.4f outside a factor 2 of %.4f", ebn0, fer, ref);
    }
    gpufec_decoder_destroy(dec);
    gpufec_code_destroy(c);
    free(pos), free(u), free(x), free(llr), free(out);
    TEST_DONE();
}
