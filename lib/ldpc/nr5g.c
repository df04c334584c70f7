/* 3GPP TS 38.212 LDPC codes: base graph BG1 (46 x 68) or BG2 (42 x 52) lifted by Z, shift
 * V(iLS) mod Z where iLS is the lifting set holding Z (Table 5.3.2-1). As the standard
 * transmits them, the first 2Z systematic bits are punctured; filler bits shorten the
 * information part (K' <= K). */
#include "ldpc_code.h"
#include "text_reader.h"

#include <stdlib.h>
#include <string.h>

/* Lifting set index of z, or -1. */
static int lifting_set(const char* sets, size_t len, uint32_t z)
{
    text_reader r;
    text_line ln;
    text_reader_init(&r, sets, len, NULL);
    for (int ils = 0; text_reader_next_line(&r, &ln); ils++) {
        const char* p = ln.begin;
        long v;
        while (text_next_token(&p, ln.end, &v, 0) == TOKEN_INT)
            if ((uint32_t)v == z)
                return ils;
    }
    return -1;
}

/* Every lifting size of all sets, ascending (at most `cap`); returns the count. */
size_t nr5g_lifting_sizes(const char* sets, size_t len, uint32_t* out, size_t cap)
{
    text_reader r;
    text_line ln;
    size_t count = 0;
    text_reader_init(&r, sets, len, NULL);
    while (text_reader_next_line(&r, &ln)) {
        const char* p = ln.begin;
        long v;
        while (text_next_token(&p, ln.end, &v, 0) == TOKEN_INT && count < cap)
            out[count++] = (uint32_t)v;
    }
    for (size_t i = 1; i < count; i++) /* insertion sort: 51 entries */
        for (size_t j = i; j > 0 && out[j] < out[j - 1]; j--) {
            uint32_t t = out[j];
            out[j] = out[j - 1];
            out[j - 1] = t;
        }
    return count;
}

uint32_t nr5g_kept_columns(uint32_t kb, uint32_t nb, const uint8_t* drop_row, int32_t* new_col)
{
    uint32_t kept = 0;
    for (uint32_t j = 0; j < nb; j++)
        new_col[j] = j >= kb && drop_row && drop_row[j - kb] ? -1 : (int32_t)kept++;
    return kept;
}

gpufec_status nr5g_code(ldpc_code** out, const char* bg, size_t bg_len, const char* sets,
                        size_t sets_len, uint32_t z, const uint8_t* drop_row, gpufec_diag* diag)
{
    int ils = lifting_set(sets, sets_len, z);
    if (ils < 0)
        return text_fail(diag, 0, "Z=%u is not a 5G NR lifting size (TS 38.212 Table 5.3.2-1)", z);
    /* First pass: dimensions. */
    text_reader r;
    text_line ln;
    uint32_t mb = 0, nb = 0;
    text_reader_init(&r, bg, bg_len, diag);
    while (text_reader_next_line(&r, &ln)) {
        const char* p = ln.begin;
        long row, col;
        if (text_next_token(&p, ln.end, &row, 0) != TOKEN_INT ||
            text_next_token(&p, ln.end, &col, 0) != TOKEN_INT || row > 1000 || col > 1000)
            return text_fail(diag, ln.line, "not a base graph entry");
        mb = (uint32_t)row + 1 > mb ? (uint32_t)row + 1 : mb;
        nb = (uint32_t)col + 1 > nb ? (uint32_t)col + 1 : nb;
    }
    /* Rows dropped (rate matching sends nothing of their parity column) go with that column:
     * new_row / new_col renumber what is kept. */
    const uint32_t kb = nb - mb;
    int32_t* shifts = malloc((size_t)mb * nb * sizeof *shifts + (size_t)(mb + nb) * sizeof(int32_t) + 1);
    if (!shifts)
        return GPUFEC_ERR_OUT_OF_MEMORY;
    int32_t *new_row = shifts + (size_t)mb * nb, *new_col = new_row + mb;
    uint32_t mk = 0;
    const uint32_t nk = nr5g_kept_columns(kb, nb, drop_row, new_col);
    for (uint32_t i = 0; i < mb; i++)
        new_row[i] = drop_row && drop_row[i] ? -1 : (int32_t)mk++;
    for (size_t t = 0; t < (size_t)mb * nb; t++)
        shifts[t] = -1;
    text_reader_init(&r, bg, bg_len, diag);
    while (text_reader_next_line(&r, &ln)) {
        const char* p = ln.begin;
        long row, col, v = 0;
        text_next_token(&p, ln.end, &row, 0);
        text_next_token(&p, ln.end, &col, 0);
        for (int s = 0; s <= ils; s++)
            if (text_next_token(&p, ln.end, &v, 0) != TOKEN_INT) {
                free(shifts);
                return text_fail(diag, ln.line, "base graph entry lacks set %d", ils);
            }
        if (new_row[row] >= 0 && new_col[col] >= 0)
            shifts[(size_t)new_row[row] * nk + (size_t)new_col[col]] = (int32_t)((uint32_t)v % z);
    }
    ldpc_code* c = NULL;
    gpufec_status st = qc_code_build(&c, mk, nk, z, shifts, diag);
    free(shifts);
    if (st)
        return st;
    c->nr_bg = mb == 46 ? 1 : 2; /* the full base graph's rows: BG1 46, BG2 42 */
    c->build_punctured = calloc(c->n, 1);
    if (!c->build_punctured) {
        ldpc_free(c);
        return GPUFEC_ERR_OUT_OF_MEMORY;
    }
    memset(c->build_punctured, 1, 2 * (size_t)z);
    *out = c;
    return GPUFEC_OK;
}
