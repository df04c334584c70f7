/* LTE turbo codes against independent restatements of TS 36.212: the QPP interleaver is a
 * permutation for all 188 sizes; the encoder equals a plain shift-register encoder written here
 * from the standard's equations (5.1.3.2), whose trellis termination leaves both registers at 0;
 * CRC24A/B leave no remainder under polynomial division; rate matching equals a literal
 * matrix-and-circular-buffer implementation (5.1.4.1.1-2) for several (K, E, rv), repetition
 * included; decoding round trips on fresh random frames for both algorithms, several sub-block
 * counts and every guard; erased frames are not reported decoded; bad names and options fail
 * with a reason. */
#include "test_util.h"

/* ---- the standard, restated ---- */

static void ref_rsc(const uint8_t* c, uint32_t K, uint8_t* z, uint8_t* x_tail, uint8_t* z_tail, int* final_state)
{
    int r[3] = {0, 0, 0}; /* shift register, r[0] newest */
    for (uint32_t k = 0; k < K; k++) {
        const int a = c[k] ^ r[1] ^ r[2];  /* g0 = 1 + D^2 + D^3 */
        z[k] = (uint8_t)(a ^ r[0] ^ r[2]); /* g1 = 1 + D + D^3 */
        r[2] = r[1], r[1] = r[0], r[0] = a;
    }
    for (int t = 0; t < 3; t++) { /* switch to the feedback: the register input is 0 */
        const int x = r[1] ^ r[2];
        x_tail[t] = (uint8_t)x;
        z_tail[t] = (uint8_t)(0 ^ r[0] ^ r[2]);
        r[2] = r[1], r[1] = r[0], r[0] = 0;
    }
    *final_state = r[0] | r[1] | r[2];
}

static void ref_encode(const uint8_t* c, uint32_t K, const uint32_t* pi, uint8_t* d /* 3 streams of K+4 */)
{
    uint8_t* z1 = malloc(K);
    uint8_t* z2 = malloc(K);
    uint8_t* ci = malloc(K);
    uint8_t x[3], zt[3], xp[3], zpt[3];
    int s1, s2;
    for (uint32_t k = 0; k < K; k++)
        ci[k] = c[pi[k]];
    ref_rsc(c, K, z1, x, zt, &s1);
    ref_rsc(ci, K, z2, xp, zpt, &s2);
    CHECK(s1 == 0 && s2 == 0, "termination left a register at state %d / %d", s1, s2);
    uint8_t* d0 = d;
    uint8_t* d1 = d + K + 4;
    uint8_t* d2 = d + 2 * (K + 4);
    for (uint32_t k = 0; k < K; k++)
        d0[k] = c[k], d1[k] = z1[k], d2[k] = z2[k];
    /* 36.212 5.1.3.2.2 */
    d0[K] = x[0], d0[K + 1] = zt[1], d0[K + 2] = xp[0], d0[K + 3] = zpt[1];
    d1[K] = zt[0], d1[K + 1] = x[2], d1[K + 2] = zpt[0], d1[K + 3] = xp[2];
    d2[K] = x[1], d2[K + 1] = zt[2], d2[K + 2] = xp[1], d2[K + 3] = zpt[2];
    free(z1), free(z2), free(ci);
}

/* Remainder of a(D) D^24 + p(D) by g(D), by long division over the whole bit string. */
static int crc_remainder_zero(const uint8_t* bits, size_t n, uint32_t g)
{
    uint8_t* w = malloc(n);
    memcpy(w, bits, n);
    for (size_t i = 0; i + 24 < n + 0 && i < n - 24; i++)
        if (w[i])
            for (int b = 0; b <= 24; b++)
                w[i + b] ^= (uint8_t)(((g | (1u << 24)) >> (24 - b)) & 1u);
    int zero = 1;
    for (size_t i = n - 24; i < n; i++)
        zero &= !w[i];
    free(w);
    return zero;
}

