/* MacKay alist reader. Every inconsistency is an error naming the line; allocations are bounded
 * by the size of the input (a list of x numbers needs at least 2x bytes), so no file can make
 * the reader allocate more than a small multiple of its own size. */
#include "ldpc_code.h"
#include "text_reader.h"

#include <stdlib.h>
#include <string.h>

static int cmp_u32(const void* a, const void* b)
{
    uint32_t x = *(const uint32_t*)a, y = *(const uint32_t*)b;
    return (x > y) - (x < y);
}

/* Reads one index line: exactly `degree` indices in [1, limit], then optional zero padding,
 * at most `max_tokens` numbers in all. Stores them 0-based in out[]. */
static gpufec_status read_index_line(text_reader* r, const char* what, uint32_t which,
                                     uint32_t degree, uint32_t max_tokens, uint32_t limit,
                                     uint32_t* out)
{
    text_line ln;
    if (!text_reader_next_line(r, &ln))
        return text_fail(r->diag, r->line - 1, "file ends early: the index list of %s %u is missing",
                         what, which + 1);
    const char* p = ln.begin;
    uint32_t count = 0, tokens = 0;
    long v;
    for (;;) {
        token_kind k = text_next_token(&p, ln.end, &v, 0);
        if (k == TOKEN_END)
            break;
        if (k != TOKEN_INT)
            return text_fail(r->diag, ln.line, "%s %u: '%.12s' is not a non-negative integer",
                             what, which + 1, p);
        if (++tokens > max_tokens)
            return text_fail(r->diag, ln.line, "%s %u: more than the %u entries its maximum degree allows",
                             what, which + 1, max_tokens);
        if (v == 0)
            continue; /* zero padding */
        if (count < tokens - 1)
            return text_fail(r->diag, ln.line, "%s %u: index %ld follows a zero pad", what,
                             which + 1, v);
        if ((unsigned long)v > limit)
            return text_fail(r->diag, ln.line, "%s %u: index %ld is out of range 1..%u", what,
                             which + 1, v, limit);
        if (count == degree)
            return text_fail(r->diag, ln.line, "%s %u lists more than its degree %u", what,
                             which + 1, degree);
        out[count++] = (uint32_t)(v - 1);
    }
    if (count != degree)
        return text_fail(r->diag, ln.line, "%s %u lists %u indices but its degree is %u", what,
                         which + 1, count, degree);
    return GPUFEC_OK;
}

