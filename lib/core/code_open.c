/* Opening codes by built-in name or file path. */
#include "builtin_codes.h"
#include "code_internal.h"
#include "text_reader.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static int visible(const builtin_code* b) { return b->name[0] != '_'; }

size_t gpufec_code_builtin_count(void)
{
    size_t count = 0;
    for (size_t i = 0; i < builtin_code_table_size; i++)
        count += visible(&builtin_code_table[i]);
    return count;
}

const char* gpufec_code_builtin_name(size_t index)
{
    for (size_t i = 0; i < builtin_code_table_size; i++)
        if (visible(&builtin_code_table[i]) && index-- == 0)
            return builtin_code_table[i].name;
    return NULL;
}

static const builtin_code* find_entry(const char* name, size_t len)
{
    for (size_t i = 0; i < builtin_code_table_size; i++) {
        const builtin_code* b = &builtin_code_table[i];
        if (strlen(b->name) == len && strncmp(b->name, name, len) == 0)
            return b;
    }
    return NULL;
}

static int has_suffix(const char* s, const char* suffix)
{
    size_t a = strlen(s), b = strlen(suffix);
    return a >= b && strcmp(s + a - b, suffix) == 0;
}

static gpufec_status open_builtin(gpufec_code** out, const builtin_code* b, gpufec_diag* diag)
{
    const char* text = (const char*)b->data;
    gpufec_status st;
    switch (b->format) {
    case BUILTIN_QC:
        return gpufec_code_from_qc_text(out, text, b->length, b->param, diag);
    case BUILTIN_DVBS2:
        st = dvbs2_code_from_table(out, text, b->length, b->param, diag);
        if (st == GPUFEC_OK && (st = code_finish(*out, NULL, 0, diag)) != GPUFEC_OK)
            *out = NULL; /* code_finish freed it */
        return st;
    case BUILTIN_NR: {
        const builtin_code* sets = find_entry("_5gnr-sets", strlen("_5gnr-sets"));
        if (!sets)
            return GPUFEC_ERR_INTERNAL;
        return nr5g_code(out, text, b->length, (const char*)sets->data, sets->length, b->param, 0, diag);
    }
    case BUILTIN_ALIST:
        st = gpufec_code_from_alist_text(out, text, b->length, diag);
        if (st || !b->punctured_tail)
            return st;
        {
            gpufec_code* c = *out;
            uint8_t* punct = calloc(c->n, 1);
            if (!punct)
                return GPUFEC_ERR_OUT_OF_MEMORY;
            memset(punct + c->n - b->punctured_tail, 1, b->punctured_tail);
            st = code_set_transmission(c, punct, 0, diag);
            free(punct);
            return st;
        }
    default:
        return GPUFEC_ERR_UNKNOWN_CODE;
    }
}

static gpufec_status open_base(gpufec_code** out, const char* name, size_t len, gpufec_diag* diag)
{
    char buf[512];
    if (len >= sizeof buf)
        return text_fail_as(GPUFEC_ERR_INVALID_ARGUMENT, diag, 0,
                            "code name or path too long: %zu characters (limit %zu)", len, sizeof buf - 1);
    memcpy(buf, name, len);
    buf[len] = '\0';
    const builtin_code* b = find_entry(buf, len);
    if (b && b->format != BUILTIN_PEG && b->format != BUILTIN_NRSETS) {
        gpufec_status st = open_builtin(out, b, diag);
        if (st && *out) {
            gpufec_code_destroy(*out);
            *out = NULL;
        }
        return st;
    }
    unsigned dv, dc, n;
    char tail;
    if (sscanf(buf, "regular-%u-%u-%u%c", &dv, &dc, &n, &tail) == 3)
        return peg_regular_code(out, dv, dc, n, 1, diag);
    if (access(buf, F_OK) != 0) {
        if (diag) {
            diag->line = 0;
            snprintf(diag->message, sizeof diag->message,
                     "'%.160s' is neither a built-in code name nor a readable file", buf);
        }
        return GPUFEC_ERR_UNKNOWN_CODE;
    }
    if (!path_is_regular_file(buf))
        return text_fail_as(GPUFEC_ERR_IO, diag, 0, "'%.160s' is not a regular file", buf);
    if (has_suffix(buf, ".qc") || has_suffix(buf, ".txt"))
        return gpufec_code_from_qc_file(out, buf, 0, diag);
    return gpufec_code_from_alist_file(out, buf, diag);
}

gpufec_status gpufec_code_open(gpufec_code** out, const char* name_or_path, gpufec_diag* diag)
{
    if (!out || !name_or_path)
        return GPUFEC_ERR_INVALID_ARGUMENT;
    *out = NULL;
    if (diag) {
        diag->line = 0;
        diag->message[0] = '\0';
    }
    /* Optional shortening suffix ":k=<K'>". */
    const char* suffix = strstr(name_or_path, ":k=");
    size_t len = suffix ? (size_t)(suffix - name_or_path) : strlen(name_or_path);
    unsigned long kprime = 0;
    if (suffix) {
        char* end;
        const char* digits = suffix + 3;
        /* strtoul would accept "-1" (as ULONG_MAX) and leading blanks: digits only */
        kprime = *digits >= '0' && *digits <= '9' ? strtoul(digits, &end, 10) : 0;
        if (kprime == 0 || *end || kprime > GPUFEC_MAX_CODE_LENGTH)
            return text_fail(diag, 0, "bad shortening suffix '%.40s': expected :k=<information bits>, "
                             "a positive integer", suffix);
    }
    gpufec_code* c = NULL;
    gpufec_status st = open_base(&c, name_or_path, len, diag);
    if (st)
        return st;
    if (suffix) {
        if (kprime > c->k_enc) {
            st = text_fail(diag, 0, "cannot shorten to %lu information bits: the code has %u", kprime, c->k_enc);
        } else {
            uint8_t* punct = calloc(c->n, 1);
            if (!punct)
                st = GPUFEC_ERR_OUT_OF_MEMORY;
            for (uint32_t j = 0; punct && j < c->n; j++)
                punct[j] = c->full_src && c->full_src[j] == CODE_SRC_PUNCTURED;
            if (!st)
                st = code_set_transmission(c, punct, c->k_enc - (uint32_t)kprime, diag);
            free(punct);
        }
        if (st) {
            gpufec_code_destroy(c);
            return st;
        }
    }
    *out = c;
    return GPUFEC_OK;
}
