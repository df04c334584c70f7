/* Readers of GF(q) parity-check matrices: the Kaiserslautern ".kn" format and our own
 * ".nbalist" (docs/formats.md). Every count is checked against the limits before anything is
 * allocated from it, and every error names its line. */
#include "nb_code.h"
#include "text_reader.h"

#include <stdlib.h>
#include <string.h>

/* All numbers of a text after its first `skip_lines` content lines, with their line numbers.
 * Bounded by the text's length (a number takes at least two bytes with its separator). */
typedef struct {
    long* v;
    int* line;
    size_t n;
} token_list;

static gpufec_status read_tokens(text_reader* r, token_list* t, size_t max_tokens)
{
    t->v = malloc((max_tokens + 1) * sizeof *t->v);
    t->line = malloc((max_tokens + 1) * sizeof *t->line);
    t->n = 0;
    if (!t->v || !t->line)
        return GPUFEC_ERR_OUT_OF_MEMORY;
    text_line ln;
    while (text_reader_next_line(r, &ln)) {
        const char* p = ln.begin;
        long x;
        token_kind k;
        while ((k = text_next_token(&p, ln.end, &x, 0)) != TOKEN_END) {
            if (k != TOKEN_INT)
                return text_fail(r->diag, ln.line, "expected a non-negative integer, found '%.16s'", p);
            if (t->n == max_tokens)
                return text_fail(r->diag, ln.line, "more numbers than the header announces");
            t->v[t->n] = x;
            t->line[t->n++] = ln.line;
        }
    }
    return GPUFEC_OK;
}

static void free_tokens(token_list* t)
{
    free(t->v);
    free(t->line);
}

static int valid_q(long q) { return q == 4 || q == 8 || q == 16 || q == 32 || q == 64 || q == 128 || q == 256; }

/* Header "N M q" of both formats: sizes checked against the limits. */
static gpufec_status check_header(text_reader* r, int line, long n, long m, long q)
{
    if (!valid_q(q))
        return text_fail(r->diag, line, "q=%ld: must be 4, 8, 16, 32, 64, 128 or 256", q);
    if (n < 2 || m < 1 || m >= n)
        return text_fail(r->diag, line, "N=%ld, M=%ld: need 0 < M < N", n, m);
    if (n > (long)NB_MAX_SYMBOLS || m > (long)NB_MAX_SYMBOLS)
        return text_fail_as(GPUFEC_ERR_TOO_LARGE, r->diag, line, "N=%ld, M=%ld: at most %u symbols", n, m,
                            NB_MAX_SYMBOLS);
    return GPUFEC_OK;
}

/* Degrees t[off .. off + count): each 1..NB_MAX_DEGREE; their sum in *sum. */
static int degrees_ok(const token_list* t, size_t off, size_t count, uint64_t* sum)
{
    *sum = 0;
    if (off + count > t->n)
        return 0;
    for (size_t i = off; i < off + count; i++) {
        if (t->v[i] < 1 || t->v[i] > (long)NB_MAX_DEGREE)
            return 0;
        *sum += (uint64_t)t->v[i];
    }
    return 1;
}

