/* GF(q) LDPC codes against independent facts: the field tables against carry-less
 * multiplication modulo the polynomial; both check rules against brute force over every symbol
 * configuration of small checks (sum-product for FFT-BP, min of max for min-max); every built-in
 * code and every .kn file opens, and random codewords satisfy H (the syndrome is computed here,
 * from the exported matrix, not by the library); decoding round trips for both algorithms and
 * schedules on fresh noise; erased frames are not decoded; the nbalist export reads back as the
 * same code; malformed and mutated files are refused with a line number and never crash. */
#include "test_util.h"

#include <unistd.h>

#include "nb_code.h"
#include "nb_rules.h"

/* ---- the field, restated ---- */

static uint32_t clmul_mod(uint32_t a, uint32_t b, uint32_t poly, uint32_t p)
{
    uint32_t r = 0;
    for (uint32_t i = 0; i < p; i++)
        if (b >> i & 1u)
            r ^= a << i;
    for (int i = 2 * (int)p - 2; i >= (int)p; i--)
        if (r >> i & 1u)
            r ^= poly << (i - (int)p);
    return r;
}

static void test_field(void)
{
    for (uint32_t q = 4; q <= 256; q *= 2) {
        nb_gf f;
        const uint32_t poly = gpufec_nb_default_poly(q);
        CHECK(nb_gf_init(&f, q, poly) == GPUFEC_OK, "GF(%u) with 0x%X", q, poly);
        for (int t = 0; t < 2000; t++) {
            const uint32_t a = (uint32_t)(test_rand() % q), b = (uint32_t)(test_rand() % q);
            CHECK(nb_gf_mul(&f, a, b) == clmul_mod(a, b, poly, f.p), "GF(%u): %u * %u", q, a, b);
            if (b)
                CHECK(nb_gf_mul(&f, nb_gf_div(&f, a, b), b) == a, "GF(%u): (%u / %u) * %u", q, a, b, b);
        }
    }
    nb_gf f;
    CHECK(nb_gf_init(&f, 16, 0x1F) != GPUFEC_OK, "x^4+x^3+x^2+x+1 is not primitive");
    CHECK(nb_gf_init(&f, 12, 0x13) != GPUFEC_OK, "q = 12 is not a power of 2");
}

/* ---- the check rules against brute force ---- */

static void brute_check(const nb_gf* f, int fft, const float* V, const uint8_t* h, uint32_t d, float* C)
{
    const uint32_t q = f->q;
    uint32_t total = 1;
    for (uint32_t e = 0; e < d; e++)
        total *= q;
    for (uint32_t e = 0; e < d; e++) {
        double acc[256];
        for (uint32_t a = 0; a < q; a++)
            acc[a] = fft ? 0.0 : 1e30;
        for (uint32_t cfg = 0; cfg < total; cfg++) {
            uint32_t x = cfg, s = 0;
            double w = fft ? 1.0 : 0.0;
            uint32_t own = 0;
            for (uint32_t t = 0; t < d; t++, x /= q) {
                const uint32_t sym = x % q;
                s ^= nb_gf_mul(f, h[t], sym);
                if (t == e) {
                    own = sym;
                    continue;
                }
                const double v = V[t * q + sym];
                if (fft)
                    w *= exp(-v);
                else
                    w = v > w ? v : w;
            }
            if (s != 0)
                continue;
            if (fft)
                acc[own] += w;
            else if (w < acc[own])
                acc[own] = w;
        }
        double mn = 1e300;
        for (uint32_t a = 0; a < q; a++) {
            acc[a] = fft ? -log(acc[a]) : acc[a];
            mn = acc[a] < mn ? acc[a] : mn;
        }
        for (uint32_t a = 0; a < q; a++)
            C[e * q + a] = (float)(acc[a] - mn);
    }
}

