/* Opening LDPC codes: the built-in table (generated from data/codes/manifest.txt), the PEG
 * names regular-<dv>-<dc>-<N>, alist and prototype-matrix files, and the ":k=" suffix. Every
 * path ends in one ldpc_complete call. */
#include "ldpc_builtin.h"
#include "ldpc_code.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int visible(const builtin_code* b) { return b->name[0] != '_'; }

size_t ldpc_builtin_count(void)
{
    size_t count = 0;
    for (size_t i = 0; i < builtin_code_table_size; i++)
        count += visible(&builtin_code_table[i]);
    return count;
}

const char* ldpc_builtin_name(size_t index)
{
    for (size_t i = 0; i < builtin_code_table_size; i++)
        if (visible(&builtin_code_table[i]) && index-- == 0)
            return builtin_code_table[i].name;
    return NULL;
}

static const builtin_code* find_entry(const char* name)
{
    for (size_t i = 0; i < builtin_code_table_size; i++)
        if (strcmp(builtin_code_table[i].name, name) == 0)
            return &builtin_code_table[i];
    return NULL;
}

/* Filler bits asked for by the suffix: ":k=<K'>" (the only LDPC option). */
static gpufec_status parse_suffix(const char* suffix, uint32_t* kprime, gpufec_diag* diag)
{
    *kprime = 0;
    if (!suffix)
        return GPUFEC_OK;
    if (strncmp(suffix, "k=", 2) != 0)
        return text_fail(diag, 0, "unknown LDPC code option ':%.40s': the only one is :k=<information bits>", suffix);
    const char* digits = suffix + 2;
    char* end;
    /* strtoul would accept "-1" (as ULONG_MAX) and leading blanks: digits only */
    unsigned long v = *digits >= '0' && *digits <= '9' ? strtoul(digits, &end, 10) : 0;
    if (v == 0 || *end || v > GPUFEC_MAX_CODE_LENGTH)
        return text_fail(diag, 0, "bad shortening suffix ':%.40s': expected :k=<information bits>, "
                         "a positive integer", suffix);
    *kprime = (uint32_t)v;
    return GPUFEC_OK;
}

static gpufec_status build_builtin(ldpc_code** out, const builtin_code* b, gpufec_diag* diag)
{
    const char* text = (const char*)b->data;
    switch (b->format) {
    case BUILTIN_QC:
        return ldpc_read_qc(out, text, b->length, b->param, diag);
    case BUILTIN_DVBS2:
        return dvbs2_code_from_table(out, text, b->length, b->param, diag);
    case BUILTIN_NR: {
        const builtin_code* sets = find_entry("_5gnr-sets");
        if (!sets)
            return GPUFEC_ERR_INTERNAL;
        return nr5g_code(out, text, b->length, (const char*)sets->data, sets->length, b->param, diag);
    }
    case BUILTIN_ALIST: {
        gpufec_status st = ldpc_read_alist(out, text, b->length, diag);
        if (st || !b->punctured_tail)
            return st;
        ldpc_code* c = *out;
        c->build_punctured = calloc(c->n, 1);
        if (!c->build_punctured) {
            ldpc_free(c);
            *out = NULL;
            return GPUFEC_ERR_OUT_OF_MEMORY;
        }
        memset(c->build_punctured + c->n - b->punctured_tail, 1, b->punctured_tail);
        return GPUFEC_OK;
    }
    default:
        return GPUFEC_ERR_UNKNOWN_CODE;
    }
}

gpufec_status ldpc_open_name(gpufec_code** out, const char* name, const char* suffix, gpufec_diag* diag)
{
    const builtin_code* b = find_entry(name);
    ldpc_code* body = NULL;
    gpufec_status st;
    unsigned dv, dc, n;
    char tail;
    if (b && b->format != BUILTIN_PEG && b->format != BUILTIN_NRSETS)
        st = build_builtin(&body, b, diag);
    else if (sscanf(name, "regular-%u-%u-%u%c", &dv, &dc, &n, &tail) == 3)
        st = peg_regular_code(&body, dv, dc, n, 1, diag);
    else
        return GPUFEC_ERR_UNKNOWN_CODE;
    uint32_t kprime = 0;
    if (st == GPUFEC_OK && (st = parse_suffix(suffix, &kprime, diag)) != GPUFEC_OK)
        ldpc_free(body);
    return st ? st : ldpc_complete(out, body, kprime, diag);
}

static int has_suffix(const char* s, const char* suffix)
{
    size_t a = strlen(s), b = strlen(suffix);
    return a >= b && strcmp(s + a - b, suffix) == 0;
}

gpufec_status ldpc_open_file(gpufec_code** out, const char* path, const char* suffix, gpufec_diag* diag)
{
    uint32_t kprime = 0;
    gpufec_status st = parse_suffix(suffix, &kprime, diag);
    if (st)
        return st;
    const int qc = has_suffix(path, ".qc") || has_suffix(path, ".txt");
    char* text;
    size_t len;
    st = read_whole_file(path, qc ? (size_t)1 << 26 : (size_t)1 << 30, &text, &len, diag);
    if (st)
        return st;
    ldpc_code* body = NULL;
    st = qc ? ldpc_read_qc(&body, text, len, 0, diag) : ldpc_read_alist(&body, text, len, diag);
    free(text);
    return st ? st : ldpc_complete(out, body, kprime, diag);
}