gpufec_status nb_read_kn(gpufec_code** out, const char* text, size_t length, gpufec_diag* diag)
{
    text_reader r;
    text_reader_init(&r, text, length, diag);
    token_stream ts;
    token_stream_init(&ts, &r);
    long n, m, q;
    gpufec_status st;
    if ((st = token_stream_uint(&ts, &n, "N (columns, in symbols)")) ||
        (st = token_stream_uint(&ts, &m, "M (checks)")) || (st = token_stream_uint(&ts, &q, "q")))
        return st;
    const int header_line = token_stream_line(&ts);
    if ((st = check_header(&r, header_line, n, m, q)))
        return st;
    token_stream_end_line(&ts);
    token_list t;
    st = read_tokens(&r, &t, length / 2 + 2);
    /* The layout: an optional "dv_max dc_max" pair, N column degrees, M row degrees, optionally
     * N column lines, then M row lines of (column, exponent) pairs. Which is present follows
     * from the counts: the degrees' sums give the entries E, and what remains is 2E or 4E. */
    size_t off = 0;
    uint64_t e_col = 0, e_row = 0;
    int have_cols = 0, found = 0;
    for (size_t o = 0; st == GPUFEC_OK && o <= 2 && !found; o += 2) {
        if (!degrees_ok(&t, o, (size_t)n, &e_col) || !degrees_ok(&t, o + (size_t)n, (size_t)m, &e_row) ||
            e_col != e_row)
            continue;
        const size_t rest = t.n - o - (size_t)n - (size_t)m;
        if (rest == 2 * e_row || rest == 4 * e_row) {
            off = o;
            have_cols = rest == 4 * e_row;
            found = 1;
        }
    }
    if (st == GPUFEC_OK && !found)
        st = text_fail(diag, t.n ? t.line[0] : header_line,
                       "the numbers after the header do not form [dv dc] + %ld column degrees + %ld row degrees "
                       "+ [column lines] + row lines with matching degree sums",
                       n, m);
    if (st == GPUFEC_OK && e_row > NB_MAX_EDGES)
        st = text_fail_as(GPUFEC_ERR_TOO_LARGE, diag, header_line, "%llu entries: at most %u",
                          (unsigned long long)e_row, NB_MAX_EDGES);
    if (st) {
        free_tokens(&t);
        return st;
    }
    const uint32_t E = (uint32_t)e_row, Q = (uint32_t)q;
    const long* col_deg = t.v + off;
    const long* row_deg = t.v + off + n;
    const size_t cols_at = off + (size_t)n + (size_t)m, rows_at = cols_at + (have_cols ? 2 * (size_t)E : 0);
    uint32_t* row_ptr = malloc(((size_t)m + 1) * sizeof *row_ptr);
    uint32_t* var = malloc((size_t)E * sizeof *var + 1);
    uint8_t* coef = malloc((size_t)E + 1);
    uint32_t* count = calloc((size_t)n, sizeof *count);
    nb_gf gf;
    nb_gf_init(&gf, Q, gpufec_nb_default_poly(Q));
    if (!row_ptr || !var || !coef || !count)
        st = GPUFEC_ERR_OUT_OF_MEMORY;
    size_t at = rows_at;
    for (uint32_t i = 0; st == GPUFEC_OK && i < (uint32_t)m; i++) {
        row_ptr[i] = (uint32_t)(at - rows_at) / 2;
        for (long d = 0; d < row_deg[i] && st == GPUFEC_OK; d++, at += 2) {
            const long c = t.v[at], x = t.v[at + 1];
            if (c < 1 || c > n)
                st = text_fail(diag, t.line[at], "row %u: column %ld is not 1..%ld", i + 1, c, n);
            else if (x > (long)Q - 2)
                st = text_fail(diag, t.line[at], "row %u: exponent %ld is not 0..%u", i + 1, x, Q - 2);
            else {
                var[(at - rows_at) / 2] = (uint32_t)(c - 1);
                coef[(at - rows_at) / 2] = (uint8_t)nb_gf_pow(&gf, (uint32_t)x);
                count[c - 1]++;
            }
        }
    }
    if (st == GPUFEC_OK)
        row_ptr[m] = E;
    for (uint32_t j = 0; st == GPUFEC_OK && j < (uint32_t)n; j++)
        if (count[j] != (uint32_t)col_deg[j])
            st = text_fail(diag, t.line[off + j], "column %u: degree %ld, but the rows name it %u times", j + 1,
                           col_deg[j], count[j]);
    /* The column section, where present, must list the same entries as the rows. */
    at = cols_at;
    for (uint32_t j = 0; st == GPUFEC_OK && have_cols && j < (uint32_t)n; j++)
        for (long d = 0; d < col_deg[j] && st == GPUFEC_OK; d++, at += 2) {
            const long i = t.v[at], x = t.v[at + 1];
            int match = 0;
            if (i >= 1 && i <= m && x <= (long)Q - 2)
                for (uint32_t e = row_ptr[i - 1]; e < row_ptr[i] && !match; e++)
                    match = var[e] == j && coef[e] == nb_gf_pow(&gf, (uint32_t)x);
            if (!match)
                st = text_fail(diag, t.line[at], "column %u: entry (row %ld, exponent %ld) is not in the row lines",
                               j + 1, i, x);
        }
    free(count);
    free_tokens(&t);
    if (st) {
        free(row_ptr), free(var), free(coef);
        return st;
    }
    return nb_complete(out, Q, gpufec_nb_default_poly(Q), (uint32_t)n, (uint32_t)m, row_ptr, var, coef, 0, diag);
}

