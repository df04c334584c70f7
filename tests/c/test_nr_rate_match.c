/* 5G NR rate matching against TS 38.212 5.4.2 written again here, from the text, on other
 * data: the codeword of the mother code (every bit but the first 2Z, filler bits left out) is
 * put back into the circular buffer with its filler bits marked, then bit selection and bit
 * interleaving run as the standard states them. The rate-matched code's encoder must emit the
 * same bits, for BG1 and BG2, every rv, every Qm, with and without filler bits, E below and
 * above the buffer, a limited buffer (Ncb < N), and with rows pruned or not. Then decoding:
 * a rate-matched block decodes, and pruning rows changes no decision (early termination off). */
#include "test_util.h"

enum { FILLER = 2 }; /* a buffer entry that is a filler bit (the standard's <NULL>) */

/* Table 5.4.2.1-2, case by case as printed. */
static uint32_t ref_k0(uint32_t bg, uint32_t rv, uint32_t ncb, uint32_t z)
{
    if (rv == 0)
        return 0;
    const double n = bg == 1 ? 66.0 : 50.0;
    const double f = bg == 1 ? (rv == 1 ? 17.0 : rv == 2 ? 33.0 : 56.0) : (rv == 1 ? 13.0 : rv == 2 ? 25.0 : 43.0);
    return (uint32_t)floor(f * ncb / (n * z)) * z;
}

/* x: the mother code's transmitted bits (d without filler, in order). out: E bits. */
static void ref_rate_match(uint32_t bg, uint32_t z, uint32_t kprime, uint32_t ncb, uint32_t rv, uint32_t qm,
                           uint32_t E, const uint8_t* x, uint8_t* out)
{
    const uint32_t K = (bg == 1 ? 22 : 10) * z, N = (bg == 1 ? 66 : 50) * z;
    uint8_t* d = malloc(N);
    for (uint32_t k = 0, t = 0; k < N; k++)
        d[k] = (k >= kprime - 2 * z && k < K - 2 * z) ? FILLER : x[t++];
    uint8_t* e = malloc(E);
    const uint32_t k0 = ref_k0(bg, rv, ncb, z);
    uint32_t k = 0, j = 0;
    while (k < E) {
        if (d[(k0 + j) % ncb] != FILLER) {
            e[k] = d[(k0 + j) % ncb];
            k++;
        }
        j++;
    }
    for (uint32_t jj = 0; jj < E / qm; jj++)
        for (uint32_t i = 0; i < qm; i++)
            out[i + jj * qm] = e[i * (E / qm) + jj];
    free(d);
    free(e);
}

static void conformance_case(uint32_t bg, uint32_t z, uint32_t kprime, uint32_t E, uint32_t rv, uint32_t qm,
                             uint32_t ncb, int prune)
{
    char mother_name[96], rm_name[160];
    snprintf(mother_name, sizeof mother_name, "5gnr-bg%u-z%u:k=%u", bg, z, kprime);
    int len = snprintf(rm_name, sizeof rm_name, "5gnr-bg%u-z%u:k=%u:e=%u:rv=%u:qm=%u", bg, z, kprime, E, rv, qm);
    if (ncb)
        len += snprintf(rm_name + len, sizeof rm_name - (size_t)len, ":ncb=%u", ncb);
    if (!prune)
        snprintf(rm_name + len, sizeof rm_name - (size_t)len, ":prune=0");
    const uint32_t N = (bg == 1 ? 66 : 50) * z;
    gpufec_code *m = open_test_code(mother_name), *r = open_test_code(rm_name);
    gpufec_code_info mi, ri;
    gpufec_code_get_info(m, &mi);
    gpufec_code_get_info(r, &ri);
    CHECK(mi.k == kprime && ri.k == kprime && ri.n == E, "%s: k %u/%u, n %u", rm_name, mi.k, ri.k, ri.n);
    CHECK(mi.n == N - ((bg == 1 ? 22 : 10) * z - kprime), "%s: mother sends %u", mother_name, mi.n);
    const int frames = 3;
    uint8_t* u = malloc((size_t)frames * kprime);
    uint8_t* x = malloc((size_t)frames * mi.n);
    uint8_t* y = malloc((size_t)frames * E);
    uint8_t* want = malloc(E);
    for (size_t i = 0; i < (size_t)frames * kprime; i++)
        u[i] = (uint8_t)(test_rand() & 1);
    CHECK(gpufec_code_encode(m, u, frames, x) == GPUFEC_OK, "%s encode", mother_name);
    CHECK(gpufec_code_encode(r, u, frames, y) == GPUFEC_OK, "%s encode", rm_name);
    int differ = 0;
    for (int f = 0; f < frames; f++) {
        ref_rate_match(bg, z, kprime, ncb ? ncb : N, rv, qm, E, x + (size_t)f * mi.n, want);
        differ += memcmp(want, y + (size_t)f * E, E) != 0;
    }
    CHECK(differ == 0, "%s: %d of %d frames differ from 38.212 5.4.2", rm_name, differ, frames);
    free(u);
    free(x);
    free(y);
    free(want);
    gpufec_code_destroy(m);
    gpufec_code_destroy(r);
}

