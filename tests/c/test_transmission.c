/* The transmission map and the family-neutral code object: custom transmission orders with
 * repetition decode exactly like the mother code fed the summed soft values (computed here,
 * independently); encoding follows the order; bad positions are refused with a reason and leave
 * the code unchanged; every option belongs to the common set or a family. */
#include "test_util.h"

typedef struct {
    gpufec_algorithm alg;
    gpufec_schedule schedule;
    int simd;
} variant;

static const variant VARIANTS[] = {
    {GPUFEC_ALG_SPA, GPUFEC_SCHEDULE_FLOODING, 0}, {GPUFEC_ALG_SPA, GPUFEC_SCHEDULE_LAYERED, 0},
    {GPUFEC_ALG_MS, GPUFEC_SCHEDULE_FLOODING, 0},  {GPUFEC_ALG_NMS, GPUFEC_SCHEDULE_LAYERED, 0},
    {GPUFEC_ALG_NMS, GPUFEC_SCHEDULE_LAYERED, 1},  {GPUFEC_ALG_OMS, GPUFEC_SCHEDULE_LAYERED, 1},
    {GPUFEC_ALG_GALLAGER_B, GPUFEC_SCHEDULE_FLOODING, 0}, {GPUFEC_ALG_PGAB, GPUFEC_SCHEDULE_FLOODING, 0},
};

/* The rule, restated: NaN -> 0, clamp to +-1e4, copies summed in transmitted order, clamp. */
static float clampf(float x) { return x < -1.0e4f ? -1.0e4f : x > 1.0e4f ? 1.0e4f : x; }
static float sanitize(float x) { return x != x ? 0.0f : clampf(x); }

static gpufec_decoder* cpu_decoder(const gpufec_code* c, variant v, gpufec_output out)
{
    gpufec_decoder_opts o;
    gpufec_decoder_opts_default(&o);
    o.backend = GPUFEC_BACKEND_CPU;
    test_set_alg(&o, v.alg);
    o.schedule = v.schedule;
    test_set_int(&o, "cpu_simd", v.simd);
    o.max_iterations = 30;
    o.output = out;
    gpufec_decoder* d = NULL;
    gpufec_status st = gpufec_decoder_create(&d, c, &o);
    CHECK(st == GPUFEC_OK, "create: %s", gpufec_status_str(st));
    return d;
}