/* Rate matching written from the standard's matrices: returns the E bits. */
static void ref_rate_match(const uint8_t* d, uint32_t K, uint32_t E, uint32_t rv, uint8_t* e)
{
    static const int P[32] = {0, 16, 8, 24, 4, 20, 12, 28, 2, 18, 10, 26, 6, 22, 14, 30,
                              1, 17, 9, 25, 5, 21, 13, 29, 3, 19, 11, 27, 7, 23, 15, 31};
    const uint32_t D = K + 4, C = 32, R = (D + C - 1) / C, KP = R * C, ND = KP - D;
    int* y[3];
    int* v[3];
    for (int s = 0; s < 3; s++) {
        y[s] = malloc(KP * sizeof(int));
        v[s] = malloc(KP * sizeof(int));
        for (uint32_t k = 0; k < KP; k++)
            y[s][k] = k < ND ? -1 : d[s * (size_t)D + k - ND]; /* -1: <NULL> */
    }
    for (int s = 0; s < 2; s++) { /* matrix R x C row by row, permute columns, read by columns */
        uint32_t k = 0;
        for (uint32_t col = 0; col < C; col++)
            for (uint32_t row = 0; row < R; row++)
                v[s][k++] = y[s][row * C + (uint32_t)P[col]];
    }
    for (uint32_t k = 0; k < KP; k++)
        v[2][k] = y[2][((uint32_t)P[k / R] + C * (k % R) + 1) % KP];
    const uint32_t Kw = 3 * KP;
    int* w = malloc(Kw * sizeof(int));
    for (uint32_t k = 0; k < KP; k++) {
        w[k] = v[0][k];
        w[KP + 2 * k] = v[1][k];
        w[KP + 2 * k + 1] = v[2][k];
    }
    const uint32_t Ncb = Kw, k0 = R * (2 * (uint32_t)ceil((double)Ncb / (8.0 * R)) * rv + 2);
    uint32_t k = 0, j = 0;
    while (k < E) {
        if (w[(k0 + j) % Ncb] != -1)
            e[k++] = (uint8_t)w[(k0 + j) % Ncb];
        j++;
    }
    for (int s = 0; s < 3; s++)
        free(y[s]), free(v[s]);
    free(w);
}

/* ---- tests ---- */

static void interleavers(void)
{
    int bad = 0, count = 0;
    for (size_t i = 0; i < gpufec_code_builtin_count(); i++) {
        const char* name = gpufec_code_builtin_name(i);
        unsigned K;
        if (sscanf(name, "lte-turbo-%u", &K) != 1)
            continue;
        count++;
        uint32_t* pi = malloc(K * sizeof *pi);
        uint8_t* seen = calloc(K, 1);
        CHECK(gpufec_turbo_interleaver(K, pi) == GPUFEC_OK, "K=%u", K);
        for (uint32_t k = 0; k < K; k++)
            bad += pi[k] >= K || seen[pi[k]]++;
        free(pi), free(seen);
    }
    CHECK(count == 188 && bad == 0, "%d sizes, %d repeated or out-of-range entries", count, bad);
    uint32_t p40[40];
    gpufec_turbo_interleaver(40, p40); /* f1 = 3, f2 = 10 (Table 5.1.3-3), by hand: */
    CHECK(p40[0] == 0 && p40[1] == 13 && p40[2] == 6 && p40[3] == 19 && p40[39] == (3 * 39 + 10 * 39 * 39) % 40,
          "K=40: %u %u %u %u", p40[0], p40[1], p40[2], p40[3]);
    uint32_t x;
    CHECK(gpufec_turbo_interleaver(41, &x) == GPUFEC_ERR_INVALID_ARGUMENT, "K=41 accepted");
}

static void encoder_matches_standard(uint32_t K)
{
    char name[64];
    snprintf(name, sizeof name, "lte-turbo-%u", K);
    gpufec_code* c = open_test_code(name);
    gpufec_code_info info;
    gpufec_code_get_info(c, &info);
    CHECK(info.family == GPUFEC_FAMILY_TURBO && info.k == K && info.n == 3 * (K + 4) && info.n_full == info.n,
          "%s: family %d k %u n %u", name, info.family, info.k, info.n);
    uint32_t* pi = malloc(K * sizeof *pi);
    gpufec_turbo_interleaver(K, pi);
    uint8_t* u = malloc(K);
    uint8_t* cw = malloc(info.n);
    uint8_t* d = malloc(3 * (K + 4));
    for (int trial = 0; trial < 3; trial++) {
        for (uint32_t k = 0; k < K; k++)
            u[k] = trial == 0 ? (k == 0) : (uint8_t)(test_rand() & 1); /* trial 0: the impulse */
        gpufec_code_encode(c, u, 1, cw);
        ref_encode(u, K, pi, d);
        int same = 1;
        for (uint32_t i = 0; i < K + 4; i++)
            for (int s = 0; s < 3; s++)
                same &= cw[3 * i + s] == d[s * (K + 4) + i];
        CHECK(same, "%s: encoder output differs from the standard's equations (trial %d)", name, trial);
    }
    free(pi), free(u), free(cw), free(d);
    gpufec_code_destroy(c);
}

