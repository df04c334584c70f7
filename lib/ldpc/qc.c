/* Quasi-cyclic prototype-matrix reader (IEEE 802.11n / 802.16e style tables). */
#include "ldpc_code.h"
#include "text_reader.h"

#include <stdlib.h>
#include <string.h>

/* Finds "Z=<n>" in the leading '#' comment lines; 0 when absent. */
static uint32_t lifting_from_comments(const char* text, size_t length)
{
    const char* p = text;
    const char* end = text + length;
    while (p < end) {
        while (p < end && (*p == ' ' || *p == '\t'))
            p++;
        if (p == end || *p != '#')
            break;
        const char* eol = memchr(p, '\n', (size_t)(end - p));
        if (!eol)
            eol = end;
        for (const char* q = p; q + 2 < eol; q++)
            if (q[0] == 'Z' && q[1] == '=' && q[2] >= '0' && q[2] <= '9') {
                long z = 0;
                for (q += 2; q < eol && *q >= '0' && *q <= '9' && z < 100000000; q++)
                    z = z * 10 + (*q - '0');
                return (uint32_t)z;
            }
        p = eol + (eol < end);
    }
    return 0;
}

/* Reads the lines of a prototype table. A first line of exactly three numbers followed by rows
 * of that first number of entries is the CCSDS form "columns rows Z"; a line of 0/1 after its
 * table rows is a puncture mask per block column (1 = transmitted). */
