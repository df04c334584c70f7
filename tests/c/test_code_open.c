/* Opening codes stays bounded (issue 8): the generic encoder's analysis is sparse (peeling plus a
 * gap of bounded size), its tables wait for the first encode and are built once under concurrent
 * encodes, over-large problems are refused with GPUFEC_ERR_TOO_LARGE and a message naming the
 * limit, and only regular files are read. Random quasi-cyclic matrices are fresh every run. */
#include "test_util.h"
#include "ldpc_code.h"

#include <pthread.h>
#include <sys/stat.h>
#include <unistd.h>

/* A QC prototype of mb x nb blocks, every block a random shift of Z x Z (no structured encoder
 * fits, so the generic one serves it). */
static char* random_qc(uint32_t z, uint32_t mb, uint32_t nb, size_t* len)
{
    size_t cap = 64 + (size_t)mb * nb * 12;
    char* t = malloc(cap);
    size_t at = (size_t)snprintf(t, cap, "# Z=%u\n", z);
    for (uint32_t r = 0; r < mb; r++)
        for (uint32_t c = 0; c < nb; c++)
            at += (size_t)snprintf(t + at, cap - at, "%u%c", (unsigned)(test_rand() % z), c + 1 < nb ? ' ' : '\n');
    *len = at;
    return t;
}

static void check_encodes(gpufec_code* c, const char* what, int frames)
{
    gpufec_code_info ci;
    gpufec_code_get_info(c, &ci);
    uint8_t* u = malloc(ci.k);
    uint8_t* x = malloc(ci.n_full);
    for (int f = 0; f < frames; f++) {
        for (uint32_t i = 0; i < ci.k; i++)
            u[i] = (uint8_t)(test_rand() & 1);
        CHECK(gpufec_code_encode_full(c, u, 1, x) == GPUFEC_OK, "%s: encode", what);
        uint32_t w = 1;
        gpufec_code_syndrome_weight(c, x, &w);
        CHECK(w == 0, "%s: syndrome weight %u", what, w);
        uint32_t* pos = malloc(ci.k * sizeof *pos);
        gpufec_code_info_positions(c, pos);
        for (uint32_t i = 0; i < ci.k; i++)
            if (x[pos[i]] != u[i]) {
                CHECK(0, "%s: information bit %u not at its position", what, i);
                break;
            }
        free(pos);
    }
    free(u);
    free(x);
}

typedef struct {
    gpufec_code* code;
    int ok;
} worker_arg;

static void* encode_worker(void* p)
{
    worker_arg* a = p;
    gpufec_code_info ci;
    gpufec_code_get_info(a->code, &ci);
    uint8_t* u = calloc(ci.k, 1);
    uint8_t* x = malloc(ci.n_full);
    for (uint32_t i = 0; i < ci.k; i += 3)
        u[i] = 1;
    uint32_t w = 1;
    a->ok = gpufec_code_encode_full(a->code, u, 1, x) == GPUFEC_OK &&
            gpufec_code_syndrome_weight(a->code, x, &w) == GPUFEC_OK && w == 0;
    free(u);
    free(x);
    return NULL;
}

