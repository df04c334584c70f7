/* Matrix readers: every malformed input is an error with a message naming the line; the
 * accepted variants (comments, CRLF, zero padding) read the same matrix; random corruption of
 * valid files never crashes (run this under ASan/UBSan too). */
#include "test_util.h"

#include <unistd.h>

static const char* HAMMING =
    "7 3\n3 4\n3 2 2 2 1 1 1\n4 4 4\n"
    "1 2 3\n1 2\n1 3\n2 3\n1\n2\n3\n"
    "1 2 3 5\n1 2 4 6\n1 3 4 7\n";

typedef struct {
    const char* what;
    const char* text;
    size_t length; /* 0: strlen */
    const char* expect; /* substring of the diagnostic */
} bad_case;

static const bad_case BAD_ALIST[] = {
    {"empty file", "", 0, "ends early"},
    {"only comments", "# nothing\n#\n", 0, "ends early"},
    {"truncated in header", "7", 0, "ends early"},
    {"truncated after degrees", "7 3\n3 4\n3 2 2 2 1 1 1\n4 4 4\n", 0, "ends early"},
    {"truncated in column lists", "7 3\n3 4\n3 2 2 2 1 1 1\n4 4 4\n1 2 3\n1 2\n", 0, "ends early"},
    {"truncated in row lists",
     "7 3\n3 4\n3 2 2 2 1 1 1\n4 4 4\n1 2 3\n1 2\n1 3\n2 3\n1\n2\n3\n1 2 3 5\n", 0, "ends early"},
    {"zero N", "0 3\n3 4\n", 0, "out of range"},
    {"negative N", "-7 3\n3 4\n", 0, "expected"},
    {"absurd N", "4000001 3\n3 4\n", 0, "out of range"},
    {"N larger than the file", "3000000 3\n3 4\n1 1 1\n", 0, "truncated"},
    {"overflowing number", "99999999999 3\n", 0, "expected"},
    {"absurd max degree", "7 3\n9 4\n3 2 2 2 1 1 1\n4 4 4\n1 2 3\n1 2\n1 3\n2 3\n1\n2\n3\n1 2 3 5\n1 2 4 6\n1 3 4 7\n", 0, "out of range"},
    {"zero column degree", "7 3\n3 4\n3 2 2 2 1 1 0\n4 4 4\n", 0, "degree 0"},
    {"column degree above max", "7 3\n2 4\n3 2 2 2 1 1 1\n4 4 4\n", 0, "outside"},
    {"max column degree not attained", "7 3\n3 4\n2 2 2 2 1 1 1\n4 4 4\n", 0, "largest"},
    {"degree sums disagree", "7 3\n3 4\n3 2 2 2 1 1 1\n4 4 3\n", 0, "add up"},
    {"row degrees add up wrong", "7 3\n3 4\n3 2 2 2 2 1 1\n4 4 4\n", 0, "add up"},
    {"extra numbers after degrees", "7 3\n3 4\n3 2 2 2 1 1 1\n4 4 4 4\n", 0, "unexpected numbers"},
    {"row index out of range", "7 3\n3 4\n3 2 2 2 1 1 1\n4 4 4\n1 2 9\n", 0, "out of range"},
    {"column lists too few", "7 3\n3 4\n3 2 2 2 1 1 1\n4 4 4\n1 2\n", 0, "degree is 3"},
    {"column lists too many", "7 3\n3 4\n3 2 2 2 1 1 1\n4 4 4\n1 2 3\n1 2 3\n", 0, "more than"},
    {"duplicate edge in column", "7 3\n3 4\n3 2 2 2 1 1 1\n4 4 4\n1 1 3\n", 0, "twice"},
    {"index after zero pad", "7 3\n3 4\n3 2 2 2 1 1 1\n4 4 4\n1 2 3\n1 0 2\n", 0, "zero pad"},
    {"non-numeric byte", "7 3\n3 4\n3 2 2 2 1 1 1\n4 4 4\n1 2 x\n", 0, "not a non-negative"},
    {"binary garbage", "7 3\n\x01\xff\xfe 4\n3 2 2 2 1 1 1\n4 4 4\n1 2 3\n1 2\n1 3\n2 3\n1\n2\n3\n1 2 3 5\n1 2 4 6\n1 3 4 7\n", 0, "expected"},
    {"NUL byte", "7 3\n3\0 4\n3 2 2 2 1 1 1\n4 4 4\n1 2 3\n1 2\n1 3\n2 3\n1\n2\n3\n1 2 3 5\n1 2 4 6\n1 3 4 7\n", 70, "expected"},
    {"decimal point", "7 3\n3.0 4\n3 2 2 2 1 1 1\n4 4 4\n1 2 3\n1 2\n1 3\n2 3\n1\n2\n3\n1 2 3 5\n1 2 4 6\n1 3 4 7\n", 0, "expected"},
    {"rows disagree with columns",
     "7 3\n3 4\n3 2 2 2 1 1 1\n4 4 4\n1 2 3\n1 2\n1 3\n2 3\n1\n2\n3\n1 2 3 4\n1 2 5 6\n1 3 4 7\n", 0,
     "does not list"},
    {"duplicate edge in row",
     "7 3\n3 4\n3 2 2 2 1 1 1\n4 4 4\n1 2 3\n1 2\n1 3\n2 3\n1\n2\n3\n1 2 3 3\n1 2 4 6\n1 3 4 7\n", 0,
     "twice"},
    {"data after the last row",
     "7 3\n3 4\n3 2 2 2 1 1 1\n4 4 4\n1 2 3\n1 2\n1 3\n2 3\n1\n2\n3\n1 2 3 5\n1 2 4 6\n1 3 4 7\n8\n", 0,
     "unexpected data"},
    {"full column rank", "2 2\n1 1\n1 1\n1 1\n1\n2\n1\n2\n", 0, "no information bits"},
};

