/* Encoder: random information -> zero syndrome, for every test matrix and built-in code; the
 * information bits sit where info_positions says; K = N - rank(H). */
#include "test_util.h"

#include <unistd.h>

static const char* FILES[] = {
    "MACKAY_4000_8000.alist", "WIMAX_288_576.alist", "ccsds_c2_8176_7154.alist",
    "ar4ja_r12_k1024.alist", "96.33.966.alist", "816.55.178.alist", "wimax_576_0_5.alist",
    "wimax_2304_0_83.alist", "80211n_648_5_6.txt", "80211n_1944_2_3.txt", "simple_g_matrix.alist",
    "n_0100_k_0058_gen_matrix.alist", "PNB2_512_23C1.alist",
};

static void check_code(const char* name, gpufec_code* c)
{
    gpufec_code_info info;
    CHECK(gpufec_code_get_info(c, &info) == GPUFEC_OK, "%s: info", name);
    CHECK(info.k == info.n_full - info.rank - info.shortened, "%s: k %u != n_full %u - rank %u - shortened %u", name,
          info.k, info.n_full, info.rank, info.shortened);
    CHECK(info.rank <= info.m, "%s: rank above m", name);
    const size_t frames = 4;
    const uint32_t n = info.n_full;
    CHECK(info.n + info.punctured + info.shortened == info.n_full, "%s: lengths %u+%u+%u != %u", name,
          info.n, info.punctured, info.shortened, info.n_full);
    uint8_t* u = malloc(frames * info.k);
    uint8_t* x = malloc(frames * n);
    uint8_t* tx = malloc(frames * info.n);
    uint8_t* back = malloc(frames * info.k);
    uint32_t* pos = malloc(info.k * sizeof *pos);
    for (size_t i = 0; i < frames * info.k; i++)
        u[i] = (uint8_t)(test_rand() & 1);
    CHECK(gpufec_code_encode_full(c, u, frames, x) == GPUFEC_OK, "%s: encode", name);
    CHECK(gpufec_code_encode(c, u, frames, tx) == GPUFEC_OK, "%s: encode", name);
    gpufec_code_info_positions(c, pos);
    for (size_t f = 0; f < frames; f++) {
        uint32_t w = 99;
        gpufec_code_syndrome_weight(c, x + f * n, &w);
        CHECK(w == 0, "%s frame %zu: syndrome weight %u", name, f, w);
        for (uint32_t i = 0; i < info.k; i++)
            if (x[f * n + pos[i]] != u[f * info.k + i]) {
                CHECK(0, "%s: info bit %u not at position %u", name, i, pos[i]);
                break;
            }
    }
    for (uint32_t i = 1; i < info.k; i++)
        CHECK(pos[i] > pos[i - 1], "%s: positions not ascending", name);
    gpufec_code_extract_info(c, x, frames, back);
    CHECK(memcmp(back, u, frames * info.k) == 0, "%s: extract_info", name);
    /* A single flipped bit is never a codeword for these codes (all columns non-zero). */
    x[test_rand() % n] ^= 1;
    uint32_t w = 0;
    gpufec_code_syndrome_weight(c, x, &w);
    CHECK(w > 0, "%s: flipped word still has zero syndrome", name);
    free(u);
    free(x);
    free(tx);
    free(back);
    free(pos);
}

/* Structured encoders (QC dual-diagonal, DVB-S2) against the generic GF(2) encoder of the same
 * matrix, reached independently through an exported alist. */