static void crc(void)
{
    gpufec_code* c = open_test_code("lte-turbo-512:crc=24b");
    gpufec_code_info info;
    gpufec_code_get_info(c, &info);
    gpufec_turbo_info ti;
    CHECK(gpufec_code_turbo_info(c, &ti) == GPUFEC_OK && ti.K == 512 && ti.crc == 24 && ti.crc_b == 1 && info.k == 488,
          "crc code info");
    uint8_t u[488], cw[3 * 516], sys[512];
    for (int i = 0; i < 488; i++)
        u[i] = (uint8_t)(test_rand() & 1);
    gpufec_code_encode(c, u, 1, cw);
    for (int i = 0; i < 512; i++)
        sys[i] = cw[3 * i];
    CHECK(memcmp(sys, u, 488) == 0, "information bits not first");
    CHECK(crc_remainder_zero(sys, 512, 0x800063u), "CRC24B: remainder not zero");
    uint8_t p[24];
    gpufec_lte_crc24(u, 488, 0, p);
    memcpy(sys + 488, p, 24);
    CHECK(crc_remainder_zero(sys, 512, 0x864CFBu), "CRC24A: remainder not zero");
    sys[5] ^= 1;
    CHECK(!crc_remainder_zero(sys, 512, 0x864CFBu), "a flipped bit left no remainder");
    gpufec_code_destroy(c);
}

static void rate_matching(uint32_t K, uint32_t E, uint32_t rv)
{
    char name[96], mother[64];
    snprintf(name, sizeof name, "lte-turbo-%u:e=%u:rv=%u", K, E, rv);
    snprintf(mother, sizeof mother, "lte-turbo-%u", K);
    gpufec_code* c = open_test_code(name);
    gpufec_code* m = open_test_code(mother);
    gpufec_code_info info;
    gpufec_code_get_info(c, &info);
    CHECK(info.n == E && info.k == K, "%s: n %u", name, info.n);
    CHECK(E <= 3 * (K + 4) || info.repeated > 0, "%s: E beyond the buffer but nothing repeated", name);
    uint8_t* u = malloc(K);
    uint8_t* tx = malloc(E);
    uint8_t* cw = malloc(3 * (K + 4));
    uint8_t* d = malloc(3 * (K + 4));
    uint8_t* e = malloc(E);
    for (uint32_t k = 0; k < K; k++)
        u[k] = (uint8_t)(test_rand() & 1);
    gpufec_code_encode(c, u, 1, tx);
    gpufec_code_encode(m, u, 1, cw);
    for (uint32_t i = 0; i < K + 4; i++)
        for (int s = 0; s < 3; s++)
            d[s * (K + 4) + i] = cw[3 * i + s];
    ref_rate_match(d, K, E, rv, e);
    CHECK(memcmp(tx, e, E) == 0, "%s: rate matching differs from the standard's definition", name);
    free(u), free(tx), free(cw), free(d), free(e);
    gpufec_code_destroy(c);
    gpufec_code_destroy(m);
}

static long last_bit_errors;

/* Noisy frames at an SNR where every frame decodes; returns frames in error (bit errors in
 * last_bit_errors). */
static int round_trip(const char* name, gpufec_turbo_algorithm alg, int P, gpufec_turbo_guard guard, double ebn0,
                      size_t frames, gpufec_input_type input)
{
    test_frames t = test_frames_of(open_test_code(name), frames);
    gpufec_code* c = t.code;
    const gpufec_code_info info = t.info;
    const uint8_t* u = t.u;
    float* llr = t.llr;
    int8_t* q = malloc(frames * info.n);
    test_out r = test_out_alloc(frames, info.k);
    uint8_t *out = r.bits, *ok = r.ok;
    int32_t* it = r.its;
    test_awgn_llr(t.x, frames * info.n, info.rate, ebn0, llr);
    for (size_t i = 0; i < frames * info.n; i++) {
        const float s = llr[i] / 0.25f;
        q[i] = (int8_t)(s > 127 ? 127 : s < -127 ? -127 : lrintf(s));
    }
    gpufec_decoder_opts o;
    gpufec_decoder_opts_default(&o);
    o.backend = GPUFEC_BACKEND_CPU;
    test_set(&o, "turbo_algorithm", gpufec_turbo_algorithm_name(alg));
    test_set_int(&o, "subblocks", P);
    test_set(&o, "guard", gpufec_turbo_guard_name(guard));
    o.max_iterations = 8;
    o.input_type = input;
    gpufec_decoder* d = NULL;
    gpufec_diag diag;
    CHECK(gpufec_decoder_opts_check(&o, c, &diag) == GPUFEC_OK, "%s: %s", name, diag.message);
    CHECK(gpufec_decoder_create(&d, c, &o) == GPUFEC_OK, "%s: create", name);
    const void* soft = input == GPUFEC_INPUT_INT8 ? (const void*)q : (const void*)llr;
    CHECK(gpufec_decoder_decode_soft(d, soft, frames, out, it, ok) == GPUFEC_OK, "%s: decode", name);
    int errors = 0, flagged = 0;
    last_bit_errors = 0;
    for (size_t i = 0; i < frames * info.k; i++)
        last_bit_errors += out[i] != u[i];
    for (size_t f = 0; f < frames; f++) {
        const int wrong = memcmp(out + f * info.k, u + f * info.k, info.k) != 0;
        errors += wrong;
        flagged += wrong && ok[f]; /* with a CRC, a wrong frame must not be reported decoded */
    }
    gpufec_turbo_info ti;
    gpufec_code_turbo_info(c, &ti);
    if (ti.crc)
        CHECK(flagged == 0, "%s: %d wrong frames reported decoded", name, flagged);
    gpufec_decoder_destroy(d);
    free(q);
    test_out_free(&r);
    test_frames_free(&t);
    return errors;
}

