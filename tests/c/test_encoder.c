/* Encoder: random information -> zero syndrome, for every test matrix and built-in code; the
 * information bits sit where info_positions says; K = N - rank(H). */
#include "test_util.h"

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
    CHECK(info.k == info.n - info.rank, "%s: k %u != n %u - rank %u", name, info.k, info.n, info.rank);
    CHECK(info.rank <= info.m, "%s: rank above m", name);
    const size_t frames = 4;
    uint8_t* u = malloc(frames * info.k);
    uint8_t* x = malloc(frames * info.n);
    uint8_t* back = malloc(frames * info.k);
    uint32_t* pos = malloc(info.k * sizeof *pos);
    for (size_t i = 0; i < frames * info.k; i++)
        u[i] = (uint8_t)(test_rand() & 1);
    CHECK(gpufec_code_encode(c, u, frames, x) == GPUFEC_OK, "%s: encode", name);
    gpufec_code_info_positions(c, pos);
    for (size_t f = 0; f < frames; f++) {
        uint32_t w = 99;
        gpufec_code_syndrome_weight(c, x + f * info.n, &w);
        CHECK(w == 0, "%s frame %zu: syndrome weight %u", name, f, w);
        for (uint32_t i = 0; i < info.k; i++)
            if (x[f * info.n + pos[i]] != u[f * info.k + i]) {
                CHECK(0, "%s: info bit %u not at position %u", name, i, pos[i]);
                break;
            }
    }
    for (uint32_t i = 1; i < info.k; i++)
        CHECK(pos[i] > pos[i - 1], "%s: positions not ascending", name);
    gpufec_code_extract_info(c, x, frames, back);
    CHECK(memcmp(back, u, frames * info.k) == 0, "%s: extract_info", name);
    /* A single flipped bit is never a codeword for these codes (all columns non-zero). */
    x[test_rand() % info.n] ^= 1;
    uint32_t w = 0;
    gpufec_code_syndrome_weight(c, x, &w);
    CHECK(w > 0, "%s: flipped word still has zero syndrome", name);
    free(u);
    free(x);
    free(back);
    free(pos);
}

int main(void)
{
    test_rng_init();
    for (size_t i = 0; i < sizeof FILES / sizeof *FILES; i++) {
        gpufec_code* c = open_test_code(FILES[i]);
        check_code(FILES[i], c);
        gpufec_code_destroy(c);
    }
    for (size_t i = 0; i < gpufec_code_builtin_count(); i++) {
        gpufec_code* c = open_test_code(gpufec_code_builtin_name(i));
        check_code(gpufec_code_builtin_name(i), c);
        gpufec_code_destroy(c);
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
