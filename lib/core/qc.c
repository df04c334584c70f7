/* Quasi-cyclic prototype-matrix reader (IEEE 802.11n / 802.16e style tables). */
#include "code_internal.h"
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

gpufec_status gpufec_code_from_qc_text(gpufec_code** out, const char* text, size_t length,
                                       uint32_t lifting, gpufec_diag* diag)
{
    if (!out || (!text && length))
        return GPUFEC_ERR_INVALID_ARGUMENT;
    *out = NULL;
    if (diag) {
        diag->line = 0;
        diag->message[0] = '\0';
    }
    if (!text)
        text = "";
    uint32_t z = lifting ? lifting : lifting_from_comments(text, length);
    if (z == 0)
        return text_fail(diag, 0, "lifting size Z unknown: pass it, or put 'Z=<n>' in a leading comment");
    if (z > GPUFEC_MAX_CODE_LENGTH)
        return text_fail(diag, 0, "lifting size Z=%u is too large", z);

    /* Block table, one int per block: the shift, or -1 for a zero block. Bounded by the text. */
    size_t cap = length / 2 + 1, count = 0;
    long* shifts = malloc(cap * sizeof *shifts);
    if (!shifts)
        return GPUFEC_ERR_OUT_OF_MEMORY;
    text_reader r;
    text_reader_init(&r, text, length, diag);
    text_line ln;
    uint32_t cols = 0, rows = 0;
    gpufec_status st = GPUFEC_OK;
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
            } else if (v >= (long)z) {
                st = text_fail(diag, ln.line, "shift %ld is not below the lifting size Z=%u", v, z);
                goto fail;
            }
            shifts[count++] = v;
            in_row++;
        }
        if (rows == 0)
            cols = in_row;
        else if (in_row != cols) {
            st = text_fail(diag, ln.line, "block row %u has %u entries, the first row has %u",
                           rows + 1, in_row, cols);
            goto fail;
        }
        rows++;
    }
    if (rows == 0) {
        st = text_fail(diag, 0, "no prototype matrix rows found");
        goto fail;
    }
    if ((uint64_t)cols * z > GPUFEC_MAX_CODE_LENGTH || (uint64_t)rows * z > GPUFEC_MAX_CODE_LENGTH) {
        st = text_fail(diag, 0, "%u x %u blocks of Z=%u exceed the size limit", rows, cols, z);
        goto fail;
    }
    {
        const uint32_t n = cols * z, m = rows * z;
        uint64_t edges = 0;
        for (size_t t = 0; t < count; t++)
            edges += shifts[t] >= 0 ? z : 0;
        if (edges > GPUFEC_MAX_EDGES) {
            st = text_fail(diag, 0, "the expanded matrix has too many edges");
            goto fail;
        }
        uint32_t* col_ptr = calloc((size_t)n + 1, sizeof *col_ptr);
        uint32_t* col_rows = malloc((size_t)edges * sizeof *col_rows + 1);
        if (!col_ptr || !col_rows) {
            free(col_ptr);
            free(col_rows);
            st = GPUFEC_ERR_OUT_OF_MEMORY;
            goto fail;
        }
        uint32_t e = 0;
        for (uint32_t bc = 0; bc < cols; bc++)
            for (uint32_t c = 0; c < z; c++) {
                /* Row br*Z + r holds its one at column (r + s) mod Z, so column c of the block
                 * has its one at row (c - s) mod Z; block rows are visited in order, so each
                 * column's rows come out ascending. */
                for (uint32_t br = 0; br < rows; br++) {
                    long s = shifts[(size_t)br * cols + bc];
                    if (s >= 0)
                        col_rows[e++] = br * z + (uint32_t)((c + z - (uint32_t)s) % z);
                }
                col_ptr[bc * z + c + 1] = e;
            }
        for (uint32_t j = 0; j < n; j++)
            if (col_ptr[j + 1] == col_ptr[j]) {
                st = text_fail(diag, 0, "block column %u is all zero blocks", j / z + 1);
                break;
            }
        uint32_t* row_deg = st ? NULL : calloc(m, sizeof *row_deg);
        if (!st && !row_deg)
            st = GPUFEC_ERR_OUT_OF_MEMORY;
        for (uint32_t t = 0; !st && t < e; t++)
            row_deg[col_rows[t]]++;
        for (uint32_t i = 0; !st && i < m; i++)
            if (!row_deg[i])
                st = text_fail(diag, 0, "block row %u is all zero blocks", i / z + 1);
        free(row_deg);
        if (!st)
            st = code_build(out, n, m, col_ptr, col_rows, diag);
        free(col_ptr);
        free(col_rows);
    }
fail:
    free(shifts);
    return st;
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