static const bad_case BAD_QC[] = {
    {"no lifting size", "0 1 -\n- 0 1\n", 0, "lifting size"},
    {"shift not below Z", "# Z=4\n0 4\n", 0, "not below"},
    {"ragged rows", "# Z=4\n0 1 2\n0 1\n", 0, "entries"},
    {"bad token", "# Z=4\n0 x\n", 0, "neither"},
    {"shift below -1", "# Z=4\n0 -2\n", 0, "neither"},
    {"empty table", "# Z=4\n", 0, "no prototype"},
    {"all-zero block column", "# Z=4\n0 - 1\n1 - 0\n", 0, "all zero"},
};

static void check_bad(const bad_case* c, int qc)
{
    gpufec_code* code = (gpufec_code*)0x1;
    gpufec_diag d = {0, ""};
    size_t len = c->length ? c->length : strlen(c->text);
    gpufec_status st = qc ? gpufec_code_from_qc_text(&code, c->text, len, 0, &d)
                          : gpufec_code_from_alist_text(&code, c->text, len, &d);
    CHECK(st == GPUFEC_ERR_PARSE, "%s: status %d (%s)", c->what, st, d.message);
    CHECK(code == NULL, "%s: output not cleared", c->what);
    CHECK(strstr(d.message, c->expect) != NULL, "%s: message '%s' lacks '%s'", c->what,
          d.message, c->expect);
    for (const char* p = d.message; *p; p++)
        CHECK(*p >= 32 && *p < 127, "%s: unprintable byte in message", c->what);
}

/* Two codes are the same matrix when they export to identical alist text. */
static char* export_text(const gpufec_code* c)
{
    char path[] = "/tmp/gpufec_test_XXXXXX";
    int fd = mkstemp(path);
    if (fd < 0)
        return NULL;
    close(fd);
    if (gpufec_code_export_alist(c, path) != GPUFEC_OK)
        return NULL;
    FILE* f = fopen(path, "rb");
    char* buf = calloc(1, 1 << 22);
    size_t n = fread(buf, 1, (1 << 22) - 1, f);
    buf[n] = 0;
    fclose(f);
    remove(path);
    return buf;
}