static void conformance(void)
{
    const uint32_t qms[] = {1, 2, 4, 6, 8};
    int cases = 0;
    for (uint32_t bg = 1; bg <= 2; bg++)
        for (uint32_t rv = 0; rv < 4; rv++)
            for (int q = 0; q < 5; q++) {
                const uint32_t z = bg == 1 ? 20 : 36, K = (bg == 1 ? 22 : 10) * z, N = (bg == 1 ? 66 : 50) * z;
                const uint32_t qm = qms[q];
                const uint32_t filler = (rv + (uint32_t)q) % 2 ? 13 + rv : 0; /* with and without */
                const uint32_t kprime = K - filler;
                /* below the buffer (a high rate), about the buffer, and above it (repetition) */
                const uint32_t below = (kprime + kprime / 4) / qm * qm, above = (N + N / 3) / qm * qm;
                conformance_case(bg, z, kprime, below, rv, qm, 0, 1);
                conformance_case(bg, z, kprime, above, rv, qm, 0, 1);
                conformance_case(bg, z, kprime, below, rv, qm, 0, 0);
                /* limited buffer rate matching: Ncb = 2/3 of N, rounded to no particular grid */
                conformance_case(bg, z, kprime, above, rv, qm, N * 2 / 3 + 7, 1);
                cases += 4;
            }
    /* the sizes of the benchmark, and a lifting size of another set */
    conformance_case(1, 384, 8448, 10752, 0, 2, 0, 1);
    conformance_case(1, 384, 8448, 25344, 2, 8, 0, 1);
    conformance_case(2, 208, 2000, 3000, 3, 6, 0, 1);
    printf("38.212 5.4.2: %d rate-matching cases equal the reference\n", cases + 3);
}

/* Pruned rows send only zero messages: with early termination off, the decisions on the
 * information bits are the same with or without them, at every precision. */
static void pruning_is_exact(void)
{
    const char* pruned = "5gnr-bg1-z96:k=2000:e=2800:rv=0:qm=2";
    const char* whole = "5gnr-bg1-z96:k=2000:e=2800:rv=0:qm=2:prune=0";
    gpufec_code *a = open_test_code(pruned), *b = open_test_code(whole);
    gpufec_code_info ai, bi;
    gpufec_code_get_info(a, &ai);
    gpufec_code_get_info(b, &bi);
    CHECK(ai.m < bi.m && ai.n == bi.n, "pruning: %u rows of %u", ai.m, bi.m);
    const size_t frames = 40;
    uint8_t* u = malloc(frames * ai.k);
    uint8_t* x = malloc(frames * ai.n);
    float* llr = malloc(frames * ai.n * sizeof *llr);
    test_random_codewords(a, frames, u, x);
    test_awgn_llr(x, frames * ai.n, (double)ai.k / ai.n, 2.6, llr);
    const gpufec_precision precs[] = {GPUFEC_PRECISION_FLOAT32, GPUFEC_PRECISION_FLOAT16, GPUFEC_PRECISION_INT8};
    for (int p = 0; p < 3; p++) {
        gpufec_decoder_opts o;
        gpufec_decoder_opts_default(&o);
        o.backend = GPUFEC_BACKEND_CPU;
        test_set_alg(&o, p == 1 ? GPUFEC_ALG_OMS : GPUFEC_ALG_NMS);
        o.schedule = GPUFEC_SCHEDULE_LAYERED;
        test_set_prec(&o, precs[p]);
        o.early_termination = 0;
        o.max_iterations = 8;
        gpufec_decoder *da = NULL, *db = NULL;
        CHECK(gpufec_decoder_create(&da, a, &o) == GPUFEC_OK && gpufec_decoder_create(&db, b, &o) == GPUFEC_OK,
              "create");
        uint8_t* ua = malloc(frames * ai.k);
        uint8_t* ub = malloc(frames * ai.k);
        uint8_t *ca = malloc(frames), *cb = malloc(frames);
        gpufec_decoder_decode(da, llr, frames, ua, NULL, ca);
        gpufec_decoder_decode(db, llr, frames, ub, NULL, cb);
        size_t ok = 0;
        for (size_t f = 0; f < frames; f++)
            ok += memcmp(ua + f * ai.k, u + f * ai.k, ai.k) == 0;
        CHECK(memcmp(ua, ub, frames * ai.k) == 0, "precision %d: pruned rows changed decisions", p);
        CHECK(ok >= frames / 2, "precision %d: only %zu of %zu frames decoded", p, ok, frames);
        printf("pruned %u of %u rows, precision %d: same decisions, %zu of %zu frames right\n", bi.m - ai.m, bi.m,
               p, ok, frames);
        free(ua);
        free(ub);
        free(ca);
        free(cb);
        gpufec_decoder_destroy(da);
        gpufec_decoder_destroy(db);
    }
    free(u);
    free(x);
    free(llr);
    gpufec_code_destroy(a);
    gpufec_code_destroy(b);
}