static void test_rules(void)
{
    const uint32_t qs[] = {4, 8, 16}, ds[] = {2, 3, 4};
    for (size_t qi = 0; qi < 3; qi++)
        for (size_t di = 0; di < 3; di++)
            for (int fft = 0; fft < 2; fft++) {
                const uint32_t q = qs[qi], d = ds[di];
                if (q == 16 && d == 4)
                    continue; /* 65536 configurations per edge: slow, adds nothing */
                nb_gf f;
                nb_gf_init(&f, q, gpufec_nb_default_poly(q));
                float V[4 * 16], C[4 * 16], R[4 * 16], scratch[(4 * 4 + 1) * 16];
                uint8_t h[4];
                for (uint32_t e = 0; e < d; e++) {
                    h[e] = (uint8_t)(1 + test_rand() % (q - 1));
                    for (uint32_t a = 0; a < q; a++)
                        V[e * q + a] = (float)(4.0 * test_uniform());
                    nb_normalise(V + e * q, q);
                }
                nb_check_update(&f, fft, V, h, d, C, scratch);
                brute_check(&f, fft, V, h, d, R);
                float worst = 0.0f;
                for (uint32_t i = 0; i < d * q; i++)
                    worst = fmaxf(worst, fabsf(C[i] - R[i]));
                CHECK(worst < (fft ? 2e-3f : 1e-6f), "%s check, q=%u, d=%u: differs from brute force by %g",
                      fft ? "FFT-BP" : "min-max", q, d, (double)worst);
            }
}

/* ---- codes ---- */

/* The matrix as the library exports it, read back here to compute syndromes independently. */
typedef struct {
    uint32_t n, m, q, poly;
    uint32_t *deg, *col;
    uint32_t* coef;
} plain_h;

static int read_plain(const gpufec_code* c, plain_h* h)
{
    char path[] = "/tmp/gpufec_nb_XXXXXX";
    int fd = mkstemp(path);
    if (fd < 0)
        return 0;
    close(fd);
    if (gpufec_code_export_nbalist(c, path) != GPUFEC_OK)
        return 0;
    FILE* f = fopen(path, "r");
    char line[256];
    int ok = f && fgets(line, sizeof line, f) && fgets(line, sizeof line, f) &&
             fscanf(f, "%u %u %u %u", &h->n, &h->m, &h->q, &h->poly) == 4;
    h->deg = ok ? calloc(h->m + 1, sizeof *h->deg) : NULL;
    h->col = ok ? malloc(sizeof *h->col * 300 * (h->m + 1)) : NULL;
    h->coef = ok ? malloc(sizeof *h->coef * 300 * (h->m + 1)) : NULL;
    for (uint32_t i = 0; ok && i < h->m; i++) {
        ok = fscanf(f, "%u", &h->deg[i]) == 1 && h->deg[i] <= 300;
        for (uint32_t t = 0; ok && t < h->deg[i]; t++)
            ok = fscanf(f, "%u %u", &h->col[i * 300 + t], &h->coef[i * 300 + t]) == 2;
    }
    if (f)
        fclose(f);
    remove(path);
    return ok;
}

static void free_plain(plain_h* h)
{
    free(h->deg), free(h->col), free(h->coef);
}

static uint32_t plain_syndrome(const plain_h* h, const uint8_t* bits)
{
    uint32_t p = 0, w = 0;
    while ((1u << p) < h->q)
        p++;
    for (uint32_t i = 0; i < h->m; i++) {
        uint32_t s = 0;
        for (uint32_t t = 0; t < h->deg[i]; t++) {
            const uint32_t j = h->col[i * 300 + t] - 1;
            uint32_t sym = 0;
            for (uint32_t b = 0; b < p; b++)
                sym |= (uint32_t)bits[j * p + b] << b;
            s ^= clmul_mod(h->coef[i * 300 + t], sym, h->poly, p);
        }
        w += s != 0;
    }
    return w;
}