static void repetition_equals_summed_mother(const char* name)
{
    gpufec_code* plain = open_test_code(name);
    gpufec_code* rep = open_test_code(name);
    gpufec_code_info pi, ri;
    gpufec_code_get_info(plain, &pi);
    uint32_t* pos = NULL;
    const uint32_t extra = pi.n_full / 3;
    const uint32_t n = test_repeat_transmission(rep, extra, &pos);
    gpufec_code_get_info(rep, &ri);
    CHECK(ri.n == n && ri.n_full == pi.n_full && ri.repeated == extra && ri.punctured == 0 && ri.k == pi.k,
          "%s: info n=%u repeated=%u punctured=%u k=%u", name, ri.n, ri.repeated, ri.punctured, ri.k);
    CHECK(ri.family == GPUFEC_FAMILY_LDPC && strcmp(gpufec_family_name(ri.family), "ldpc") == 0, "family");

    const size_t frames = 24;
    uint8_t* u = malloc(frames * pi.k);
    uint8_t* full = malloc(frames * pi.n_full);
    uint8_t* x = malloc(frames * n);
    float* llr = malloc(frames * n * sizeof *llr);
    float* mother = malloc(frames * pi.n_full * sizeof *mother);
    for (size_t i = 0; i < frames * pi.k; i++)
        u[i] = (uint8_t)(test_rand() & 1);
    CHECK(gpufec_code_encode(rep, u, frames, x) == GPUFEC_OK, "encode");
    CHECK(gpufec_code_encode_full(plain, u, frames, full) == GPUFEC_OK, "encode full");
    int order_ok = 1;
    for (size_t f = 0; f < frames; f++)
        for (uint32_t t = 0; t < n; t++)
            order_ok &= x[f * n + t] == full[f * pi.n_full + pos[t]];
    CHECK(order_ok, "%s: transmitted bit t is not mother bit positions[t]", name);

    /* About 1.9 dB Es/N0 per copy: most frames decode, some do not (both paths exercised). */
    const double sigma = 0.8;
    for (size_t i = 0; i < frames * n; i++)
        llr[i] = (float)(2.0 * ((x[i] ? -1.0 : 1.0) + sigma * test_gauss()) / (sigma * sigma));
    llr[5] = NAN;
    llr[n + 7] = INFINITY;
    llr[2 * n + 9] = -1.0e30f;
    for (size_t f = 0; f < frames; f++) {
        float* m = mother + f * pi.n_full;
        int* seen = calloc(pi.n_full, sizeof *seen);
        for (uint32_t t = 0; t < n; t++) {
            const uint32_t j = pos[t];
            const float v = sanitize(llr[f * n + t]);
            m[j] = seen[j]++ ? m[j] + v : v;
        }
        for (uint32_t j = 0; j < pi.n_full; j++)
            m[j] = clampf(m[j]);
        free(seen);
    }
    for (size_t v = 0; v < sizeof VARIANTS / sizeof *VARIANTS; v++) {
        gpufec_decoder* a = cpu_decoder(rep, VARIANTS[v], GPUFEC_OUTPUT_FULL_CODEWORD);
        gpufec_decoder* b = cpu_decoder(plain, VARIANTS[v], GPUFEC_OUTPUT_FULL_CODEWORD);
        uint8_t *oa = malloc(frames * pi.n_full), *ob = malloc(frames * pi.n_full);
        int32_t ia[24], ib[24];
        uint8_t ca[24], cb[24];
        CHECK(gpufec_decoder_decode(a, llr, frames, oa, ia, ca) == GPUFEC_OK, "decode repeated");
        CHECK(gpufec_decoder_decode(b, mother, frames, ob, ib, cb) == GPUFEC_OK, "decode mother");
        CHECK(memcmp(oa, ob, frames * pi.n_full) == 0 && memcmp(ia, ib, sizeof ia) == 0 &&
                  memcmp(ca, cb, sizeof ca) == 0,
              "%s, %s/%s: the repeated frame decodes differently from its summed mother frame", name,
              gpufec_algorithm_name(VARIANTS[v].alg), gpufec_schedule_name(VARIANTS[v].schedule));
        int decoded = 0;
        for (size_t f = 0; f < frames; f++)
            decoded += ca[f];
        if (VARIANTS[v].alg == GPUFEC_ALG_NMS)
            CHECK(decoded >= (int)frames / 2, "%s: only %d of %zu frames decoded with repetition", name, decoded,
                  frames);
        free(oa);
        free(ob);
        gpufec_decoder_destroy(a);
        gpufec_decoder_destroy(b);
    }
    /* The transmitted-codeword output follows the transmission order, repeats included. */
    gpufec_decoder* d = cpu_decoder(rep, VARIANTS[3], GPUFEC_OUTPUT_CODEWORD);
    uint32_t in_len = 0, out_len = 0;
    gpufec_decoder_frame_sizes(d, &in_len, &out_len);
    CHECK(in_len == n && out_len == n, "frame sizes %u %u, expected %u", in_len, out_len, n);
    uint8_t* cw = malloc(frames * n);
    uint8_t* fw = malloc(frames * pi.n_full);
    gpufec_decoder* e = cpu_decoder(rep, VARIANTS[3], GPUFEC_OUTPUT_FULL_CODEWORD);
    gpufec_decoder_decode(d, llr, frames, cw, NULL, NULL);
    gpufec_decoder_decode(e, llr, frames, fw, NULL, NULL);
    int same = 1;
    for (size_t f = 0; f < frames; f++)
        for (uint32_t t = 0; t < n; t++)
            same &= cw[f * n + t] == fw[f * pi.n_full + pos[t]];
    CHECK(same, "%s: codeword output is not the decoded mother bits in transmitted order", name);
    gpufec_decoder_destroy(d);
    gpufec_decoder_destroy(e);
    free(cw);
    free(fw);
    free(u);
    free(full);
    free(x);
    free(llr);
    free(mother);
    free(pos);
    gpufec_code_destroy(plain);
    gpufec_code_destroy(rep);
}