/* norm=0 and quant_step=0 (the defaults) take the table's values for 5G NR (docs/codes.md): the
 * decisions equal those of the explicit values, and differ from 0.75 somewhere in the waterfall. */
static void defaults_by_code_and_rate(void)
{
    struct {
        const char* code;
        gpufec_precision prec;
        float norm, step, offset; /* offset: norm_offset */
        double ebn0;
    } const cases[] = {
        {"5gnr-bg1-z96:k=2112", GPUFEC_PRECISION_FLOAT32, 0.625f, 0.25f, 0.0f, 1.3},
        {"5gnr-bg1-z96:k=2112", GPUFEC_PRECISION_INT8, 0.6875f, 0.25f, 0.0f, 1.4},
        {"5gnr-bg1-z96:k=2112:e=2640", GPUFEC_PRECISION_INT8, 0.6875f, 0.25f, 0.0f, 3.0},
        {"5gnr-bg2-z96:k=960:e=2880", GPUFEC_PRECISION_FLOAT32, 0.75f, 0.25f, 0.0f, 1.4},
        {"5gnr-bg2-z96", GPUFEC_PRECISION_FLOAT32, 0.6875f, 0.25f, 0.0f, 0.8},
        {"5gnr-bg2-z96:k=960:e=2880", GPUFEC_PRECISION_INT8, 0.8125f, 0.25f, 0.125f, 1.5},
        {"5gnr-bg2-z96", GPUFEC_PRECISION_INT8, 0.8125f, 0.25f, 0.125f, 0.9},
        {"5gnr-bg2-z96:k=960:e=1920", GPUFEC_PRECISION_INT8, 0.75f, 0.25f, 0.0f, 1.8},
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        gpufec_code* c = open_test_code(cases[i].code);
        gpufec_code_info ci;
        gpufec_code_get_info(c, &ci);
        const size_t frames = 64;
        uint8_t* u = malloc(frames * ci.k);
        uint8_t* x = malloc(frames * ci.n);
        float* llr = malloc(frames * ci.n * sizeof *llr);
        test_random_codewords(c, frames, u, x);
        test_awgn_llr(x, frames * ci.n, (double)ci.k / ci.n, cases[i].ebn0, llr);
        uint8_t* out[3];
        int32_t* its[3];
        for (int v = 0; v < 3; v++) {
            gpufec_decoder_opts o;
            gpufec_decoder_opts_default(&o);
            o.backend = GPUFEC_BACKEND_CPU;
            test_set_prec(&o, cases[i].prec);
            o.max_iterations = 10;
            if (v == 1) {
                test_set_float(&o, "norm", cases[i].norm);
                test_set_float(&o, "quant_step", cases[i].step);
                test_set_float(&o, "norm_offset", cases[i].offset);
            } else if (v == 2) {
                test_set_float(&o, "norm", 0.75f);
                test_set_float(&o, "quant_step", 0.25f);
                test_set_float(&o, "norm_offset", 0.0f);
            }
            gpufec_decoder* d = NULL;
            CHECK(gpufec_decoder_create(&d, c, &o) == GPUFEC_OK, "%s create", cases[i].code);
            out[v] = malloc(frames * ci.k);
            its[v] = malloc(frames * sizeof **its);
            gpufec_decoder_decode(d, llr, frames, out[v], its[v], NULL);
            gpufec_decoder_destroy(d);
        }
        CHECK(memcmp(out[0], out[1], frames * ci.k) == 0 && memcmp(its[0], its[1], frames * 4) == 0,
              "%s %s: the default is not norm %.4g, step %.3g, norm_offset %.3g", cases[i].code,
              gpufec_precision_name(cases[i].prec), cases[i].norm, cases[i].step, cases[i].offset);
        const int same_as_old = cases[i].norm == 0.75f && cases[i].step == 0.25f && cases[i].offset == 0.0f;
        CHECK(same_as_old || memcmp(its[0], its[2], frames * 4) != 0, "%s: the default behaves as 0.75 / 0.25",
              cases[i].code);
        for (int v = 0; v < 3; v++) {
            free(out[v]);
            free(its[v]);
        }
        free(u);
        free(x);
        free(llr);
        gpufec_code_destroy(c);
    }
    printf("defaults by code and rate: %zu cases\n", sizeof cases / sizeof *cases);
}

