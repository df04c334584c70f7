/* A C program using the installed libgpufec, built with pkg-config and with CMake's
 * find_package(gpufec) by tests/installed/check.sh: encode, corrupt, decode, compare. */
#include <gpufec/gpufec.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(void)
{
    gpufec_code* code = NULL;
    gpufec_decoder* dec = NULL;
    gpufec_diag diag;
    if (gpufec_code_open(&code, "wifi-648-1_2", &diag) != GPUFEC_OK) {
        fprintf(stderr, "open: %s\n", diag.message);
        return 1;
    }
    gpufec_code_info info;
    gpufec_code_get_info(code, &info);
    gpufec_decoder_opts opts;
    gpufec_decoder_opts_default(&opts);
    opts.backend = GPUFEC_BACKEND_CPU;
    if (gpufec_decoder_create(&dec, code, &opts) != GPUFEC_OK)
        return 1;
    uint8_t* u = malloc(info.k);
    uint8_t* x = malloc(info.n);
    uint8_t* back = malloc(info.k);
    float* llr = malloc(info.n * sizeof *llr);
    srand(7);
    for (uint32_t i = 0; i < info.k; i++)
        u[i] = (uint8_t)(rand() & 1);
    gpufec_code_encode(code, u, 1, x);
    for (uint32_t j = 0; j < info.n; j++)
        llr[j] = x[j] ? -3.0f : 3.0f;
    llr[5] = -llr[5]; /* two wrong signs */
    llr[100] = -llr[100];
    uint8_t ok = 0;
    int32_t it = 0;
    gpufec_status st = gpufec_decoder_decode(dec, llr, 1, back, &it, &ok);
    int good = st == GPUFEC_OK && ok && memcmp(back, u, info.k) == 0;
    printf("gpufec %s: %s after %d iterations\n", gpufec_version(), good ? "decoded" : "FAILED", it);
    free(u);
    free(x);
    free(back);
    free(llr);
    gpufec_decoder_destroy(dec);
    gpufec_code_destroy(code);
    return good ? 0 : 1;
}