gpufec_status ldpc_read_qc(ldpc_code** out, const char* text, size_t length, uint32_t lifting,
                           gpufec_diag* diag)
{
    *out = NULL;
    if (!text)
        text = "";
    size_t cap = length / 2 + 1, count = 0;
    long* vals = malloc(cap * sizeof *vals);
    uint32_t* row_len = malloc(cap * sizeof *row_len);
    int* row_line = malloc(cap * sizeof *row_line);
    int32_t* shifts = NULL;
    uint8_t* punct = NULL;
    gpufec_status st = GPUFEC_OK;
    if (!vals || !row_len || !row_line) {
        st = GPUFEC_ERR_OUT_OF_MEMORY;
        goto fail;
    }
    text_reader r;
    text_reader_init(&r, text, length, diag);
    text_line ln;
    uint32_t lines = 0;
    while (text_reader_next_line(&r, &ln)) {
        const char* p = ln.begin;
        uint32_t in_row = 0;
        long v;
        token_kind k;
        while ((k = text_next_token(&p, ln.end, &v, 1)) != TOKEN_END) {
            if (k == TOKEN_DASH)
                v = -1;
            else if (k == TOKEN_BAD || v < -1) {
                st = text_fail(diag, ln.line, "'%.12s' is neither a shift >= 0 nor '-' / -1", p);
                goto fail;
            }
            vals[count++] = v;
            in_row++;
        }
        row_len[lines] = in_row;
        row_line[lines++] = ln.line;
    }
    if (lines == 0) {
        st = text_fail(diag, 0, "no prototype matrix rows found");
        goto fail;
    }
    size_t first = 0;
    uint32_t cols = row_len[0], rows = lines, z = lifting ? lifting : lifting_from_comments(text, length);
    int has_mask = 0;
    if (row_len[0] == 3 && lines > 1 && row_len[1] == (uint32_t)vals[0] && vals[0] > 0 && vals[1] > 0 &&
        vals[2] > 0) {
        cols = (uint32_t)vals[0];
        rows = (uint32_t)vals[1];
        if (!lifting)
            z = (uint32_t)vals[2];
        first = 3;
        if (lines != rows + 1 && lines != rows + 2) {
            st = text_fail(diag, row_line[lines - 1], "header announces %u block rows, the table has %u lines",
                           rows, lines - 1);
            goto fail;
        }
        has_mask = lines == rows + 2;
    }
    if (z == 0) {
        st = text_fail(diag, 0, "lifting size Z unknown: pass it, or put 'Z=<n>' in a leading comment");
        goto fail;
    }
    if (z > GPUFEC_MAX_CODE_LENGTH || (uint64_t)cols * z > GPUFEC_MAX_CODE_LENGTH ||
        (uint64_t)rows * z > GPUFEC_MAX_CODE_LENGTH) {
        st = text_fail(diag, 0, "%u x %u blocks of Z=%u exceed the size limit", rows, cols, z);
        goto fail;
    }
    const uint32_t line0 = first ? 1 : 0;
    for (uint32_t br = 0; br < rows; br++)
        if (row_len[line0 + br] != cols) {
            st = text_fail(diag, row_line[line0 + br], "block row %u has %u entries, expected %u", br + 1,
                           row_len[line0 + br], cols);
            goto fail;
        }
    if (has_mask && row_len[lines - 1] != cols) {
        st = text_fail(diag, row_line[lines - 1], "puncture mask has %u entries, expected %u",
                       row_len[lines - 1], cols);
        goto fail;
    }
    shifts = malloc((size_t)rows * cols * sizeof *shifts + 1);
    if (!shifts) {
        st = GPUFEC_ERR_OUT_OF_MEMORY;
        goto fail;
    }
    uint64_t edges = 0;
    for (uint32_t br = 0; br < rows; br++)
        for (uint32_t bc = 0; bc < cols; bc++) {
            long v = vals[first + (size_t)br * cols + bc];
            if (v >= (long)z) {
                st = text_fail(diag, row_line[line0 + br], "shift %ld is not below the lifting size Z=%u", v, z);
                goto fail;
            }
            shifts[(size_t)br * cols + bc] = (int32_t)v;
            edges += v >= 0 ? z : 0;
        }
    if (edges > GPUFEC_MAX_EDGES) {
        st = text_fail(diag, 0, "the expanded matrix has too many edges");
        goto fail;
    }
    for (uint32_t bc = 0; bc < cols; bc++) {
        int any = 0;
        for (uint32_t br = 0; br < rows; br++)
            any |= shifts[(size_t)br * cols + bc] >= 0;
        if (!any) {
            st = text_fail(diag, 0, "block column %u is all zero blocks", bc + 1);
            goto fail;
        }
    }
    for (uint32_t br = 0; br < rows; br++) {
        int any = 0;
        for (uint32_t bc = 0; bc < cols; bc++)
            any |= shifts[(size_t)br * cols + bc] >= 0;
        if (!any) {
            st = text_fail(diag, row_line[line0 + br], "block row %u is all zero blocks", br + 1);
            goto fail;
        }
    }
    if (has_mask) {
        punct = calloc((size_t)cols * z, 1);
        if (!punct) {
            st = GPUFEC_ERR_OUT_OF_MEMORY;
            goto fail;
        }
        const long* mask = vals + first + (size_t)rows * cols;
        for (uint32_t bc = 0; bc < cols; bc++) {
            if (mask[bc] != 0 && mask[bc] != 1) {
                st = text_fail(diag, row_line[lines - 1], "puncture mask entries must be 0 or 1");
                goto fail;
            }
            memset(punct + (size_t)bc * z, mask[bc] == 0, z);
        }
    }
    {
        ldpc_code* c = NULL;
        st = qc_code_build(&c, rows, cols, z, shifts, diag);
        if (st == GPUFEC_OK) {
            c->build_punctured = punct; /* the body owns it now */
            punct = NULL;
            *out = c;
        }
    }
fail:
    free(vals);
    free(row_len);
    free(row_line);
    free(shifts);
    free(punct);
    return st;
}

gpufec_status gpufec_code_from_qc_text(gpufec_code** out, const char* text, size_t length, uint32_t lifting,
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
    gpufec_status st = ldpc_read_qc(&body, text, length, lifting, diag);
    return st ? st : ldpc_complete(out, body, 0, diag);
}

gpufec_status gpufec_code_from_qc_file(gpufec_code** out, const char* path, uint32_t lifting,
                                       gpufec_diag* diag)
{
    if (!out || !path)
        return GPUFEC_ERR_INVALID_ARGUMENT;
    char* text;
    size_t len;
    gpufec_status st = read_whole_file(path, (size_t)1 << 26, &text, &len, diag);
    if (st)
        return st;
    st = gpufec_code_from_qc_text(out, text, len, lifting, diag);
    free(text);
    return st;
}