/* crc=24b: the encoder appends 3GPP's CRC24B (checked against gpufec_lte_crc24, a separate
 * implementation of it); the decoder reports a frame decoded only when both its checks and the
 * CRC hold: a valid codeword of the code whose CRC bits are wrong is flagged, on every backend. */
static void crc_stopping(void)
{
    const char* with = "5gnr-bg1:k=2000:e=3000:qm=2:crc=24b";
    const char* without = "5gnr-bg1:k=2000:e=3000:qm=2";
    gpufec_code *a = open_test_code(with), *b = open_test_code(without);
    gpufec_code_info ai, bi;
    gpufec_code_get_info(a, &ai);
    gpufec_code_get_info(b, &bi);
    CHECK(ai.k + 24 == bi.k && ai.n == bi.n, "crc: k %u, %u", ai.k, bi.k);
    const size_t frames = 8;
    uint8_t* u = malloc(frames * bi.k); /* K' bits: k data bits, then the CRC (or not) */
    uint8_t* xa = malloc(frames * ai.n);
    uint8_t* xb = malloc(frames * bi.n);
    uint8_t* ua = malloc(frames * ai.k);
    for (size_t f = 0; f < frames; f++) {
        uint8_t* uf = u + f * bi.k;
        for (uint32_t i = 0; i < ai.k; i++)
            uf[i] = (uint8_t)(test_rand() & 1);
        memcpy(ua + f * ai.k, uf, ai.k);
        gpufec_lte_crc24(uf, ai.k, 1, uf + ai.k);
        if (f % 2) /* odd frames: a codeword whose CRC does not hold */
            uf[ai.k + 5] ^= 1;
    }
    gpufec_code_encode(a, ua, frames, xa);
    gpufec_code_encode(b, u, frames, xb);
    for (size_t f = 0; f < frames; f += 2)
        CHECK(memcmp(xa + f * ai.n, xb + f * bi.n, ai.n) == 0, "crc: frame %zu is not the CRC24B codeword", f);
    float* llr = malloc(frames * bi.n * sizeof *llr);
    for (size_t t = 0; t < frames * bi.n; t++)
        llr[t] = xb[t] ? -8.0f : 8.0f;
    const gpufec_backend backends[] = {GPUFEC_BACKEND_CPU, GPUFEC_BACKEND_CUDA};
    for (int k = 0; k < 2; k++) {
        if (backends[k] == GPUFEC_BACKEND_CUDA && !gpufec_cuda_available())
            continue;
        for (int output = 0; output < 3; output++) {
            gpufec_decoder_opts o;
            gpufec_decoder_opts_default(&o);
            o.backend = backends[k];
            o.output = (gpufec_output)output;
            gpufec_decoder* d = NULL;
            CHECK(gpufec_decoder_create(&d, a, &o) == GPUFEC_OK, "crc decoder");
            uint32_t in_len = 0, out_len = 0;
            gpufec_decoder_frame_sizes(d, &in_len, &out_len);
            CHECK(out_len == (output == 0 ? ai.k : output == 1 ? ai.n : ai.n_full), "crc: output length %u", out_len);
            uint8_t* out = malloc(frames * out_len);
            uint8_t ok[8];
            CHECK(gpufec_decoder_decode(d, llr, frames, out, NULL, ok) == GPUFEC_OK, "crc decode");
            for (size_t f = 0; f < frames; f++) {
                CHECK(ok[f] == (f % 2 == 0), "crc: frame %zu reported %d (backend %d, output %d)", f, ok[f], k,
                      output);
                if (output == 0)
                    CHECK(memcmp(out + f * ai.k, ua + f * ai.k, ai.k) == 0, "crc: frame %zu's bits", f);
                if (output == 1)
                    CHECK(memcmp(out + f * ai.n, xb + f * bi.n, ai.n) == 0, "crc: frame %zu's codeword", f);
            }
            free(out);
            gpufec_decoder_destroy(d);
        }
    }
    printf("crc=24b: encoder = CRC24B codeword, decoded only when the CRC holds\n");
    free(u);
    free(xa);
    free(xb);
    free(ua);
    free(llr);
    gpufec_code_destroy(a);
    gpufec_code_destroy(b);
}

