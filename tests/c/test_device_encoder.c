/* The device encoders (gpufec_device_encoder_*, issue 22). Without a GPU: the LDPC encoders'
 * description (lib/ldpc/ldpc_enc_desc.c), run on the host, equals gpufec_code_encode on fresh
 * random frames for every built-in binary LDPC code, shortened codes and a custom transmission
 * with repetition. With a GPU: every built-in code of every family that encodes, the same on the
 * device. Codes that cannot encode are refused with a reason. */
#include "test_util.h"

#include "ldpc_enc_desc.h"

/* Random frames encoded by the host's encoder, then by the description (LDPC) and the GPU. */
static void compare(gpufec_code* c, const char* name, size_t frames, int host_desc, gpufec_device_encoder* gpu,
                    int* desc_same, int* gpu_same)
{
    gpufec_code_info ci;
    gpufec_code_get_info(c, &ci);
    uint8_t* u = malloc(frames * ci.k + 1);
    uint8_t* want = malloc(frames * ci.n + 1);
    uint8_t* got = malloc(frames * ci.n + 1);
    for (size_t i = 0; i < frames * ci.k; i++)
        u[i] = (uint8_t)(test_rand() & 1);
    if (frames > 1 && ci.k) /* a nonzero byte is a one */
        u[ci.k] = u[ci.k] ? 0x80 : 0;
    CHECK(gpufec_code_encode(c, u, frames, want) == GPUFEC_OK, "%s: host encoder", name);
    if (host_desc) {
        char variant[64] = "";
        gpufec_status st = ldpc_enc_desc_run_host(c, u, frames, got, variant, sizeof variant);
        const int same = st == GPUFEC_OK && memcmp(want, got, frames * ci.n) == 0;
        CHECK(same, "%s: the description (%s) differs from the code's encoder (status %d)", name, variant, (int)st);
        *desc_same += same;
    }
    if (gpu) {
        memset(got, 2, frames * ci.n);
        gpufec_status st = gpufec_device_encoder_encode_host(gpu, u, frames, got);
        const int same = st == GPUFEC_OK && memcmp(want, got, frames * ci.n) == 0;
        char v[64] = "";
        gpufec_device_encoder_variant(gpu, v, sizeof v);
        CHECK(same, "%s: the GPU encoder (%s) differs from the host's (status %d)", name, v, (int)st);
        *gpu_same += same;
    }
    free(u), free(want), free(got);
}