/* Encodes random frames and checks them against the matrix read back independently. */
static void check_codewords(const char* name, gpufec_code* c, int frames)
{
    gpufec_code_info ci;
    gpufec_code_get_info(c, &ci);
    plain_h h;
    CHECK(read_plain(c, &h), "%s: export and read back", name);
    uint8_t* info = malloc(ci.k);
    uint8_t* cw = malloc(ci.n_full);
    for (int f = 0; f < frames; f++) {
        for (uint32_t i = 0; i < ci.k; i++)
            info[i] = (uint8_t)(test_rand() & 1);
        CHECK(gpufec_code_encode_full(c, info, 1, cw) == GPUFEC_OK, "%s: encode", name);
        CHECK(plain_syndrome(&h, cw) == 0, "%s: a codeword violates %u checks", name, plain_syndrome(&h, cw));
        uint32_t w = 1;
        gpufec_code_syndrome_weight(c, cw, &w);
        CHECK(w == 0, "%s: library syndrome %u", name, w);
        uint8_t* back = malloc(ci.k);
        gpufec_code_extract_info(c, cw, 1, back);
        CHECK(memcmp(back, info, ci.k) == 0, "%s: information bits not where the positions say", name);
        free(back);
    }
    free(info), free(cw);
    free_plain(&h);
}

static void test_builtin(void)
{
    size_t found = 0;
    for (size_t i = 0; i < gpufec_code_builtin_count(); i++) {
        gpufec_family fam;
        gpufec_code_builtin_family(i, &fam);
        if (fam != GPUFEC_FAMILY_NBLDPC)
            continue;
        found++;
        const char* name = gpufec_code_builtin_name(i);
        gpufec_code* c = NULL;
        gpufec_diag d = {0, ""};
        CHECK(gpufec_code_open(&c, name, &d) == GPUFEC_OK, "%s: %s", name, d.message);
        if (!c)
            continue;
        gpufec_nbldpc_info ni;
        CHECK(gpufec_code_nbldpc_info(c, &ni) == GPUFEC_OK, "%s: info", name);
        CHECK(ni.can_encode, "%s: no encoder", name);
        CHECK(ni.k == ni.n - ni.rank && ni.rank <= ni.m, "%s: k=%u n=%u rank=%u m=%u", name, ni.k, ni.n, ni.rank, ni.m);
        check_codewords(name, c, 3);
        gpufec_code_destroy(c);
    }
    CHECK(found == 18, "%zu GF(q) built-in codes listed", found);
    /* Seed 001's codes: sizes in bits, ranks as published. */
    const struct { const char* name; uint32_t n_bits, k_bits, q; } pub[] = {
        {"nb-qc-gf32-744", 744 * 5, 653 * 5, 32}, {"nb-qc-gf32-837", 837 * 5, 726 * 5, 32},
        {"nb-qc-gf64-1512", 1512 * 6, 1323 * 6, 64}};
    for (int i = 0; i < 3; i++) {
        gpufec_code* c = open_test_code(pub[i].name);
        gpufec_code_info ci;
        gpufec_nbldpc_info ni;
        gpufec_code_get_info(c, &ci);
        gpufec_code_nbldpc_info(c, &ni);
        CHECK(ni.q == pub[i].q && ci.n_full == pub[i].n_bits, "%s: q=%u, %u bits", pub[i].name, ni.q, ci.n_full);
        printf("%s: n=%u k=%u symbols (published k=%u), rank %u of %u checks\n", pub[i].name, ni.n, ni.k,
               pub[i].k_bits / (ni.p), ni.rank, ni.m);
        CHECK(ni.qc_lifting == pub[i].q - 1 && ci.layers == ni.m / (pub[i].q - 1), "%s: layers", pub[i].name);
        gpufec_code_destroy(c);
    }
}

