/* Opening GF(q) LDPC codes: built-in names and files (.kn, .nbalist). */
#include "nb_code.h"
#include "text_reader.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The QC codes of seed 001: field, sub-array size; the sub-array starts at row 0 and column
 * col0 of the base array (clear of its zero diagonal). */
typedef struct {
    const char* name;
    uint32_t q, dv, dc, col0;
} nb_qc_entry;

static const nb_qc_entry QC_CODES[] = {
    {"nb-qc-gf32-744", 32, 3, 24, 3},   /* (744, 653) over GF(32) in bits: 3 x 24 circulants of 31 */
    {"nb-qc-gf32-837", 32, 4, 27, 4},   /* (837, 726): 4 x 27 */
    {"nb-qc-gf64-1512", 64, 3, 24, 3},  /* (1512, 1323) over GF(64): 3 x 24 circulants of 63 */
};
#define QC_COUNT (sizeof QC_CODES / sizeof *QC_CODES)

/* Regular codes listed by gpufec-info (any nb-gf<q>-<bits> opens). Seed 000's sizes. */
static const char* const REGULAR_CODES[] = {
    "nb-gf8-504",    "nb-gf8-1152",    "nb-gf8-5040",   "nb-gf16-504",  "nb-gf16-1152", "nb-gf16-5040",
    "nb-gf32-505",   "nb-gf32-1155",   "nb-gf32-5040",  "nb-gf64-504",  "nb-gf64-1152", "nb-gf64-5040",
    "nb-gf256-504",  "nb-gf256-1152",  "nb-gf256-5040",
};
#define REGULAR_COUNT (sizeof REGULAR_CODES / sizeof *REGULAR_CODES)

size_t nb_builtin_count(void) { return QC_COUNT + REGULAR_COUNT; }

const char* nb_builtin_name(size_t index)
{
    if (index < QC_COUNT)
        return QC_CODES[index].name;
    index -= QC_COUNT;
    return index < REGULAR_COUNT ? REGULAR_CODES[index] : NULL;
}

/* nb-gf064-504 is not a name of nb-gf64-504: no leading zero. */
static int parse_u32(const char* s, uint32_t* v)
{
    const size_t len = strlen(s);
    return !(len > 1 && s[0] == '0') && text_parse_u32(s, len, v);
}

static gpufec_status no_options(const char* suffix, gpufec_diag* diag)
{
    if (suffix && *suffix)
        return text_fail(diag, 0, "GF(q) LDPC codes take no ':' options (found ':%.40s')", suffix);
    return GPUFEC_OK;
}

gpufec_status nb_open_name(gpufec_code** out, const char* name, const char* suffix, gpufec_diag* diag)
{
    if (strncmp(name, "nb-", 3) != 0)
        return GPUFEC_ERR_UNKNOWN_CODE;
    gpufec_status st = GPUFEC_ERR_UNKNOWN_CODE;
    for (size_t i = 0; i < QC_COUNT; i++)
        if (strcmp(name, QC_CODES[i].name) == 0) {
            if ((st = no_options(suffix, diag)))
                return st;
            return nb_build_qc(out, QC_CODES[i].q, QC_CODES[i].dv, QC_CODES[i].dc, 0, QC_CODES[i].col0, diag);
        }
    char qtext[8];
    const char* dash = strchr(name + 5, '-');
    uint32_t q = 0, bits = 0;
    if (strncmp(name, "nb-gf", 5) == 0 && dash && (size_t)(dash - name - 5) < sizeof qtext) {
        memcpy(qtext, name + 5, (size_t)(dash - name - 5));
        qtext[dash - name - 5] = '\0';
        if (parse_u32(qtext, &q) && parse_u32(dash + 1, &bits)) {
            if ((st = no_options(suffix, diag)))
                return st;
            return nb_build_regular(out, q, bits, 1, diag);
        }
    }
    return text_fail_as(GPUFEC_ERR_UNKNOWN_CODE, diag, 0,
                        "'%.60s': GF(q) LDPC names are nb-qc-gf32-744, nb-qc-gf32-837, nb-qc-gf64-1512 or "
                        "nb-gf<q>-<information bits>",
                        name);
}

static int has_suffix(const char* s, const char* suffix)
{
    const size_t a = strlen(s), b = strlen(suffix);
    return a >= b && strcmp(s + a - b, suffix) == 0;
}

/* .kn by its extension; .nbalist by its extension or its first line. Other files are not this
 * family's (the LDPC family reads them as alist). */
gpufec_status nb_open_file(gpufec_code** out, const char* path, const char* suffix, gpufec_diag* diag)
{
    const int kn = has_suffix(path, ".kn");
    int nbalist = has_suffix(path, ".nbalist");
    if (!kn && !nbalist) {
        FILE* f = path_is_regular_file(path) ? fopen(path, "rb") : NULL;
        char head[10] = {0};
        if (f) {
            nbalist = fread(head, 1, 9, f) == 9 && memcmp(head, "nbalist 1", 9) == 0;
            fclose(f);
        }
        if (!nbalist)
            return GPUFEC_ERR_UNKNOWN_CODE;
    }
    gpufec_status st = no_options(suffix, diag);
    if (st)
        return st;
    char* text;
    size_t len;
    if ((st = read_whole_file(path, (size_t)1 << 26, &text, &len, diag)))
        return st;
    st = kn ? nb_read_kn(out, text, len, diag) : nb_read_nbalist(out, text, len, diag);
    free(text);
    return st;
}