static void check_bit_exact(const char* name)
{
    gpufec_code* c = open_test_code(name);
    char path[] = "/tmp/gpufec_enc_XXXXXX";
    int fd = mkstemp(path);
    close(fd);
    CHECK(gpufec_code_export_alist(c, path) == GPUFEC_OK, "%s: export", name);
    gpufec_code* g = NULL;
    gpufec_diag d = {0, ""};
    CHECK(gpufec_code_from_alist_file(&g, path, &d) == GPUFEC_OK, "%s: reopen: %s", name, d.message);
    remove(path);
    if (!g) {
        gpufec_code_destroy(c);
        return;
    }
    gpufec_code_info ic, ig;
    gpufec_code_get_info(c, &ic);
    gpufec_code_get_info(g, &ig);
    /* Compare on the full code: the generic one knows nothing of puncturing. */
    CHECK(ig.n_full == ic.n_full && ig.k == ic.k + ic.shortened, "%s: sizes differ", name);
    const uint32_t k = ig.k;
    uint32_t* pc = malloc(ic.k * sizeof *pc);
    uint32_t* pg = malloc(k * sizeof *pg);
    gpufec_code_info_positions(c, pc);
    gpufec_code_info_positions(g, pg);
    CHECK(memcmp(pc, pg, ic.k * sizeof *pc) == 0, "%s: information positions differ", name);
    uint8_t* u = calloc(k, 1);
    uint8_t* xc = malloc(ig.n_full);
    uint8_t* xg = malloc(ig.n_full);
    for (int r = 0; r < 3; r++) {
        for (uint32_t i = 0; i < ic.k; i++)
            u[i] = (uint8_t)(test_rand() & 1);
        gpufec_code_encode_full(c, u, 1, xc);
        gpufec_code_encode_full(g, u, 1, xg);
        CHECK(memcmp(xc, xg, ig.n_full) == 0, "%s: structured and generic encoders differ", name);
    }
    free(u);
    free(xc);
    free(xg);
    free(pc);
    free(pg);
    gpufec_code_destroy(g);
    gpufec_code_destroy(c);
}

