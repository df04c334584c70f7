/* The C API without GNU Radio: encode random bits with a Wi-Fi LDPC code, send them as BPSK over
 * AWGN, decode the LLRs, count the errors.
 *
 * Sign convention: the C API takes LLRs ln(P(bit 0) / P(bit 1)), so a positive value means bit 0.
 * GNU Radio's soft demodulators, and therefore the blocks' default (sign_convention
 * "positive_one"), use the opposite sign; the blocks negate for you, the C API does not.
 *
 * Build against the installed library:
 *   cc -std=c11 -o c_decode examples/c_decode.c $(pkg-config --cflags --libs gpufec) -lm
 * Run: ./c_decode [EbN0_dB] (default 3 dB; exit status 1 if a frame is not decoded at 3 dB or
 * above, where this code leaves none). */
#include <gpufec/gpufec.h>

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

/* A small Gaussian source, so that the example needs nothing beyond C11 and libm. */
static uint64_t rng = 0x9e3779b97f4a7c15ull;
static double uniform(void)
{
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return ((double)(rng >> 11) + 0.5) * 0x1.0p-53;
}
static double gauss(void) { return sqrt(-2.0 * log(uniform())) * cos(6.283185307179586 * uniform()); }

static int fail(const char* what, gpufec_status st, const gpufec_diag* diag)
{
    fprintf(stderr, "c_decode: %s: %s\n", what, diag && diag->message[0] ? diag->message : gpufec_status_str(st));
    return 2;
}

int main(int argc, char** argv)
{
    const double ebn0_db = argc > 1 ? atof(argv[1]) : 3.0;
    const size_t n_frames = 64;

    gpufec_code* code = NULL;
    gpufec_diag diag;
    gpufec_status st = gpufec_code_open(&code, "wifi-648-1_2", &diag);
    if (st)
        return fail("open wifi-648-1_2", st, &diag);
    gpufec_code_info info;
    gpufec_code_get_info(code, &info);

    gpufec_decoder_opts opts;
    gpufec_decoder_opts_default(&opts); /* normalised min-sum, 20 iterations, backend auto */
    gpufec_decoder* dec = NULL;
    if ((st = gpufec_decoder_opts_check(&opts, code, &diag)))
        return fail("decoder options", st, &diag);
    if ((st = gpufec_decoder_create(&dec, code, &opts)))
        return fail("create the decoder", st, NULL);
    gpufec_backend backend;
    gpufec_decoder_backend(dec, &backend);

    uint8_t* info_bits = malloc(n_frames * info.k);
    uint8_t* coded = malloc(n_frames * info.n);
    float* llr = malloc(n_frames * info.n * sizeof *llr);
    uint8_t* decoded = malloc(n_frames * info.k);
    int32_t* iterations = malloc(n_frames * sizeof *iterations);
    uint8_t* converged = malloc(n_frames); /* 1: the frame's parity checks hold */
    if (!info_bits || !coded || !llr || !decoded || !iterations || !converged)
        return fail("memory", GPUFEC_ERR_OUT_OF_MEMORY, NULL);

    for (size_t i = 0; i < n_frames * info.k; i++)
        info_bits[i] = (uint8_t)(uniform() < 0.5);
    if ((st = gpufec_code_encode(code, info_bits, n_frames, coded)))
        return fail("encode", st, NULL);
    /* BPSK: bit 0 -> +1, bit 1 -> -1; noise variance sigma^2 = 1 / (2 R Eb/N0); LLR = 2 y / sigma^2
     * (positive means bit 0: the C API's convention). */
    const double sigma2 = 1.0 / (2.0 * info.rate * pow(10.0, ebn0_db / 10.0));
    for (size_t i = 0; i < n_frames * info.n; i++) {
        const double y = (coded[i] ? -1.0 : 1.0) + sqrt(sigma2) * gauss();
        llr[i] = (float)(2.0 * y / sigma2);
    }
    if ((st = gpufec_decoder_decode(dec, llr, n_frames, decoded, iterations, converged)))
        return fail("decode", st, NULL);

    size_t bit_errors = 0, frame_errors = 0, not_converged = 0;
    long total_iterations = 0;
    for (size_t f = 0; f < n_frames; f++) {
        size_t e = 0;
        for (uint32_t i = 0; i < info.k; i++)
            e += decoded[f * info.k + i] != info_bits[f * info.k + i];
        bit_errors += e;
        frame_errors += e != 0;
        not_converged += !converged[f];
        total_iterations += iterations[f];
    }
    printf("wifi-648-1_2 (N=%u, K=%u), Eb/N0 %.2f dB, backend %s: %zu frames, %zu bit errors, %zu frame errors, "
           "%zu not converged, %.2f iterations per frame\n",
           info.n, info.k, ebn0_db, gpufec_backend_name(backend), n_frames, bit_errors, frame_errors, not_converged,
           (double)total_iterations / (double)n_frames);

    free(info_bits), free(coded), free(llr), free(decoded), free(iterations), free(converged);
    gpufec_decoder_destroy(dec);
    gpufec_code_destroy(code);
    return ebn0_db >= 3.0 && (frame_errors || not_converged) ? 1 : 0;
}
