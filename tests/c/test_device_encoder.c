/* The device encoder (gpufec_device_encoder_*, issue 22): its description of each code's encoder
 * (lib/ldpc/ldpc_enc_desc.c), run on the host, equals gpufec_code_encode on fresh random frames for
 * every built-in binary LDPC code that has one, shortened codes and a custom transmission with
 * repetition; on a machine with a GPU the kernels give the same bytes. Codes without a structured
 * encoder and other families are refused with a reason. */
#include "test_util.h"

#include "ldpc_enc_desc.h"

static int compare(gpufec_code* c, const char* name, size_t frames, gpufec_device_encoder* gpu, int* gpu_compared)
{
    gpufec_code_info ci;
    gpufec_code_get_info(c, &ci);
    uint8_t* u = malloc(frames * ci.k + 1);
    uint8_t* want = malloc(frames * ci.n + 1);
    uint8_t* got = malloc(frames * ci.n + 1);
    for (size_t i = 0; i < frames * ci.k; i++)
        u[i] = (uint8_t)(test_rand() & 1);
    if (frames > 1) /* a nonzero byte is a one */
        u[ci.k] |= 0x80;
    CHECK(gpufec_code_encode(c, u, frames, want) == GPUFEC_OK, "%s: host encoder", name);
    char variant[64] = "";
    gpufec_status st = ldpc_enc_desc_run_host(c, u, frames, got, variant, sizeof variant);
    int same = st == GPUFEC_OK && memcmp(want, got, frames * ci.n) == 0;
    CHECK(same, "%s: the description (%s) differs from the code's encoder (status %d)", name, variant, (int)st);
    if (gpu) {
        memset(got, 2, frames * ci.n);
        st = gpufec_device_encoder_encode_host(gpu, u, frames, got);
        const int g = st == GPUFEC_OK && memcmp(want, got, frames * ci.n) == 0;
        CHECK(g, "%s: the GPU encoder differs from the host's (status %d)", name, (int)st);
        *gpu_compared += g;
    }
    free(u), free(want), free(got);
    return same;
}

int main(void)
{
    test_rng_init();
    int compared = 0, refused = 0, gpu_compared = 0, gpu_present = 1;
    int staircase = 0, qc = 0;
    const char* extra[] = {"5gnr-bg1-z384:k=8000", "5gnr-bg2-z52:k=400", "dvbs2-short-1_2:k=7000", NULL};
    for (size_t i = 0; i < gpufec_code_builtin_count() + 3; i++) {
        const char* name = i < gpufec_code_builtin_count() ? gpufec_code_builtin_name(i)
                                                           : extra[i - gpufec_code_builtin_count()];
        gpufec_family fam = GPUFEC_FAMILY_LDPC;
        if (i < gpufec_code_builtin_count())
            gpufec_code_builtin_family(i, &fam);
        gpufec_code* c = NULL;
        gpufec_diag d = {0, ""};
        if (gpufec_code_open(&c, name, &d) != GPUFEC_OK) {
            CHECK(0, "%s: %s", name, d.message);
            continue;
        }
        gpufec_device_encoder* gpu = NULL;
        d.message[0] = 0;
        gpufec_status gst = gpu_present ? gpufec_device_encoder_create(&gpu, c, 0, &d) : GPUFEC_ERR_NO_DEVICE;
        if (gst == GPUFEC_ERR_NO_DEVICE && gpu_present) {
            printf("no GPU encoder here (%s): the descriptions are tested on the host only\n", d.message);
            gpu_present = 0;
        }
        char variant[64] = "";
        gpufec_status st = fam == GPUFEC_FAMILY_LDPC ? ldpc_enc_desc_run_host(c, NULL, 0, NULL, variant, sizeof variant)
                                                     : GPUFEC_ERR_UNSUPPORTED;
        if (st == GPUFEC_ERR_UNSUPPORTED) {
            refused++;
            CHECK(!gpu_present || (gst == GPUFEC_ERR_UNSUPPORTED && d.message[0]), "%s: GPU encoder status %d, '%s'",
                  name, (int)gst, d.message);
        } else {
            CHECK(st == GPUFEC_OK, "%s: status %d", name, (int)st);
            CHECK(!gpu_present || gst == GPUFEC_OK, "%s: no GPU encoder (%d: %s)", name, (int)gst, d.message);
            /* a few frames of every code; many of the long ones the simulator uses */
            const size_t frames = strstr(name, "z384") || strstr(name, "normal-1_2") || i >= gpufec_code_builtin_count() ? 300 : 3;
            compared += compare(c, name, frames, gpu, &gpu_compared);
            staircase += strcmp(variant, "staircase") == 0;
            qc += strcmp(variant, "qc dual-diagonal") == 0;
            if (gpu) {
                char v[64];
                gpufec_device_encoder_variant(gpu, v, sizeof v);
                CHECK(strstr(v, variant) != NULL, "%s: GPU variant '%s', host '%s'", name, v, variant);
            }
        }
        gpufec_device_encoder_destroy(gpu);
        gpufec_code_destroy(c);
    }
    /* A custom transmission: every position twice, some punctured, in another order. */
    gpufec_code* c = NULL;
    if (gpufec_code_open(&c, "wifi-648-1_2", NULL) == GPUFEC_OK) {
        uint32_t pos[1200];
        for (uint32_t t = 0; t < 1200; t++)
            pos[t] = (uint32_t)((t * 7u) % 600u);
        CHECK(gpufec_code_set_transmission(c, pos, 1200, NULL) == GPUFEC_OK, "custom transmission");
        gpufec_device_encoder* gpu = NULL;
        if (gpu_present)
            CHECK(gpufec_device_encoder_create(&gpu, c, 0, NULL) == GPUFEC_OK, "GPU encoder, custom transmission");
        compared += compare(c, "wifi-648-1_2 repeated", 50, gpu, &gpu_compared);
        gpufec_device_encoder_destroy(gpu);
        gpufec_code_destroy(c);
    }
    CHECK(gpufec_device_encoder_create(NULL, NULL, 0, NULL) == GPUFEC_ERR_INVALID_ARGUMENT, "NULL arguments");
    printf("device encoder descriptions: %d codes equal the host encoder (%d staircase, %d QC), %d refused; GPU: %d "
           "compared\n",
           compared, staircase, qc, refused, gpu_compared);
    CHECK(staircase >= 21 && qc >= 100 && refused > 0, "too few codes compared (%d staircase, %d QC)", staircase, qc);
    CHECK(!gpu_present || gpu_compared == compared, "GPU: %d of %d compared", gpu_compared, compared);
    TEST_DONE();
}