static void check_same(const char* what, const char* a, const char* b)
{
    gpufec_code *ca = NULL, *cb = NULL;
    gpufec_diag d = {0, ""};
    CHECK(gpufec_code_from_alist_text(&ca, a, strlen(a), &d) == GPUFEC_OK, "%s: %s", what, d.message);
    CHECK(gpufec_code_from_alist_text(&cb, b, strlen(b), &d) == GPUFEC_OK, "%s: %s", what, d.message);
    if (ca && cb) {
        char* ta = export_text(ca);
        char* tb = export_text(cb);
        CHECK(ta && tb && strcmp(ta, tb) == 0, "%s: matrices differ", what);
        free(ta);
        free(tb);
    }
    gpufec_code_destroy(ca);
    gpufec_code_destroy(cb);
}

static char* crlf(const char* s)
{
    char* out = malloc(2 * strlen(s) + 1);
    char* o = out;
    for (; *s; s++) {
        if (*s == '\n')
            *o++ = '\r';
        *o++ = *s;
    }
    *o = 0;
    return out;
}

static void fuzz(const char* base, size_t len, int qc, int rounds)
{
    char* buf = malloc(len + 64);
    static const char alphabet[] = "0123456789 \n\r#-x\t0 1";
    for (int r = 0; r < rounds; r++) {
        size_t n = len;
        memcpy(buf, base, len);
        int edits = 1 + (int)(test_rand() % 4);
        for (int e = 0; e < edits; e++) {
            size_t at = (size_t)(test_rand() % (n ? n : 1));
            switch (test_rand() % 4) {
            case 0: buf[at] = alphabet[test_rand() % (sizeof alphabet - 1)]; break;
            case 1: buf[at] = (char)(test_rand() & 0xff); break;
            case 2: n = at; break; /* truncate */
            default:
                if (n + 1 < len + 64) {
                    memmove(buf + at + 1, buf + at, n - at);
                    buf[at] = alphabet[test_rand() % 10];
                    n++;
                }
            }
        }
        gpufec_code* c = NULL;
        gpufec_diag d = {0, ""};
        gpufec_status st = qc ? gpufec_code_from_qc_text(&c, buf, n, 0, &d)
                              : gpufec_code_from_alist_text(&c, buf, n, &d);
        CHECK(st == GPUFEC_OK || st == GPUFEC_ERR_PARSE, "fuzz round %d: status %d", r, st);
        CHECK((st == GPUFEC_OK) == (c != NULL), "fuzz round %d: output/status mismatch", r);
        if (st == GPUFEC_ERR_PARSE)
            CHECK(d.message[0] != 0, "fuzz round %d: error without a message", r);
        if (c) {
            /* Whatever was accepted must be a consistent code: its encoder must work. */
            gpufec_code_info info;
            gpufec_code_get_info(c, &info);
            uint8_t* u = calloc(info.k, 1);
            uint8_t* x = calloc(info.n, 1);
            for (uint32_t i = 0; i < info.k; i++)
                u[i] = (uint8_t)(test_rand() & 1);
            uint32_t w = 1;
            gpufec_code_encode(c, u, 1, x);
            gpufec_code_syndrome_weight(c, x, &w);
            CHECK(w == 0, "fuzz round %d: accepted code does not encode", r);
            free(u);
            free(x);
            gpufec_code_destroy(c);
        }
    }
    free(buf);
}

static char* slurp(const char* name, size_t* len)
{
    char path[1024];
    snprintf(path, sizeof path, "%s/%s", getenv("GPUFEC_TEST_DATA"), name);
    FILE* f = fopen(path, "rb");
    if (!f)
        return NULL;
    char* buf = malloc(1 << 20);
    *len = fread(buf, 1, 1 << 20, f);
    fclose(f);
    return buf;
}