int main(void)
{
    test_rng_init();
    int desc_same = 0, gpu_same = 0, gpu_made = 0, encodable = 0, refused = 0, gpu_present = 1;
    int kinds[4] = {0, 0, 0, 0};
    const char* extra[] = {"5gnr-bg1-z384:k=8000", "5gnr-bg2-z52:k=400", "dvbs2-short-1_2:k=7000",
                           "lte-turbo-6144:crc=24a", "lte-turbo-1024:crc=24b:e=3000:rv=2",
                           "lte-turbo-40:crc=24a:e=200:rv=1", "lte-turbo-4160:crc=24b:e=20000:rv=3", NULL};
    const size_t n_extra = sizeof extra / sizeof *extra - 1;
    const size_t builtins = gpufec_code_builtin_count();
    for (size_t i = 0; i < builtins + n_extra; i++) {
        const char* name = i < builtins ? gpufec_code_builtin_name(i) : extra[i - builtins];
        gpufec_code* c = NULL;
        gpufec_diag d = {0, ""};
        if (gpufec_code_open(&c, name, &d) != GPUFEC_OK) {
            CHECK(0, "%s: %s", name, d.message);
            continue;
        }
        gpufec_code_info ci;
        gpufec_code_get_info(c, &ci);
        uint8_t* probe_u = calloc(ci.k + 1, 1);
        uint8_t* probe_x = malloc(ci.n + 1);
        const int encodes = gpufec_code_encode(c, probe_u, 1, probe_x) == GPUFEC_OK;
        free(probe_u), free(probe_x);
        char variant[64] = "";
        const int host_desc = ci.family == GPUFEC_FAMILY_LDPC &&
                              ldpc_enc_desc_run_host(c, NULL, 0, NULL, variant, sizeof variant) == GPUFEC_OK;
        kinds[0] += strcmp(variant, "staircase") == 0;
        kinds[1] += strcmp(variant, "qc dual-diagonal") == 0;
        kinds[2] += strcmp(variant, "dense generator") == 0;
        CHECK(host_desc || ci.family != GPUFEC_FAMILY_LDPC || !encodes, "%s: an LDPC code without a description", name);
        gpufec_device_encoder* gpu = NULL;
        d.message[0] = 0;
        gpufec_status gst = gpu_present ? gpufec_device_encoder_create(&gpu, c, 0, &d) : GPUFEC_ERR_NO_DEVICE;
        if (gst == GPUFEC_ERR_NO_DEVICE && gpu_present) {
            printf("no GPU encoder here (%s): the LDPC descriptions are tested on the host only\n", d.message);
            gpu_present = 0;
        }
        if (gpu_present && encodes)
            CHECK(gst == GPUFEC_OK, "%s: no GPU encoder (%d: %s)", name, (int)gst, d.message);
        if (gpu_present && !encodes)
            CHECK(gst == GPUFEC_ERR_UNSUPPORTED && d.message[0], "%s: GPU encoder status %d for a code that cannot "
                  "encode", name, (int)gst);
        if (encodes) {
            encodable++;
            gpu_made += gpu != NULL;
            /* a few frames of every code; many of those the simulator uses most */
            const size_t frames =
                strstr(name, "z384") || strstr(name, "normal-1_2") || strstr(name, "6144") || i >= builtins ? 300 : 3;
            compare(c, name, frames, host_desc, gpu, &desc_same, &gpu_same);
            if (gpu && host_desc) {
                char v[64];
                gpufec_device_encoder_variant(gpu, v, sizeof v);
                CHECK(strstr(v, variant) != NULL, "%s: GPU variant '%s', host '%s'", name, v, variant);
            }
        } else {
            refused++;
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
        encodable++;
        gpu_made += gpu != NULL;
        compare(c, "wifi-648-1_2 repeated", 50, 1, gpu, &desc_same, &gpu_same);
        gpufec_device_encoder_destroy(gpu);
        gpufec_code_destroy(c);
    }
    /* 5G NR rate matched (pruned rows, filler bits, repetition, bit interleaving); with a CRC the
     * device encoder declines (the host appends it). */
    const char* const nr[] = {"5gnr-bg1:k=3000:e=4200:rv=2:qm=4", "5gnr-bg2:k=900:e=3996:rv=3:qm=6",
                              "5gnr-bg1-z384:k=8448:e=10752:qm=2"};
    for (size_t i = 0; i < sizeof nr / sizeof *nr; i++) {
        gpufec_code* r = NULL;
        CHECK(gpufec_code_open(&r, nr[i], NULL) == GPUFEC_OK, "%s", nr[i]);
        gpufec_device_encoder* gpu = NULL;
        if (gpu_present)
            CHECK(gpufec_device_encoder_create(&gpu, r, 0, NULL) == GPUFEC_OK, "GPU encoder, %s", nr[i]);
        encodable++;
        gpu_made += gpu != NULL;
        compare(r, nr[i], 20, 1, gpu, &desc_same, &gpu_same);
        gpufec_device_encoder_destroy(gpu);
        gpufec_code_destroy(r);
    }
    {
        gpufec_code* r = NULL;
        gpufec_device_encoder* gpu = NULL;
        gpufec_diag d = {0, ""};
        CHECK(gpufec_code_open(&r, "5gnr-bg1:k=3000:e=4200:crc=24b", NULL) == GPUFEC_OK, "crc code");
        const gpufec_status st = gpufec_device_encoder_create(&gpu, r, 0, &d);
        CHECK(st == GPUFEC_ERR_UNSUPPORTED || st == GPUFEC_ERR_NO_DEVICE, "crc code on the device encoder: %d", (int)st);
        gpufec_device_encoder_destroy(gpu);
        gpufec_code_destroy(r);
    }
    CHECK(gpufec_device_encoder_create(NULL, NULL, 0, NULL) == GPUFEC_ERR_INVALID_ARGUMENT, "NULL arguments");
    printf("LDPC descriptions on the host: %d equal the code's encoder (%d staircase, %d QC, %d dense); GPU: %d of %d "
           "codes that encode compared equal; %d codes cannot encode\n",
           desc_same, kinds[0], kinds[1], kinds[2], gpu_same, encodable, refused);
    CHECK(kinds[0] >= 21 && kinds[1] >= 200 && kinds[2] >= 5, "too few codes compared (%d staircase, %d QC, %d dense)",
          kinds[0], kinds[1], kinds[2]);
    CHECK(!gpu_present || (gpu_made == encodable && gpu_same == encodable), "GPU: %d of %d made, %d equal", gpu_made,
          encodable, gpu_same);
    TEST_DONE();
}