static void test_kn_files(void)
{
    const char* files[] = {"nbldpc/N96_K48_GF64.kn",    "nbldpc/N96_K48_GF256.kn",  "nbldpc/N512_K256_GF256.kn",
                           "nbldpc/N576_K480_GF64.kn",  "nbldpc/N576_K480_GF256.kn", "nbldpc/N720_K480_GF64.kn",
                           "nbldpc/N1440_K960_GF64.kn", "nbldpc/N2304_K1152_GF64.kn",
                           "nbldpc/N64800_K48600_GF256.kn"};
    for (size_t i = 0; i < sizeof files / sizeof *files; i++) {
        gpufec_code* c = open_test_code(files[i]);
        if (!c)
            continue;
        unsigned nb, kb, q;
        sscanf(strchr(files[i], '/') + 1, "N%u_K%u_GF%u", &nb, &kb, &q);
        gpufec_code_info ci;
        gpufec_nbldpc_info ni;
        gpufec_code_get_info(c, &ci);
        gpufec_code_nbldpc_info(c, &ni);
        CHECK(ni.q == q && ci.n_full == nb, "%s: q=%u n_full=%u", files[i], ni.q, ci.n_full);
        CHECK(ci.k <= kb + 8 * 8 && ci.k >= kb, "%s: k=%u bits (name says %u)", files[i], ci.k, kb);
        if (ni.can_encode)
            check_codewords(files[i], c, 2);
        gpufec_code_destroy(c);
    }
}

/* ---- decoding ---- */

static void round_trip(const char* name, int alg, int sched, int early, double ebn0, int frames, int max_fail)
{
    gpufec_code* c = open_test_code(name);
    if (!c)
        return;
    gpufec_code_info ci;
    gpufec_code_get_info(c, &ci);
    gpufec_decoder_opts o;
    gpufec_decoder_opts_default(&o);
    o.backend = GPUFEC_BACKEND_CPU;
    test_set(&o, "nb_algorithm", gpufec_nb_algorithm_name(alg));
    o.schedule = sched;
    o.max_iterations = 20;
    o.early_termination = early;
    gpufec_decoder* dec = NULL;
    CHECK(gpufec_decoder_create(&dec, c, &o) == GPUFEC_OK, "%s: decoder", name);
    /* Without early termination, what is checked is that iterating on keeps a codeword once
     * found: the same decoder with early termination follows the same path and stops there, so
     * a frame counts as failed where it decoded and this one did not. A frame that neither
     * decodes is the channel's (its rate at the test's Eb/N0 is not zero), counted apart. */
    gpufec_decoder* ref = NULL;
    if (!early) {
        o.early_termination = 1;
        CHECK(gpufec_decoder_create(&ref, c, &o) == GPUFEC_OK, "%s: decoder with early termination", name);
        o.early_termination = 0;
    }
    const double sigma = sqrt(1.0 / (2.0 * ci.rate * pow(10.0, ebn0 / 10.0)));
    uint8_t* info = malloc(ci.k);
    uint8_t* tx = malloc(ci.n);
    uint8_t* out = malloc(ci.k);
    float* llr = malloc(ci.n * sizeof *llr);
    int fails = 0, ref_fails = 0;
    for (int f = 0; f < frames; f++) {
        for (uint32_t i = 0; i < ci.k; i++)
            info[i] = (uint8_t)(test_rand() & 1);
        gpufec_code_encode(c, info, 1, tx);
        for (uint32_t i = 0; i < ci.n; i++) {
            const double y = (tx[i] ? -1.0 : 1.0) + sigma * test_gauss();
            llr[i] = (float)(2.0 * y / (sigma * sigma));
        }
        int32_t it = 0;
        uint8_t conv = 0;
        gpufec_decoder_decode(dec, llr, 1, out, &it, &conv);
        const int same = memcmp(out, info, ci.k) == 0;
        if (ref) {
            gpufec_decoder_decode(ref, llr, 1, out, NULL, NULL);
            const int ref_same = memcmp(out, info, ci.k) == 0;
            ref_fails += !ref_same;
            fails += ref_same && !same;
        } else {
            fails += !same;
        }
        if (!conv)
            CHECK(it == 20, "%s: not converged after %d iterations", name, it);
    }
    CHECK(fails <= max_fail, "%s %s %s at %.1f dB: %d of %d frames wrong%s", name, alg ? "min-max" : "fft-bp",
          sched == GPUFEC_SCHEDULE_LAYERED ? "layered" : "flooding", ebn0, fails, frames,
          ref ? " that early termination decoded" : "");
    /* (the comparison needs frames that decode) */
    CHECK(2 * ref_fails <= frames, "%s at %.1f dB: %d of %d frames not decoded with early termination", name, ebn0,
          ref_fails, frames);
    /* An erased frame (all zeros) and a NaN frame are not decoded. */
    for (uint32_t i = 0; i < ci.n; i++)
        llr[i] = 0.0f;
    uint8_t conv = 1;
    gpufec_decoder_decode(dec, llr, 1, out, NULL, &conv);
    CHECK(conv == 0, "%s: an erased frame reported decoded", name);
    for (uint32_t i = 0; i < ci.n; i++)
        llr[i] = NAN;
    conv = 1;
    gpufec_decoder_decode(dec, llr, 1, out, NULL, &conv);
    CHECK(conv == 0, "%s: a NaN frame reported decoded", name);
    free(info), free(tx), free(out), free(llr);
    gpufec_decoder_destroy(dec);
    gpufec_decoder_destroy(ref);
    gpufec_code_destroy(c);
}

