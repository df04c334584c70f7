/* What a decode call writes: the packed outputs (GPUFEC_OUTPUT_*_PACKED) are the unpacked bits
 * packed here again (eight per byte, first bit in the most significant, pad bits 0) with the
 * same converged flags, for every family, on the CPU and (where present) the GPU, whose engine
 * packs on the device; and a code's CRC is judged the same on both: frames encoded with their
 * CRC decode as converged, valid codewords of the same code whose CRC bits are random (the code
 * without its CRC encodes them) decode but are reported not converged. */
#include "test_util.h"

/* The reference packing, written apart from the library's. */
static void pack_ref(const uint8_t* bits, uint32_t n, uint8_t* out)
{
    memset(out, 0, (n + 7) / 8);
    for (uint32_t t = 0; t < n; t++)
        if (bits[t])
            out[t / 8] |= (uint8_t)(0x80u >> (t % 8));
}

static gpufec_decoder* make_batch(const gpufec_code* c, gpufec_backend b, gpufec_output out, uint32_t max_batch)
{
    gpufec_decoder_opts o;
    gpufec_decoder_opts_default(&o);
    o.backend = b;
    o.output = out;
    o.max_batch = max_batch;
    gpufec_decoder* d = NULL;
    CHECK(gpufec_decoder_create(&d, c, &o) == GPUFEC_OK, "create (%s, output %s)", gpufec_backend_name(b),
          gpufec_output_name(out));
    return d;
}

static gpufec_decoder* make(const gpufec_code* c, gpufec_backend b, gpufec_output out)
{
    return make_batch(c, b, out, 0);
}

static uint32_t out_len(const gpufec_decoder* d)
{
    uint32_t n = 0, k = 0;
    gpufec_decoder_frame_sizes(d, &n, &k);
    return k;
}

/* High-SNR BPSK soft bits of n_frames codewords (n each). */
static float* noisy(const uint8_t* x, size_t count)
{
    float* y = malloc(count * sizeof *y);
    for (size_t i = 0; i < count; i++)
        y[i] = (float)(2.0 * ((x[i] ? -1.0 : 1.0) + 0.4 * test_gauss()) / 0.16);
    return y;
}

/* Frames of `name`: the first half encoded with its CRC, the rest (when `plain`, the code
 * without its CRC) with random CRC bits. Each output of `outs` and its packed form, on `b`. */
static void case_run(const char* name, const char* plain, const gpufec_output* outs, int n_outs, gpufec_backend b)
{
    const size_t nf = 24, half = plain ? nf / 2 : nf;
    gpufec_code* c = open_test_code(name);
    gpufec_code_info ci;
    gpufec_code_get_info(c, &ci);
    gpufec_decoder* info_dec = make(c, GPUFEC_BACKEND_CPU, GPUFEC_OUTPUT_INFO);
    if (!info_dec) {
        gpufec_code_destroy(c);
        return;
    }
    const uint32_t k = out_len(info_dec), n = ci.n;
    gpufec_decoder_destroy(info_dec);
    uint8_t* u = malloc(nf * (k + 32));
    uint8_t* x = malloc(nf * n);
    for (size_t i = 0; i < nf * (k + 32); i++)
        u[i] = (uint8_t)(test_rand() & 1);
    for (size_t f = 0; f < half; f++)
        gpufec_code_encode(c, u + f * (k + 32), 1, x + f * n);
    if (plain) {
        gpufec_code* p = open_test_code(plain);
        gpufec_decoder* pd = make(p, GPUFEC_BACKEND_CPU, GPUFEC_OUTPUT_INFO);
        const uint32_t kp = pd ? out_len(pd) : 0;
        gpufec_decoder_destroy(pd);
        CHECK(kp > k, "%s: %u information bits, %s %u", plain, kp, name, k);
        if (kp > k && kp <= k + 32)
            for (size_t f = half; f < nf; f++) /* k data bits, then what stands where the CRC goes */
                gpufec_code_encode(p, u + f * (k + 32), 1, x + f * n);
        gpufec_code_destroy(p);
    }
    float* y = noisy(x, nf * n);
    for (int o = 0; o < n_outs; o++) {
        const gpufec_output packed_out = (gpufec_output)(outs[o] + GPUFEC_OUTPUT_INFO_PACKED);
        gpufec_decoder* d = make(c, b, outs[o]);
        /* the packed decoder in chunks of 7 frames: the GPU's chunks, the last one partial, each
         * finished on its own */
        gpufec_decoder* dp = make_batch(c, b, packed_out, 7);
        if (!d || !dp) {
            gpufec_decoder_destroy(d);
            gpufec_decoder_destroy(dp);
            continue;
        }
        const uint32_t bits = out_len(d), bytes = out_len(dp);
        CHECK(bytes == (bits + 7) / 8, "%s %s: %u bytes per frame for %u bits", name, gpufec_output_name(packed_out),
              bytes, bits);
        uint8_t* h = malloc(nf * bits);
        uint8_t* hp = malloc(nf * bytes + 1);
        uint8_t* ref = malloc(bytes + 1);
        uint8_t ok[24], okp[24];
        int32_t it[24], itp[24];
        hp[nf * bytes] = 0xA5; /* nothing written past the frames */
        CHECK(gpufec_decoder_decode(d, y, nf, h, it, ok) == GPUFEC_OK, "%s: decode", name);
        CHECK(gpufec_decoder_decode(dp, y, nf, hp, itp, okp) == GPUFEC_OK, "%s: decode packed", name);
        size_t differ = 0, flags = 0, crc_wrong = 0;
        for (size_t f = 0; f < nf; f++) {
            pack_ref(h + f * bits, bits, ref);
            differ += memcmp(ref, hp + f * bytes, bytes) != 0;
            flags += ok[f] != okp[f] || it[f] != itp[f];
            /* the CRC's verdict: converged exactly on the frames that carry theirs */
            crc_wrong += plain && ok[f] != (f < half);
            if (outs[o] == GPUFEC_OUTPUT_INFO && f < half)
                CHECK(memcmp(h + f * bits, u + f * (k + 32), k) == 0, "%s (%s): frame %zu decoded wrong", name,
                      gpufec_backend_name(b), f);
        }
        CHECK(hp[nf * bytes] == 0xA5, "%s %s: written past the last frame", name, gpufec_output_name(packed_out));
        CHECK(differ == 0 && flags == 0, "%s %s (%s): %zu of %zu frames differ from the unpacked bits packed, %zu flags",
              name, gpufec_output_name(packed_out), gpufec_backend_name(b), differ, nf, flags);
        CHECK(crc_wrong == 0, "%s %s (%s): %zu of %zu frames converged against their CRC (first %zu carry it)", name,
              gpufec_output_name(outs[o]), gpufec_backend_name(b), crc_wrong, nf, half);
        free(h);
        free(hp);
        free(ref);
        gpufec_decoder_destroy(d);
        gpufec_decoder_destroy(dp);
    }
    free(u);
    free(x);
    free(y);
    gpufec_code_destroy(c);
}