int main(void)
{
    test_rng_init();
    gpufec_diag d = {0, ""};

    /* 1. A rank-deficient QC code of N = 14400 with full blocks (column degree 12): the dense
     *    elimination took M*N/8 bytes and ~M^2 N/64 operations; the sparse analysis opens it at
     *    once. Redundant rows: each block row sums to the all-ones word, so rank <= M - 11. */
    {
        size_t len;
        char* t = random_qc(600, 12, 24, &len);
        gpufec_code* c = NULL;
        gpufec_status st = gpufec_code_from_qc_text(&c, t, len, 0, &d);
        CHECK(st == GPUFEC_OK, "QC 12x24 Z=600: %s", d.message);
        if (c) {
            gpufec_code_info ci;
            gpufec_code_get_info(c, &ci);
            CHECK(ci.rank <= ci.m - 11 && ci.k == ci.n_full - ci.rank, "QC 12x24: rank %u k %u", ci.rank, ci.k);
            CHECK(!ci.structured_encoder, "QC 12x24: generic encoder expected");
            CHECK(!alt_encoder_tables_built(c), "tables built before any encode");
            /* a decoder needs none of them */
            gpufec_decoder* dec = NULL;
            gpufec_decoder_opts o;
            gpufec_decoder_opts_default(&o);
            o.backend = GPUFEC_BACKEND_CPU;
            o.max_iterations = 2;
            CHECK(gpufec_decoder_create(&dec, c, &o) == GPUFEC_OK, "decoder");
            float* llr = malloc(ci.n * sizeof *llr);
            uint8_t* bits = malloc(ci.k);
            for (uint32_t j = 0; j < ci.n; j++)
                llr[j] = 4.0f;
            CHECK(gpufec_decoder_decode(dec, llr, 1, bits, NULL, NULL) == GPUFEC_OK, "decode");
            CHECK(!alt_encoder_tables_built(c), "decoding built the encoder tables");
            gpufec_decoder_destroy(dec);
            free(llr);
            free(bits);
            /* first encodes from several threads at once: built once, every result a codeword */
            pthread_t th[4];
            worker_arg wa[4];
            for (int i = 0; i < 4; i++) {
                wa[i].code = c;
                wa[i].ok = 0;
                pthread_create(&th[i], NULL, encode_worker, &wa[i]);
            }
            for (int i = 0; i < 4; i++) {
                pthread_join(th[i], NULL);
                CHECK(wa[i].ok, "concurrent first encode %d", i);
            }
            CHECK(alt_encoder_tables_built(c), "tables not built after encoding");
            check_encodes(c, "QC 12x24", 3);
            gpufec_code_destroy(c);
        }
        free(t);
    }

    /* 2. Past the gap limit: refused at once with GPUFEC_ERR_TOO_LARGE, naming the limit. */
    {
        size_t len;
        char* t = random_qc(2000, 12, 24, &len);
        gpufec_code* c = NULL;
        gpufec_status st = gpufec_code_from_qc_text(&c, t, len, 0, &d);
        CHECK(st == GPUFEC_ERR_TOO_LARGE && !c, "QC 12x24 Z=2000: status %d", (int)st);
        CHECK(strstr(d.message, "limit") != NULL, "message names no limit: %s", d.message);
        free(t);
    }

    /* 3. Random regular codes of growing length open and encode (peeling keeps the gap small). */
    {
        const char* names[] = {"regular-3-6-1000", "regular-4-8-4000", "regular-3-6-12000"};
        for (size_t i = 0; i < sizeof names / sizeof *names; i++) {
            gpufec_code* c = open_test_code(names[i]);
            check_encodes(c, names[i], 2);
            gpufec_code_destroy(c);
        }
    }

    /* 4. Only regular files are read: a FIFO would block forever, /dev/zero never ends. */
    {
        char dir[] = "/tmp/gpufec_open_XXXXXX";
        CHECK(mkdtemp(dir) != NULL, "mkdtemp");
        char fifo[64], fifo_qc[64];
        snprintf(fifo, sizeof fifo, "%s/h.alist", dir);
        snprintf(fifo_qc, sizeof fifo_qc, "%s/h.qc", dir);
        CHECK(mkfifo(fifo, 0600) == 0 && mkfifo(fifo_qc, 0600) == 0, "mkfifo");
        gpufec_code* c = NULL;
        CHECK(gpufec_code_open(&c, fifo, &d) == GPUFEC_ERR_IO, "FIFO via open");
        CHECK(strstr(d.message, "not a regular file") != NULL, "FIFO message: %s", d.message);
        CHECK(gpufec_code_from_alist_file(&c, fifo, &d) == GPUFEC_ERR_IO, "FIFO via alist reader");
        CHECK(gpufec_code_from_qc_file(&c, fifo_qc, 0, &d) == GPUFEC_ERR_IO, "FIFO via QC reader");
        CHECK(gpufec_code_open(&c, "/dev/zero", &d) == GPUFEC_ERR_IO, "/dev/zero");
        CHECK(gpufec_code_from_alist_file(&c, "/dev/zero", &d) == GPUFEC_ERR_IO, "/dev/zero via reader");
        CHECK(gpufec_code_open(&c, dir, &d) == GPUFEC_ERR_IO, "a directory");
        CHECK(c == NULL, "no code returned");
        unlink(fifo);
        unlink(fifo_qc);
        rmdir(dir);
    }

    /* The family registry as the tools and GRC read it: every family has a label and an
     * algorithm option that is an enum of the option table with its decoders, every built-in code
     * belongs to one of them, and nothing answers past the end. */
    {
        const size_t nf = gpufec_family_count();
        CHECK(nf == 4, "%zu families", nf);
        size_t codes_seen = 0;
        for (size_t i = 0; i < nf; i++) {
            gpufec_family f;
            CHECK(gpufec_family_at(i, &f) == GPUFEC_OK, "family %zu", i);
            const char* option = gpufec_family_algorithm_option(f);
            CHECK(gpufec_family_label(f) && option, "family %s: label and option", gpufec_family_name(f));
            size_t choices = 0;
            for (size_t p = 0; option && p < gpufec_decoder_param_count(); p++) {
                gpufec_param_info info;
                gpufec_decoder_param_info(p, &info);
                if (strcmp(info.name, option) == 0)
                    choices = info.n_choices;
            }
            CHECK(choices >= 1, "family %s: option %s has %zu decoders", gpufec_family_name(f), option, choices);
            for (size_t c = 0; c < gpufec_code_builtin_count(); c++) {
                gpufec_family cf;
                codes_seen += gpufec_code_builtin_family(c, &cf) == GPUFEC_OK && cf == f;
            }
        }
        CHECK(codes_seen == gpufec_code_builtin_count(), "%zu of %zu codes in a family", codes_seen,
              gpufec_code_builtin_count());
        gpufec_family f;
        CHECK(gpufec_family_at(nf, &f) == GPUFEC_ERR_INVALID_ARGUMENT, "past the end");
        CHECK(gpufec_family_label((gpufec_family)99) == NULL && strcmp(gpufec_family_name((gpufec_family)99), "unknown") == 0,
              "not a family");
    }
    TEST_DONE();
}