/* Fresh random frames each run: at these Eb/N0 a frame fails now and then (nb-gf16-504 FFT-BP
 * flooding at 3.0 dB: 1 of 6 in about one run of a hundred), so one failure in 6 frames is
 * allowed; a broken decoder fails them all. */
static void test_decoding(void)
{
    for (int alg = 0; alg < 2; alg++)
        for (int sched = GPUFEC_SCHEDULE_FLOODING; sched <= GPUFEC_SCHEDULE_LAYERED; sched++) {
            round_trip("nb-gf64-504", alg, sched, 1, 3.0, 6, 1);
            round_trip("nbldpc/N96_K48_GF256.kn", alg, sched, 1, 4.0, 6, 1);
            /* Iterating on after convergence must keep the codeword (a layered FFT-BP decoder
             * whose cost clamp equalled its message floor lost it within a few iterations). */
            round_trip("nb-gf64-504", alg, sched, 0, 2.5, 6, 0);
        }
    round_trip("nb-qc-gf32-744", GPUFEC_NB_MIN_MAX, GPUFEC_SCHEDULE_LAYERED, 1, 5.0, 4, 0);
    round_trip("nb-gf16-504", GPUFEC_NB_FFT_BP, GPUFEC_SCHEDULE_FLOODING, 1, 3.0, 6, 1);
}

/* ---- files ---- */

static gpufec_status open_text(const char* text, const char* ext, gpufec_diag* d)
{
    char path[64];
    snprintf(path, sizeof path, "/tmp/gpufec_nb_test%s", ext);
    FILE* f = fopen(path, "w");
    fputs(text, f);
    fclose(f);
    gpufec_code* c = NULL;
    gpufec_status st = gpufec_code_open(&c, path, d);
    gpufec_code_destroy(c);
    remove(path);
    return st;
}