int main(void)
{
    test_rng_init();
    for (size_t i = 0; i < sizeof BAD_ALIST / sizeof *BAD_ALIST; i++)
        check_bad(&BAD_ALIST[i], 0);
    for (size_t i = 0; i < sizeof BAD_QC / sizeof *BAD_QC; i++)
        check_bad(&BAD_QC[i], 1);

    /* Line numbers: the bad index is on line 5. */
    {
        gpufec_code* c;
        gpufec_diag d = {0, ""};
        const char* t = "7 3\n3 4\n3 2 2 2 1 1 1\n4 4 4\n1 2 9\n";
        gpufec_code_from_alist_text(&c, t, strlen(t), &d);
        CHECK(d.line == 5 && strncmp(d.message, "line 5:", 7) == 0, "line number: %d '%s'", d.line, d.message);
    }
    /* Accepted variants read the same matrix. */
    {
        char* with_crlf = crlf(HAMMING);
        check_same("CRLF", HAMMING, with_crlf);
        free(with_crlf);
        char commented[1024];
        snprintf(commented, sizeof commented, "# a comment\n%s# trailing comment\n", HAMMING);
        check_same("comments", HAMMING, commented);
        const char* padded = "7 3\n3 4\n3 2 2 2 1 1 1\n4 4 4\n"
                             "1 2 3\n1 2 0\n1 3 0\n2 3 0\n1 0 0\n2 0 0\n3 0 0\n"
                             "1 2 3 5\n1 2 4 6\n1 3 4 7\n";
        check_same("zero padding", HAMMING, padded);
        const char* wrapped = "7 3 3 4\n3 2 2 2\n1 1 1 4 4 4\n"
                              "1 2 3\n1 2\n1 3\n2 3\n1\n2\n3\n1 2 3 5\n1 2 4 6\n1 3 4 7\n";
        check_same("header numbers wrapped over lines", HAMMING, wrapped);
    }
    /* Files and missing files. */
    {
        gpufec_code* c = NULL;
        gpufec_diag d = {0, ""};
        CHECK(gpufec_code_from_alist_file(&c, "/nonexistent/x.alist", &d) == GPUFEC_ERR_IO, "missing file");
        CHECK(gpufec_code_open(&c, "no-such-code", &d) == GPUFEC_ERR_UNKNOWN_CODE, "unknown code name");
        CHECK(strstr(d.message, "no-such-code") != NULL, "unknown code message: %s", d.message);
        CHECK(gpufec_code_open(NULL, "x", &d) == GPUFEC_ERR_INVALID_ARGUMENT, "NULL out");
    }
    /* QC reader: a known expansion. 2x3 blocks of Z=3. */
    {
        gpufec_code* c = NULL;
        gpufec_diag d = {0, ""};
        const char* t = "0 1 -\n2 - 0\n";
        CHECK(gpufec_code_from_qc_text(&c, t, strlen(t), 3, &d) == GPUFEC_OK, "qc: %s", d.message);
        if (c) {
            /* Row 0 of block row 0: columns 0 (shift 0) and 3 + 1 (shift 1). */
            uint8_t w[9] = {0};
            uint32_t s;
            w[0] = 1;
            gpufec_code_syndrome_weight(c, w, &s);
            CHECK(s == 2, "qc: column 0 should touch rows 0 and 3+1 (weight %u)", s);
            gpufec_code_info info;
            gpufec_code_get_info(c, &info);
            CHECK(info.n == 9 && info.m == 6 && info.edges == 12, "qc sizes %u %u %u", info.n, info.m, info.edges);
            gpufec_code_destroy(c);
        }
    }
    /* Fuzzing: random corruption of valid inputs. */
    fuzz(HAMMING, strlen(HAMMING), 0, 3000);
    size_t len;
    char* wimax = slurp("wimax_576_0_5.alist", &len);
    CHECK(wimax != NULL, "test data missing (GPUFEC_TEST_DATA)");
    if (wimax) {
        fuzz(wimax, len, 0, 300);
        free(wimax);
    }
    char* wifi = slurp("80211n_648_5_6.txt", &len);
    if (wifi) {
        fuzz(wifi, len, 1, 300);
        free(wifi);
    }
    TEST_DONE();
}