int main(void)
{
    test_rng_init();
    for (size_t i = 0; i < sizeof FILES / sizeof *FILES; i++) {
        gpufec_code* c = open_test_code(FILES[i]);
        check_code(FILES[i], c);
        gpufec_code_destroy(c);
    }
    int quick = getenv("GPUFEC_QUICK") != NULL;
    for (size_t i = 0; i < gpufec_code_builtin_count(); i++) {
        const char* bn = gpufec_code_builtin_name(i);
        if (quick && strncmp(bn, "regular-3-6-16000", 17) == 0)
            continue; /* PEG construction of N=16000 takes ~15 s */
        gpufec_code* c = open_test_code(bn);
        gpufec_code_info si;
        gpufec_code_get_info(c, &si);
        if (si.family != GPUFEC_FAMILY_LDPC) { /* parity checks: LDPC only (turbo: test_turbo.c) */
            gpufec_code_destroy(c);
            continue;
        }
        check_code(bn, c);
        int want = !strncmp(bn, "5gnr", 4) || !strncmp(bn, "wimax", 5) || !strncmp(bn, "wifi", 4) ||
                   !strncmp(bn, "dvbs2", 5);
        CHECK(!want || si.structured_encoder, "%s: no linear-time encoder", bn);
        gpufec_code_destroy(c);
    }
    const char* exact[] = {"wimax-576-1_2", "wimax-576-2_3a", "wimax-576-2_3b", "wimax-576-3_4a",
                           "wimax-576-3_4b", "wimax-576-5_6", "wimax-1248-2_3b", "wifi-648-1_2",
                           "wifi-1296-5_6", "wifi-1944-3_4", "5gnr-bg1-z2", "5gnr-bg1-z15",
                           "5gnr-bg1-z13", "5gnr-bg2-z2", "5gnr-bg2-z24", "5gnr-bg2-z52",
                           "5gnr-bg1-z26", "5gnr-bg2-z9", "5gnr-bg1-z7", "dvbs2-short-1_2",
                           "dvbs2-short-8_9"};
    for (size_t i = 0; i < sizeof exact / sizeof *exact; i++)
        check_bit_exact(exact[i]);

    /* 5G NR: every lifting size of both base graphs has a structured encoder and the standard's
     * sizes (K = 22Z / 10Z, 2Z punctured); shortening by suffix. */
    for (size_t i = 0; i < gpufec_code_builtin_count(); i++) {
        const char* bn = gpufec_code_builtin_name(i);
        unsigned bg, z;
        if (sscanf(bn, "5gnr-bg%u-z%u", &bg, &z) != 2)
            continue;
        gpufec_code* c = open_test_code(bn);
        gpufec_code_info ci;
        gpufec_code_get_info(c, &ci);
        CHECK(ci.k == (bg == 1 ? 22 : 10) * z && ci.punctured == 2 * z && ci.qc_lifting == z &&
                  ci.n_full == (bg == 1 ? 68 : 52) * z,
              "%s: k %u punctured %u n_full %u", bn, ci.k, ci.punctured, ci.n_full);
        gpufec_code_destroy(c);
    }
    {
        gpufec_code* c = open_test_code("5gnr-bg1-z384:k=8000");
        gpufec_code_info ci;
        gpufec_code_get_info(c, &ci);
        CHECK(ci.k == 8000 && ci.shortened == 448 && ci.n == 66 * 384 - 448, "shortened 5G: k %u n %u", ci.k, ci.n);
        check_code("5gnr-bg1-z384:k=8000", c);
        gpufec_code_destroy(c);
        gpufec_code* bad = NULL;
        gpufec_diag d = {0, ""};
        CHECK(gpufec_code_open(&bad, "5gnr-bg1-z384:k=9000", &d) == GPUFEC_ERR_PARSE, "over-long K'");
        CHECK(gpufec_code_open(&bad, "5gnr-bg1-z384:k=x", &d) == GPUFEC_ERR_PARSE, "bad suffix");
        CHECK(gpufec_code_open(&bad, "5gnr-bg1-z17", &d) != GPUFEC_OK, "Z=17 is not a lifting size");
        CHECK(gpufec_code_open(&bad, "regular-3-3-100", &d) == GPUFEC_ERR_PARSE, "bad regular code");
    }
    {
        gpufec_code* c = open_test_code("regular-4-8-600");
        gpufec_code_info ci;
        gpufec_code_get_info(c, &ci);
        CHECK(ci.n == 600 && ci.m == 300 && ci.edges == 2400 && ci.max_var_degree == 4 && ci.max_check_degree == 8,
              "regular-4-8-600: %u %u %u", ci.n, ci.m, ci.edges);
        check_code("regular-4-8-600", c);
        gpufec_code_destroy(c);
        gpufec_code* a = open_test_code("ar4ja-1_2-4096");
        gpufec_code_get_info(a, &ci);
        CHECK(ci.n == 8192 && ci.k == 4096 && ci.punctured == 2048, "ar4ja 4096: %u %u %u", ci.n, ci.k, ci.punctured);
        gpufec_code_destroy(a);
        gpufec_code* d = open_test_code("dvbs2-normal-2_3");
        gpufec_code_get_info(d, &ci);
        CHECK(ci.n == 64800 && ci.k == 43200, "dvbs2 normal 2/3: %u %u", ci.n, ci.k);
        gpufec_code_destroy(d);
    }

    /* Known facts: CCSDS C2 has two redundant rows (rank 1020 of 1022); Wi-Fi rate 5/6 K. */
    gpufec_code* c2 = open_test_code("ccsds_c2_8176_7154.alist");
    gpufec_code_info info;
    gpufec_code_get_info(c2, &info);
    CHECK(info.m == 1022 && info.rank == 1020 && info.k == 7156, "C2 m %u rank %u k %u", info.m, info.rank, info.k);
    gpufec_code_destroy(c2);
    gpufec_code* wifi = open_test_code("wifi-1944-5_6");
    gpufec_code_get_info(wifi, &info);
    CHECK(info.n == 1944 && info.k == 1620, "wifi 1944 5/6: %u %u", info.n, info.k);
    gpufec_code_destroy(wifi);
    TEST_DONE();
}