static void decoding(void)
{
    const gpufec_turbo_algorithm algs[] = {GPUFEC_TURBO_MAX_LOG_MAP, GPUFEC_TURBO_LOG_MAP};
    for (int a = 0; a < 2; a++) {
        int e = round_trip("lte-turbo-1024", algs[a], 1, GPUFEC_TURBO_GUARD_PIVI, 2.0, 20, GPUFEC_INPUT_FLOAT32);
        CHECK(e == 0, "%s P=1 at 2 dB: %d of 20 frames wrong", gpufec_turbo_algorithm_name(algs[a]), e);
    }
    /* P = 32: PIVI and PIVIDSTW decode like P = 1 here. Without a guard (and with DSTW's short
     * blind-started window) the stages at a sub-block edge get almost no extrinsic value from
     * that half; a bit at an edge of both halves keeps its channel decision, an error floor of
     * about one bit per failed frame (measured: FER 8.5% at 6 dB for none, P = 32). Those are
     * checked on bit errors, the guarded ones on frames. */
    for (int g = 0; g < 4; g++) {
        const int guarded = g == GPUFEC_TURBO_GUARD_PIVI || g == GPUFEC_TURBO_GUARD_PIVIDSTW;
        int e = round_trip("lte-turbo-2048:crc=24a", GPUFEC_TURBO_MAX_LOG_MAP, 32, (gpufec_turbo_guard)g,
                           guarded ? 2.0 : 4.0, 12, GPUFEC_INPUT_FLOAT32);
        if (guarded)
            CHECK(e == 0, "P=32 guard %s at 2 dB: %d of 12 frames wrong", gpufec_turbo_guard_name((gpufec_turbo_guard)g), e);
        else
            CHECK(last_bit_errors <= 24, "P=32 guard %s at 4 dB: %ld bit errors in 12 frames",
                  gpufec_turbo_guard_name((gpufec_turbo_guard)g), last_bit_errors);
    }
    int e = round_trip("lte-turbo-1024:crc=24a:e=1500:rv=0", GPUFEC_TURBO_MAX_LOG_MAP, 1, GPUFEC_TURBO_GUARD_PIVI, 3.5,
                       12, GPUFEC_INPUT_INT8);
    CHECK(e == 0, "rate 2/3, int8 input at 3.5 dB: %d of 12 frames wrong", e);
    e = round_trip("lte-turbo-256:e=2400:rv=2", GPUFEC_TURBO_MAX_LOG_MAP, 4, GPUFEC_TURBO_GUARD_PIVIDSTW, 3.0, 12,
                   GPUFEC_INPUT_FLOAT32);
    CHECK(e == 0, "repetition (E > 3 K), 3 dB: %d of 12 frames wrong", e);
}