static void bad_positions(void)
{
    gpufec_code* c = open_test_code("wifi-648-1_2:k=300"); /* filler: information positions 300..323 */
    gpufec_code_info before, after;
    gpufec_code_get_info(c, &before);
    CHECK(before.shortened == 24 && before.k == 300, "shortened %u k %u", before.shortened, before.k);
    uint32_t pos[4] = {0, 1, 700, 2};
    gpufec_diag d = {0, ""};
    CHECK(gpufec_code_set_transmission(c, pos, 4, &d) == GPUFEC_ERR_INVALID_ARGUMENT &&
              strstr(d.message, "700") && strstr(d.message, "past the mother codeword"),
          "out of range: %s", d.message);
    pos[2] = 310;
    CHECK(gpufec_code_set_transmission(c, pos, 4, &d) == GPUFEC_ERR_INVALID_ARGUMENT && strstr(d.message, "filler"),
          "filler: %s", d.message);
    CHECK(gpufec_code_set_transmission(c, pos, 0, &d) == GPUFEC_ERR_INVALID_ARGUMENT, "n = 0");
    CHECK(gpufec_code_set_transmission(c, NULL, 4, &d) == GPUFEC_ERR_INVALID_ARGUMENT, "NULL positions");
    gpufec_code_get_info(c, &after);
    CHECK(memcmp(&before, &after, sizeof before) == 0, "a refused transmission changed the code");
    /* Leaving positions out punctures them; filler bits stay filler. */
    uint32_t* keep = malloc(before.n_full * sizeof *keep);
    uint32_t n = 0;
    for (uint32_t j = 0; j < before.n_full; j++)
        if ((j < 300 || j >= 324) && j % 10 != 7)
            keep[n++] = j;
    CHECK(gpufec_code_set_transmission(c, keep, n, &d) == GPUFEC_OK, "puncture by omission: %s", d.message);
    gpufec_code_get_info(c, &after);
    CHECK(after.n == n && after.shortened == 24 && after.punctured == before.n_full - 24 - n && after.repeated == 0,
          "n %u shortened %u punctured %u", after.n, after.shortened, after.punctured);
    /* Hard-decision decoders refuse punctured codes (no channel bit to vote with). */
    gpufec_decoder_opts o;
    gpufec_decoder_opts_default(&o);
    test_set_alg(&o, GPUFEC_ALG_GALLAGER_B);
    CHECK(gpufec_decoder_opts_check(&o, c, &d) == GPUFEC_ERR_UNSUPPORTED && strstr(d.message, "punctured"),
          "hard decoder on punctured code: %s", d.message);
    free(keep);
    gpufec_code_destroy(c);
}

static void options_by_family(void)
{
    int ldpc = 0, common = 0;
    for (size_t i = 0; i < gpufec_decoder_param_count(); i++) {
        gpufec_param_info p;
        gpufec_decoder_param_info(i, &p);
        CHECK(p.family && p.applies, "%s: family/applies missing", p.name);
        ldpc += strcmp(p.family, "ldpc") == 0;
        common += p.family[0] == '\0';
        /* "option=value|value&option=value": real options and real choices */
        char terms[160];
        snprintf(terms, sizeof terms, "%s", p.applies);
        char* save_term = NULL;
        for (char* term = strtok_r(terms, "&", &save_term); term; term = strtok_r(NULL, "&", &save_term)) {
            char* eq = strchr(term, '=');
            CHECK(eq != NULL, "%s: applies '%s'", p.name, p.applies);
            if (!eq)
                continue;
            *eq = '\0';
            gpufec_decoder_opts o;
            gpufec_decoder_opts_default(&o);
            char* save_value = NULL;
            for (char* v = strtok_r(eq + 1, "|", &save_value); v; v = strtok_r(NULL, "|", &save_value)) {
                gpufec_diag d;
                CHECK(gpufec_decoder_opts_set(&o, term, v, &d) == GPUFEC_OK, "%s applies under %s=%s: %s", p.name,
                      term, v, d.message);
            }
        }
    }
    CHECK(ldpc >= 10 && common >= 6, "ldpc options %d, common %d", ldpc, common);
    gpufec_decoder_opts o;
    gpufec_decoder_opts_default(&o);
    gpufec_output out;
    CHECK(gpufec_output_from_name("full-codeword", &out) == GPUFEC_OK && out == GPUFEC_OUTPUT_FULL_CODEWORD &&
              strcmp(gpufec_output_name(GPUFEC_OUTPUT_CODEWORD), "codeword") == 0,
          "output names");
}

int main(void)
{
    test_rng_init();
    repetition_equals_summed_mother("mackay-1008-504");
    repetition_equals_summed_mother("wifi-648-1_2");
    bad_positions();
    options_by_family();
    TEST_DONE();
}