/* The asynchronous call on the GPU finishes its output on the device too. */
static void async_case(const char* name)
{
    gpufec_code* c = open_test_code(name);
    gpufec_code_info ci;
    gpufec_code_get_info(c, &ci);
    gpufec_decoder* d = make(c, GPUFEC_BACKEND_CUDA, GPUFEC_OUTPUT_INFO);
    gpufec_decoder* dp = make(c, GPUFEC_BACKEND_CUDA, GPUFEC_OUTPUT_INFO_PACKED);
    if (d && dp) {
        const size_t nf = 40;
        const uint32_t bits = out_len(d), bytes = out_len(dp);
        uint8_t* u = malloc(nf * bits);
        uint8_t* x = malloc(nf * ci.n);
        for (size_t i = 0; i < nf * bits; i++)
            u[i] = (uint8_t)(test_rand() & 1);
        gpufec_code_encode(c, u, nf, x);
        float* y = noisy(x, nf * ci.n);
        uint8_t* h = malloc(nf * bits);
        uint8_t* hp = malloc(nf * bytes);
        uint8_t* ref = malloc(bytes);
        uint8_t ok[40];
        CHECK(gpufec_decoder_decode(d, y, nf, h, NULL, NULL) == GPUFEC_OK, "%s: decode", name);
        CHECK(gpufec_decoder_decode_async(dp, y, nf, hp, NULL, ok, NULL) == GPUFEC_OK &&
                  gpufec_decoder_synchronize(dp) == GPUFEC_OK,
              "%s: asynchronous decode", name);
        size_t differ = 0, conv = 0;
        for (size_t f = 0; f < nf; f++) {
            pack_ref(h + f * bits, bits, ref);
            differ += memcmp(ref, hp + f * bytes, bytes) != 0;
            conv += ok[f];
        }
        CHECK(differ == 0 && conv == nf, "%s asynchronous, packed: %zu frames differ, %zu of %zu converged", name,
              differ, conv, nf);
        free(u);
        free(x);
        free(y);
        free(h);
        free(hp);
        free(ref);
    }
    gpufec_decoder_destroy(d);
    gpufec_decoder_destroy(dp);
    gpufec_code_destroy(c);
}

int main(void)
{
    test_rng_init();
    const gpufec_output all[] = {GPUFEC_OUTPUT_INFO, GPUFEC_OUTPUT_CODEWORD, GPUFEC_OUTPUT_FULL_CODEWORD};
    const gpufec_output info[] = {GPUFEC_OUTPUT_INFO};
    for (int b = 0; b < 2; b++) {
        const gpufec_backend be = b ? GPUFEC_BACKEND_CUDA : GPUFEC_BACKEND_CPU;
        if (b && !gpufec_cuda_available())
            break;
        /* CRC24B on rate-matched 5G NR blocks: punctured, and repeated (E > N) */
        case_run("5gnr-bg1:k=3000:e=4200:qm=4:crc=24b", "5gnr-bg1:k=3000:e=4200:qm=4", all, 3, be);
        case_run("5gnr-bg2:k=1000:e=5000:qm=2:crc=24b", "5gnr-bg2:k=1000:e=5000:qm=2", all, 2, be);
        case_run("lte-turbo-1024:crc=24a", "lte-turbo-1024", all, 2, be);
        /* no CRC: only the packing */
        case_run("wifi-648-1_2", NULL, all, 3, be);
        case_run("5gnr-bg1-z384:k=8448:e=10752:qm=2", NULL, all, 2, be);
        case_run("conv-k7-171-133:k=100", NULL, all, 2, be);
        case_run("nb-gf16-504", NULL, info, 1, be);
    }
    if (gpufec_cuda_available()) {
        async_case("wifi-648-1_2");
        async_case("5gnr-bg1:k=3000:e=4200:qm=4:crc=24b");
    }
    /* the names, by the option table */
    gpufec_output o;
    CHECK(gpufec_output_from_name("info-packed", &o) == GPUFEC_OK && o == GPUFEC_OUTPUT_INFO_PACKED, "info-packed");
    CHECK(strcmp(gpufec_output_name(GPUFEC_OUTPUT_FULL_CODEWORD_PACKED), "full-codeword-packed") == 0,
          "full-codeword-packed");
    TEST_DONE();
}