gpufec_status ldpc_read_alist(ldpc_code** out, const char* text, size_t length, gpufec_diag* diag)
{
    *out = NULL;
    text_reader r;
    text_reader_init(&r, text ? text : "", length, diag);
    token_stream ts;
    token_stream_init(&ts, &r);
    long n, m, max_cd, max_rd;
    gpufec_status st;
    if ((st = token_stream_uint(&ts, &n, "the number of columns N")) ||
        (st = token_stream_uint(&ts, &m, "the number of rows M")))
        return st;
    const size_t room = length / 2 + 1; /* most numbers the text can hold */
    if (n < 1 || m < 1 || (unsigned long)n > GPUFEC_MAX_CODE_LENGTH ||
        (unsigned long)m > GPUFEC_MAX_CODE_LENGTH)
        return text_fail(diag, token_stream_line(&ts), "sizes N=%ld M=%ld are out of range 1..%u",
                         n, m, GPUFEC_MAX_CODE_LENGTH);
    if ((size_t)n + (size_t)m > room)
        return text_fail(diag, token_stream_line(&ts),
                         "file is truncated: too short to hold %ld + %ld degrees", n, m);
    if ((st = token_stream_uint(&ts, &max_cd, "the maximum column degree")) ||
        (st = token_stream_uint(&ts, &max_rd, "the maximum row degree")))
        return st;
    if (max_cd < 1 || max_cd > m || max_rd < 1 || max_rd > n)
        return text_fail(diag, token_stream_line(&ts),
                         "maximum degrees %ld %ld are out of range (1..M=%ld, 1..N=%ld)", max_cd,
                         max_rd, m, n);

    const uint32_t N = (uint32_t)n, M = (uint32_t)m;
    uint32_t* col_ptr = calloc((size_t)N + 1, sizeof *col_ptr);
    uint32_t* row_deg = calloc((size_t)M, sizeof *row_deg);
    uint32_t* col_rows = NULL;
    uint32_t* seen = NULL;
    uint32_t* buf = NULL;
    ldpc_code* code = NULL;
    if (!col_ptr || !row_deg) {
        st = GPUFEC_ERR_OUT_OF_MEMORY;
        goto done;
    }
    uint64_t edges = 0;
    long top = 0;
    for (uint32_t j = 0; j < N; j++) {
        long d;
        if ((st = token_stream_uint(&ts, &d, "a column degree")))
            goto done;
        if (d < 1 || d > max_cd) {
            st = text_fail(diag, token_stream_line(&ts),
                           "column %u has degree %ld, outside 1..%ld (the maximum column degree)",
                           j + 1, d, max_cd);
            goto done;
        }
        top = d > top ? d : top;
        edges += (uint64_t)d;
        col_ptr[j + 1] = (uint32_t)edges;
    }
    if (top != max_cd) {
        st = text_fail(diag, token_stream_line(&ts),
                       "the maximum column degree is given as %ld but the largest is %ld", max_cd, top);
        goto done;
    }
    if (edges > GPUFEC_MAX_EDGES || edges > room) {
        st = text_fail(diag, token_stream_line(&ts),
                       "column degrees add up to %llu edges, more than the file can list",
                       (unsigned long long)edges);
        goto done;
    }
    uint64_t row_edges = 0;
    top = 0;
    for (uint32_t i = 0; i < M; i++) {
        long d;
        if ((st = token_stream_uint(&ts, &d, "a row degree")))
            goto done;
        if (d < 1 || d > max_rd) {
            st = text_fail(diag, token_stream_line(&ts),
                           "row %u has degree %ld, outside 1..%ld (the maximum row degree)", i + 1,
                           d, max_rd);
            goto done;
        }
        top = d > top ? d : top;
        row_deg[i] = (uint32_t)d;
        row_edges += (uint64_t)d;
    }
    if (top != max_rd) {
        st = text_fail(diag, token_stream_line(&ts),
                       "the maximum row degree is given as %ld but the largest is %ld", max_rd, top);
        goto done;
    }
    if (row_edges != edges) {
        st = text_fail(diag, token_stream_line(&ts),
                       "row degrees add up to %llu but column degrees to %llu",
                       (unsigned long long)row_edges, (unsigned long long)edges);
        goto done;
    }
    {
        long extra;
        const char* p = ts.p;
        if (ts.have_line && text_next_token(&p, ts.cur.end, &extra, 0) != TOKEN_END) {
            st = text_fail(diag, token_stream_line(&ts), "unexpected numbers after the row degrees");
            goto done;
        }
    }
    token_stream_end_line(&ts);

    col_rows = malloc((size_t)edges * sizeof *col_rows + 1);
    seen = malloc((size_t)N * sizeof *seen);
    buf = malloc(((size_t)(max_rd > max_cd ? max_rd : max_cd)) * sizeof *buf);
    if (!col_rows || !seen || !buf) {
        st = GPUFEC_ERR_OUT_OF_MEMORY;
        goto done;
    }
    for (uint32_t j = 0; j < N; j++) {
        uint32_t deg = col_ptr[j + 1] - col_ptr[j];
        uint32_t* rows = col_rows + col_ptr[j];
        if ((st = read_index_line(&r, "column", j, deg, (uint32_t)max_cd, M, rows)))
            goto done;
        qsort(rows, deg, sizeof *rows, cmp_u32);
        for (uint32_t t = 1; t < deg; t++)
            if (rows[t] == rows[t - 1]) {
                st = text_fail(diag, r.line - 1, "column %u lists row %u twice (duplicate edge)",
                               j + 1, rows[t] + 1);
                goto done;
            }
    }
    for (uint32_t j = 0; j < N; j++)
        seen[j] = UINT32_MAX;
    for (uint32_t i = 0; i < M; i++) {
        if ((st = read_index_line(&r, "row", i, row_deg[i], (uint32_t)max_rd, N, buf)))
            goto done;
        for (uint32_t t = 0; t < row_deg[i]; t++) {
            uint32_t j = buf[t];
            if (seen[j] == i) {
                st = text_fail(diag, r.line - 1, "row %u lists column %u twice (duplicate edge)",
                               i + 1, j + 1);
                goto done;
            }
            seen[j] = i;
            uint32_t deg = col_ptr[j + 1] - col_ptr[j];
            if (!bsearch(&i, col_rows + col_ptr[j], deg, sizeof i, cmp_u32)) {
                st = text_fail(diag, r.line - 1,
                               "row %u lists column %u, but column %u does not list row %u",
                               i + 1, j + 1, j + 1, i + 1);
                goto done;
            }
        }
    }
    {
        text_line extra;
        if (text_reader_next_line(&r, &extra)) {
            st = text_fail(diag, extra.line, "unexpected data after the last row list");
            goto done;
        }
    }
    st = code_build_graph(&code, N, M, col_ptr, col_rows);
    if (st == GPUFEC_OK)
        *out = code;
done:
    free(col_ptr);
    free(row_deg);
    free(col_rows);
    free(seen);
    free(buf);
    return st;
}

gpufec_status gpufec_code_from_alist_text(gpufec_code** out, const char* text, size_t length,
                                          gpufec_diag* diag)
{
    if (!out || (!text && length))
        return GPUFEC_ERR_INVALID_ARGUMENT;
    *out = NULL;
    if (diag) {
        diag->line = 0;
        diag->message[0] = '\0';
    }
    ldpc_code* body = NULL;
    gpufec_status st = ldpc_read_alist(&body, text, length, diag);
    return st ? st : ldpc_complete(out, body, 0, diag);
}

gpufec_status gpufec_code_from_alist_file(gpufec_code** out, const char* path, gpufec_diag* diag)
{
    if (!out || !path)
        return GPUFEC_ERR_INVALID_ARGUMENT;
    char* text;
    size_t len;
    gpufec_status st = read_whole_file(path, (size_t)1 << 30, &text, &len, diag);
    if (st)
        return st;
    st = gpufec_code_from_alist_text(out, text, len, diag);
    free(text);
    return st;
}