/* HARQ: rv 0 and rv 2 of one code block at 1.5 dB (R = 0.83 each) fail alone; their soft values
 * combined in the mother code's buffer decode (Chase and incremental redundancy together). */
static void harq_rv0_rv2(void)
{
    const char* names[2] = {"5gnr-bg1:k=2000:e=2400:rv=0:qm=2", "5gnr-bg1:k=2000:e=2400:rv=2:qm=2"};
    gpufec_code* rv[2] = {open_test_code(names[0]), open_test_code(names[1])};
    uint32_t len[2] = {0, 0};
    char mother[2][96];
    for (int i = 0; i < 2; i++)
        CHECK(gpufec_code_harq_info(rv[i], &len[i], mother[i], sizeof mother[i]) == GPUFEC_OK, "harq info");
    CHECK(len[0] == len[1] && strcmp(mother[0], mother[1]) == 0 && strcmp(mother[0], "5gnr-bg1-z96:k=2000") == 0,
          "harq buffer: %u/%u, '%s'", len[0], len[1], mother[0]);
    gpufec_code* m = open_test_code(mother[0]);
    gpufec_code_info mi, ri;
    gpufec_code_get_info(m, &mi);
    gpufec_code_get_info(rv[0], &ri);
    CHECK(mi.n == len[0], "the buffer is the mother code's transmission (%u, %u)", mi.n, len[0]);
    const size_t frames = 40;
    uint8_t* u = malloc(frames * ri.k);
    for (size_t t = 0; t < frames * ri.k; t++)
        u[t] = (uint8_t)(test_rand() & 1);
    float* buffer = calloc(frames * len[0], sizeof *buffer);
    uint8_t* x = malloc(frames * ri.n);
    float* llr = malloc(frames * ri.n * sizeof *llr);
    uint8_t* out = malloc(frames * ri.k);
    gpufec_decoder_opts o;
    gpufec_decoder_opts_default(&o);
    o.backend = GPUFEC_BACKEND_CPU;
    size_t alone_ok[2] = {0, 0};
    for (int i = 0; i < 2; i++) {
        gpufec_code_encode(rv[i], u, frames, x);
        test_awgn_llr(x, frames * ri.n, (double)ri.k / ri.n, 1.5, llr);
        CHECK(gpufec_code_harq_combine(rv[i], llr, frames, buffer) == GPUFEC_OK, "combine");
        gpufec_decoder* d = NULL;
        gpufec_decoder_create(&d, rv[i], &o);
        gpufec_decoder_decode(d, llr, frames, out, NULL, NULL);
        for (size_t f = 0; f < frames; f++)
            alone_ok[i] += memcmp(out + f * ri.k, u + f * ri.k, ri.k) == 0;
        gpufec_decoder_destroy(d);
    }
    gpufec_decoder* d = NULL;
    gpufec_decoder_create(&d, m, &o);
    gpufec_decoder_decode(d, buffer, frames, out, NULL, NULL);
    size_t both_ok = 0;
    for (size_t f = 0; f < frames; f++)
        both_ok += memcmp(out + f * ri.k, u + f * ri.k, ri.k) == 0;
    gpufec_decoder_destroy(d);
    CHECK(alone_ok[0] <= frames / 10 && alone_ok[1] <= frames / 10 && both_ok >= frames * 9 / 10,
          "harq: rv0 alone %zu, rv2 alone %zu, combined %zu of %zu", alone_ok[0], alone_ok[1], both_ok, frames);
    printf("HARQ at 1.5 dB: rv0 alone %zu, rv2 alone %zu, combined %zu of %zu frames\n", alone_ok[0], alone_ok[1],
           both_ok, frames);
    CHECK(gpufec_code_harq_info(m, &len[0], NULL, 0) == GPUFEC_ERR_UNSUPPORTED, "harq: not rate matched");
    free(u);
    free(buffer);
    free(x);
    free(llr);
    free(out);
    gpufec_code_destroy(m);
    gpufec_code_destroy(rv[0]);
    gpufec_code_destroy(rv[1]);
}

int main(void)
{
    test_rng_init();
    conformance();
    pruning_is_exact();
    defaults_by_code_and_rate();
    crc_stopping();
    harq_rv0_rv2();
    TEST_DONE();
}