static void erased_and_errors(void)
{
    gpufec_code* c = open_test_code("lte-turbo-40");
    gpufec_decoder_opts o;
    gpufec_decoder_opts_default(&o);
    o.backend = GPUFEC_BACKEND_CPU;
    gpufec_decoder* d = NULL;
    CHECK(gpufec_decoder_create(&d, c, &o) == GPUFEC_OK, "create");
    float z[2 * 132];
    for (int i = 0; i < 132; i++)
        z[i] = 0.0f, z[132 + i] = NAN;
    uint8_t out[80], ok[2] = {1, 1};
    int32_t it[2];
    CHECK(gpufec_decoder_decode(d, z, 2, out, it, ok) == GPUFEC_OK && !ok[0] && !ok[1], "erased frames decoded");
    gpufec_decoder_destroy(d);
    gpufec_diag diag;
    CHECK((gpufec_decoder_opts_set(&o, "subblocks", "0", &diag) == GPUFEC_ERR_INVALID_ARGUMENT ||
           gpufec_decoder_opts_check(&o, c, &diag) == GPUFEC_ERR_INVALID_ARGUMENT) && strstr(diag.message, "subblocks"),
          "subblocks=0: %s", diag.message);
    {
        /* issue 21: limits that depend on K were clamped silently */
        gpufec_code* k40 = open_test_code("lte-turbo-40");
        gpufec_decoder_opts q;
        gpufec_decoder_opts_default(&q);
        test_set_int(&q, "subblocks", 41);
        CHECK(gpufec_decoder_opts_check(&q, k40, &diag) == GPUFEC_ERR_INVALID_ARGUMENT && strstr(diag.message, "K=40"),
              "subblocks=41 on K=40: %s", diag.message);
        test_set_int(&q, "subblocks", 8); /* 5 stages each */
        test_set(&q, "guard", "dstw");
        test_set_int(&q, "window", 6);
        CHECK(gpufec_decoder_opts_check(&q, k40, &diag) == GPUFEC_ERR_INVALID_ARGUMENT && strstr(diag.message, "window=6"),
              "window=6 with 5-stage sub-blocks: %s", diag.message);
        test_set_int(&q, "window", 5);
        CHECK(gpufec_decoder_opts_check(&q, k40, &diag) == GPUFEC_OK, "window=5 refused: %s", diag.message);
        gpufec_code_destroy(k40);
    }
    gpufec_code_destroy(c);
    gpufec_code* bad = NULL;
    const char* names[] = {"lte-turbo-41", "lte-turbo-40:rv=1", "lte-turbo-40:e=100:rv=4", "lte-turbo-40:crc=16",
                           "lte-turbo-40:e=0", "lte-turbo-40:e=999999999"};
    for (size_t i = 0; i < sizeof names / sizeof *names; i++) {
        CHECK(gpufec_code_open(&bad, names[i], &diag) != GPUFEC_OK && diag.message[0] && !bad, "%s: opened or no reason",
              names[i]);
    }
    /* issue 21: each of these opened (a rate above 1, a key given twice) or was answered with a
     * reason that was not the problem (K is fine; the option is malformed) */
    const struct { const char* name; const char* says; } named[] = {
        {"lte-turbo-40:crc=24a:e=1", "rate above 1"}, {"lte-turbo-1024:e=1000", "rate above 1"},
        {"lte-turbo-40:crc=24a:crc=24b", "twice"}, {"lte-turbo-40:e=132:e=140", "twice"},
        {"lte-turbo-40:e=132:rv=0:rv=1", "twice"}, {"lte-turbo-40:", "option"}, {"lte-turbo-40:E=132", "':E=132'"}};
    for (size_t i = 0; i < sizeof named / sizeof *named; i++)
        CHECK(gpufec_code_open(&bad, named[i].name, &diag) != GPUFEC_OK && !bad && strstr(diag.message, named[i].says),
              "%s: '%s' does not say '%s'", named[i].name, diag.message, named[i].says);
    CHECK(gpufec_code_open(&bad, "lte-turbo-40:crc=24a:e=40", &diag) == GPUFEC_OK, "E = K refused: %s", diag.message);
    gpufec_code_destroy(bad);
    bad = NULL;
    uint32_t w;
    gpufec_code_open(&bad, "lte-turbo-40", NULL);
    CHECK(gpufec_code_syndrome_weight(bad, out, &w) == GPUFEC_ERR_UNSUPPORTED, "turbo syndrome");
    CHECK(gpufec_code_export_alist(bad, "/tmp/x.alist") == GPUFEC_ERR_UNSUPPORTED, "turbo alist export");
    gpufec_code_destroy(bad);
}

int main(void)
{
    test_rng_init();
    interleavers();
    encoder_matches_standard(40);
    encoder_matches_standard(1056);
    encoder_matches_standard(6144);
    crc();
    const uint32_t cases[][3] = {{40, 132, 0}, {40, 100, 1}, {1024, 1500, 0}, {1024, 3000, 3},
                                 {6144, 8000, 2}, {256, 2400, 2}, {512, 5000, 1}};
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++)
        rate_matching(cases[i][0], cases[i][1], cases[i][2]);
    decoding();
    erased_and_errors();
    TEST_DONE();
}