static void test_bad_files(void)
{
    const struct { const char* text; const char* ext; const char* says; } bad[] = {
        {"4 2 64\n2 2 2 2\n4 4\n1 0 2 0 3 0 4 0\n1 1 2 2 3 3 4 4\n", ".kn", NULL},      /* valid */
        {"4 2 64\n2 2 2 2\n4 4\n1 0 2 0 3 0 4 0\n1 1 2 2 3 3 4\n", ".kn", "line"},     /* short */
        {"4 2 64\n2 2 2 2\n4 4\n1 0 2 0 3 0 4 0\n1 1 2 2 3 3 5 4\n", ".kn", "column"},  /* col 5 */
        {"4 2 64\n2 2 2 2\n4 4\n1 0 2 0 3 0 4 0\n1 1 2 2 3 3 4 63\n", ".kn", "exponent"},
        {"4 2 64\n2 2 2 2\n4 4\n1 0 1 0 3 0 4 0\n1 1 2 2 3 3 4 4\n", ".kn", NULL},      /* twice */
        {"4 2 63\n2 2 2 2\n4 4\n1 0 2 0 3 0 4 0\n1 1 2 2 3 3 4 4\n", ".kn", "q=63"},
        {"4000000 2 64\n", ".kn", "symbols"},
        {"4 2 64\n2 2 x 2\n", ".kn", "line 2"},
        {"nbalist 1\n4 2 64 67\n4 1 1 2 1 3 1 4 1\n4 1 5 2 6 3 7 4 8\n", "", NULL},
        {"nbalist 1\n4 2 64 67\n4 1 1 2 1 3 1 4 1\n4 1 5 2 6 3 7 4 64\n", ".nbalist", "coefficient"},
        {"nbalist 1\n4 2 64 66\n", ".nbalist", "primitive"},
        {"nbalist 1\n4 2 64 67\n4 1 1 2 1 3 1 4 1\n", ".nbalist", "ends early"},
        /* issue 21: more pairs than the degree (they were dropped), and another format version */
        {"nbalist 1\n4 2 64 67\n3 1 1 2 1 3 1 4 1\n4 1 5 2 6 3 7 4 8\n", ".nbalist", "more numbers than its degree"},
        {"nbalist 1x\n4 2 64 67\n4 1 1 2 1 3 1 4 1\n4 1 5 2 6 3 7 4 8\n", ".nbalist", "nbalist 1"},
        {"nbalist 10\n4 2 64 67\n4 1 1 2 1 3 1 4 1\n4 1 5 2 6 3 7 4 8\n", ".nbalist", "nbalist 1"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        gpufec_diag d = {0, ""};
        gpufec_status st = open_text(bad[i].text, bad[i].ext, &d);
        if (i == 0 || i == 8) {
            CHECK(st == GPUFEC_OK, "valid file %zu refused: %s", i, d.message);
            continue;
        }
        CHECK(st != GPUFEC_OK, "bad file %zu accepted", i);
        CHECK(d.message[0] != '\0', "bad file %zu: no message", i);
        if (bad[i].says)
            CHECK(strstr(d.message, bad[i].says) != NULL, "bad file %zu: '%s' does not say '%s'", i, d.message,
                  bad[i].says);
    }
    /* Mutations of a valid file: each opens or fails cleanly (the sanitizer build watches). */
    const char* base = "12 6 256\n\n2 2 2 2 2 2 2 2 2 2 2 2\n4 4 4 4 4 4\n\n2 112 6 120 7 42 8 35\n"
                       "1 5 3 9 9 200 11 3\n4 17 5 1 10 4 12 77\n1 8 2 9 3 10 4 11\n5 1 6 2 11 3 12 4\n"
                       "7 1 8 2 9 3 10 4\n";
    char buf[512];
    const char alphabet[] = "0123456789 \n-x#";
    int opened = 0;
    for (int t = 0; t < 400; t++) {
        strcpy(buf, base);
        const size_t len = strlen(buf);
        for (int k = 0; k < 1 + (int)(test_rand() % 4); k++) {
            const size_t at = test_rand() % len;
            switch (test_rand() % 3) {
            case 0: buf[at] = alphabet[test_rand() % (sizeof alphabet - 1)]; break;
            case 1: buf[at] = '\0'; break; /* truncation */
            default: memmove(buf + at + 1, buf + at, strlen(buf + at) + 1 < sizeof buf - at - 1 ? strlen(buf + at) + 1 : 0);
                buf[at] = '9';
            }
        }
        gpufec_diag d = {0, ""};
        opened += open_text(buf, ".kn", &d) == GPUFEC_OK;
    }
    printf("mutated .kn files: %d of 400 still valid codes\n", opened);
}

static void test_export_roundtrip(void)
{
    gpufec_code* a = open_test_code("nb-gf16-504");
    if (!a)
        return;
    char path[] = "/tmp/gpufec_nb_rtXXXXXX";
    int fd = mkstemp(path);
    close(fd);
    CHECK(gpufec_code_export_nbalist(a, path) == GPUFEC_OK, "export");
    gpufec_code* b = NULL;
    gpufec_diag d = {0, ""};
    CHECK(gpufec_code_open(&b, path, &d) == GPUFEC_OK, "read back (no extension, by its first line): %s", d.message);
    remove(path);
    if (b) {
        gpufec_code_info ia, ib;
        gpufec_code_get_info(a, &ia);
        gpufec_code_get_info(b, &ib);
        CHECK(ia.k == ib.k && ia.n_full == ib.n_full && ia.edges == ib.edges, "same sizes");
        uint8_t* info = malloc(ia.k);
        uint8_t* cw = malloc(ia.n_full);
        for (uint32_t i = 0; i < ia.k; i++)
            info[i] = (uint8_t)(test_rand() & 1);
        gpufec_code_encode_full(a, info, 1, cw);
        uint32_t w = 1;
        gpufec_code_syndrome_weight(b, cw, &w);
        CHECK(w == 0, "a codeword of the original violates %u checks of the copy", w);
        free(info), free(cw);
        gpufec_code_destroy(b);
    }
    gpufec_code_destroy(a);
    gpufec_code* c = NULL;
    gpufec_diag d2 = {0, ""};
    CHECK(gpufec_code_open(&c, "nb-gf12-504", &d2) == GPUFEC_ERR_UNKNOWN_CODE && strstr(d2.message, "q must"),
          "nb-gf12-504: %s", d2.message);
    CHECK(gpufec_code_open(&c, "nb-gf64-505", &d2) == GPUFEC_ERR_UNKNOWN_CODE && strstr(d2.message, "multiple"),
          "nb-gf64-505: %s", d2.message);
    /* issue 21: a leading zero made another name of the same code; a code over the size limits
     * was built (seconds) before it was refused */
    CHECK(gpufec_code_open(&c, "nb-gf064-504", &d2) == GPUFEC_ERR_UNKNOWN_CODE && !c, "nb-gf064-504 opened");
    CHECK(gpufec_code_open(&c, "nb-gf64-0504", &d2) == GPUFEC_ERR_UNKNOWN_CODE && !c, "nb-gf64-0504 opened");
    /* refused from its parameters ("would have"), not after building the graph ("has") */
    CHECK(gpufec_code_open(&c, "nb-gf4-500000", &d2) == GPUFEC_ERR_TOO_LARGE && strstr(d2.message, "would have"),
          "nb-gf4-500000: %s", d2.message);
    gpufec_decoder_opts o;
    gpufec_decoder_opts_default(&o);
    char v[32];
    CHECK(gpufec_decoder_opts_set(&o, "nb_algorithm", "fft-bp", NULL) == GPUFEC_OK &&
              gpufec_decoder_opts_get(&o, "nb_algorithm", v, sizeof v) == GPUFEC_OK && strcmp(v, "fft-bp") == 0,
          "nb_algorithm by name");
    CHECK(gpufec_decoder_opts_set(&o, "nb_algorithm", "7", &d2) == GPUFEC_ERR_INVALID_ARGUMENT &&
              strstr(d2.message, "nb_algorithm"), "bad nb_algorithm: %s", d2.message);
}

int main(void)
{
    test_rng_init();
    test_field();
    test_rules();
    test_builtin();
    test_kn_files();
    test_decoding();
    test_bad_files();
    test_export_roundtrip();
    TEST_DONE();
}