gpufec_status nb_read_nbalist(gpufec_code** out, const char* text, size_t length, gpufec_diag* diag)
{
    text_reader r;
    text_reader_init(&r, text, length, diag);
    text_line ln;
    const char* tail;
    if (!text_reader_next_line(&r, &ln) || (size_t)(ln.end - ln.begin) < 9 || memcmp(ln.begin, "nbalist 1", 9) != 0)
        return text_fail(diag, 1, "expected the first line 'nbalist 1'");
    for (tail = ln.begin + 9; tail < ln.end; tail++) /* "nbalist 1x" or "nbalist 10" is another format */
        if (*tail != ' ' && *tail != '\t' && *tail != '\r')
            return text_fail(diag, ln.line, "expected the first line 'nbalist 1' (format version 1), got more after it");
    token_stream ts;
    token_stream_init(&ts, &r);
    long n, m, q, poly;
    gpufec_status st;
    if ((st = token_stream_uint(&ts, &n, "n (columns, in symbols)")) || (st = token_stream_uint(&ts, &m, "m (checks)")) ||
        (st = token_stream_uint(&ts, &q, "q")) || (st = token_stream_uint(&ts, &poly, "the primitive polynomial")))
        return st;
    const int header_line = token_stream_line(&ts);
    if ((st = check_header(&r, header_line, n, m, q)))
        return st;
    nb_gf gf;
    if (nb_gf_init(&gf, (uint32_t)q, (uint32_t)poly))
        return text_fail(diag, header_line, "polynomial %ld is not primitive of degree log2(q) for q=%ld", poly, q);
    token_stream_end_line(&ts);
    uint32_t cap = 1024;
    uint32_t* row_ptr = malloc(((size_t)m + 1) * sizeof *row_ptr);
    uint32_t* var = malloc(cap * sizeof *var);
    uint8_t* coef = malloc(cap);
    if (!row_ptr || !var || !coef)
        st = GPUFEC_ERR_OUT_OF_MEMORY;
    uint32_t e = 0;
    for (uint32_t i = 0; st == GPUFEC_OK && i < (uint32_t)m; i++) {
        long d;
        row_ptr[i] = e;
        if ((st = token_stream_uint(&ts, &d, "a check's degree")))
            break;
        const int line = token_stream_line(&ts);
        if (d < 1 || d > (long)NB_MAX_DEGREE) {
            st = text_fail(diag, line, "check %u: degree %ld is not 1..%u", i + 1, d, NB_MAX_DEGREE);
            break;
        }
        if ((uint64_t)e + (uint64_t)d > NB_MAX_EDGES) {
            st = text_fail_as(GPUFEC_ERR_TOO_LARGE, diag, line, "more than %u entries", NB_MAX_EDGES);
            break;
        }
        if (e + (uint32_t)d > cap) {
            while (e + (uint32_t)d > cap)
                cap *= 2;
            uint32_t* v2 = realloc(var, cap * sizeof *var);
            if (v2)
                var = v2;
            uint8_t* c2 = realloc(coef, cap);
            if (c2)
                coef = c2;
            if (!v2 || !c2) {
                st = GPUFEC_ERR_OUT_OF_MEMORY;
                break;
            }
        }
        for (long t = 0; t < d && st == GPUFEC_OK; t++) {
            long c, x;
            if ((st = token_stream_uint(&ts, &c, "a column")) || (st = token_stream_uint(&ts, &x, "a coefficient")))
                break;
            if (c < 1 || c > n)
                st = text_fail(diag, token_stream_line(&ts), "check %u: column %ld is not 1..%ld", i + 1, c, n);
            else if (x < 1 || x >= q)
                st = text_fail(diag, token_stream_line(&ts), "check %u: coefficient %ld is not a non-zero element of GF(%ld)",
                               i + 1, x, q);
            var[e] = (uint32_t)(c - 1);
            coef[e++] = (uint8_t)x;
        }
        if (st == GPUFEC_OK && token_stream_line_has_more(&ts))
            st = text_fail(diag, token_stream_line(&ts), "check %u: more numbers than its degree %ld gives (%ld pairs)",
                           i + 1, d, d);
        token_stream_end_line(&ts);
    }
    long extra;
    if (st == GPUFEC_OK && token_stream_uint(&ts, &extra, "") == GPUFEC_OK)
        st = text_fail(diag, token_stream_line(&ts), "numbers after the last of the %ld checks", m);
    else if (st == GPUFEC_OK && diag) {
        diag->line = 0;
        diag->message[0] = '\0';
    }
    if (st) {
        free(row_ptr), free(var), free(coef);
        return st;
    }
    row_ptr[m] = e;
    return nb_complete(out, (uint32_t)q, (uint32_t)poly, (uint32_t)n, (uint32_t)m, row_ptr, var, coef, 0, diag);
}
