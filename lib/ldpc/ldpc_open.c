/* Opening LDPC codes: the built-in table (generated from data/codes/manifest.txt), the PEG
 * names regular-<dv>-<dc>-<N>, alist and prototype-matrix files, and the ":k=" suffix. Every
 * path ends in one ldpc_complete call. */
#include "ldpc_builtin.h"
#include "ldpc_code.h"
#include "crc24.h"
#include "nr5g_rate_match.h"

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

/* The options of an LDPC code name: ":k=<K'>" (filler bits) for any code; 5G NR codes also take
 * rate matching (e=, rv=, qm=, ncb=) and prune=0|1. */
typedef struct {
    uint32_t kprime, e, rv, qm, ncb, prune;
    int have_e, have_rv, have_qm, have_ncb, have_prune;
    uint32_t crc_poly, crc_len; /* crc=24a|24b|16: the last 24 (16) of the K' bits are that CRC */
} ldpc_suffix;

static gpufec_status parse_suffix(const char* suffix, ldpc_suffix* o, gpufec_diag* diag)
{
    memset(o, 0, sizeof *o);
    o->qm = 1;
    o->prune = 1;
    int have_k = 0;
    for (const char* p = suffix; p && *p;) {
        const char* end = strchr(p, ':');
        const size_t len = end ? (size_t)(end - p) : strlen(p);
        const char* eq = memchr(p, '=', len);
        const size_t key = eq ? (size_t)(eq - p) : len, vlen = eq ? len - key - 1 : 0;
        if (eq && key == 3 && strncmp(p, "crc", 3) == 0) {
            if (o->crc_poly)
                return text_fail(diag, 0, "LDPC code option 'crc' given twice");
            const int c16 = vlen == 2 && strncmp(eq + 1, "16", 2) == 0;
            if (!c16 && (vlen != 3 || (strncmp(eq + 1, "24a", 3) != 0 && strncmp(eq + 1, "24b", 3) != 0)))
                return text_fail(diag, 0, "bad LDPC code option ':%.*s': crc=24a, crc=24b or crc=16",
                                 (int)(len < 40 ? len : 40), p);
            o->crc_poly = c16 ? CRC16_POLY : eq[3] == 'a' ? CRC24A_POLY : CRC24B_POLY;
            o->crc_len = c16 ? 16 : 24;
            p = end ? end + 1 : NULL;
            continue;
        }
        struct {
            const char* name;
            uint32_t* value;
            int* have;
        } const keys[] = {{"k", &o->kprime, &have_k},     {"e", &o->e, &o->have_e},
                          {"rv", &o->rv, &o->have_rv},    {"qm", &o->qm, &o->have_qm},
                          {"ncb", &o->ncb, &o->have_ncb}, {"prune", &o->prune, &o->have_prune}};
        size_t i = 0;
        while (i < sizeof keys / sizeof *keys && !(eq && strlen(keys[i].name) == key && !strncmp(p, keys[i].name, key)))
            i++;
        if (i == sizeof keys / sizeof *keys)
            return text_fail(diag, 0, "unknown LDPC code option ':%.*s': options are k=<information bits>, crc=24a|24b|16, "
                             "and for 5G NR e=<bits>, rv=0..3, qm=1|2|4|6|8, ncb=<bits>, prune=0|1", (int)(len < 40 ? len : 40), p);
        if (*keys[i].have)
            return text_fail(diag, 0, "LDPC code option '%s' given twice", keys[i].name);
        if (!text_parse_u32(eq + 1, vlen, keys[i].value))
            return text_fail(diag, 0, "bad LDPC code option ':%.*s': %s", (int)(len < 40 ? len : 40), p,
                             i == 0 ? "expected :k=<information bits>, a positive integer"
                                    : "expected a non-negative integer (digits only)");
        *keys[i].have = 1;
        p = end ? end + 1 : NULL;
    }
    if (have_k && (o->kprime == 0 || o->kprime > GPUFEC_MAX_CODE_LENGTH))
        return text_fail(diag, 0, "k=%u: the information bits must be 1..%u", o->kprime, GPUFEC_MAX_CODE_LENGTH);
    return GPUFEC_OK;
}

/* crc=: the code's last 24 (16) information bits become the CRC (k falls by as many). */
static gpufec_status attach_crc(gpufec_code** c, const ldpc_suffix* o, gpufec_diag* diag)
{
    if (!o->crc_poly)
        return GPUFEC_OK;
    gpufec_status st = code_attach_crc(*c, o->crc_poly, o->crc_len, diag);
    if (st) {
        code_free(*c);
        *c = NULL;
    } else if ((*c)->harq_pos) { /* the HARQ buffer's decoder checks it too */
        const size_t len = strlen((*c)->harq_code);
        snprintf((*c)->harq_code + len, sizeof (*c)->harq_code - len, ":crc=%s",
                 o->crc_poly == CRC16_POLY ? "16" : o->crc_poly == CRC24A_POLY ? "24a" : "24b");
    }
    return st;
}

static int rate_matched(const ldpc_suffix* o) { return o->have_e || o->have_rv || o->have_qm || o->have_ncb || o->have_prune; }

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
        return nr5g_code(out, text, b->length, (const char*)sets->data, sets->length, b->param, NULL, diag);
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

/* 5G NR with rate matching (TS 38.212 5.4.2): the mother code's rows whose parity column rate
 * matching never sends are dropped with that column (a degree-1 column that is never observed
 * carries no information: its row only ever sends zero messages, so the decisions on every other
 * bit are the same with it or without it), and the transmission map sends the E selected,
 * interleaved positions. prune=0 keeps every row. */
static gpufec_status open_nr_rate_matched(gpufec_code** out, const builtin_code* b, uint32_t bg, const ldpc_suffix* o,
                                          gpufec_diag* diag)
{
    const builtin_code* sets = find_entry("_5gnr-sets");
    if (!sets)
        return GPUFEC_ERR_INTERNAL;
    const uint32_t z = b->param, kb = bg == 1 ? 22 : 10, mb = bg == 1 ? 46 : 42, K = kb * z, N = (mb + kb - 2) * z;
    nr5g_rm rm = {bg, z, o->kprime ? o->kprime : K, o->e, o->rv, o->qm, o->have_ncb ? o->ncb : N};
    if (rm.kprime > K)
        return text_fail(diag, 0, "k=%u: BG%u with Z=%u carries at most K=%u information bits", rm.kprime, bg, z, K);
    if (rm.kprime <= 2 * z)
        return text_fail(diag, 0, "k=%u: rate matching needs K' > 2Z = %u (the circular buffer starts after the "
                         "first 2Z bits, and the filler bits must lie in it)%s", rm.kprime, 2 * z,
                         z > 2 ? "; a smaller Z, or the name 5gnr-bg<1|2>:k=<K'> (the standard's Z), may fit" : "");
    if (!o->have_e)
        return text_fail(diag, 0, "rate matching needs e=<bits sent>");
    if (rm.rv > 3)
        return text_fail(diag, 0, "rv=%u: the redundancy version is 0..3", rm.rv);
    if (rm.qm != 1 && rm.qm != 2 && rm.qm != 4 && rm.qm != 6 && rm.qm != 8)
        return text_fail(diag, 0, "qm=%u: the modulation order is 1, 2, 4, 6 or 8", rm.qm);
    if (rm.e == 0 || rm.e > GPUFEC_MAX_CODE_LENGTH || rm.e % rm.qm)
        return text_fail_as(rm.e > GPUFEC_MAX_CODE_LENGTH ? GPUFEC_ERR_TOO_LARGE : GPUFEC_ERR_PARSE, diag, 0,
                            "e=%u: must be a multiple of qm=%u, 1..%u", rm.e, rm.qm, GPUFEC_MAX_CODE_LENGTH);
    if (rm.ncb > N || rm.ncb <= K - 2 * z)
        return text_fail(diag, 0, "ncb=%u: the circular buffer holds %u..%u bits for BG%u, Z=%u (past the "
                         "systematic part, at most N)", rm.ncb, K - 2 * z + 1, N, bg, z);
    if (o->prune > 1)
        return text_fail(diag, 0, "prune=%u: 0 or 1", o->prune);
    uint32_t* pos = malloc((size_t)rm.e * sizeof *pos);
    uint32_t* harq = malloc((size_t)rm.e * sizeof *harq);
    uint8_t* drop = calloc((size_t)mb + kb + mb, 1);
    if (!pos || !harq || !drop) {
        free(pos);
        free(harq);
        free(drop);
        return GPUFEC_ERR_OUT_OF_MEMORY;
    }
    gpufec_status st = nr5g_rate_match_positions(&rm, pos);
    /* HARQ buffer index: the circular buffer without its filler bits, which is the order the
     * mother code 5gnr-bg<B>-z<Z>:k=<K'> transmits. */
    const uint32_t filler = K - rm.kprime;
    for (uint32_t t = 0; st == GPUFEC_OK && t < rm.e; t++) {
        const uint32_t d = pos[t] - 2 * z;
        harq[t] = d < rm.kprime - 2 * z ? d : d - filler;
    }
    /* Extension rows (4 on: the core is rows 0..3) whose parity column is never sent. */
    uint8_t* sent = drop + mb;
    for (uint32_t t = 0; st == GPUFEC_OK && t < rm.e; t++)
        sent[pos[t] / z] = 1;
    for (uint32_t i = 4; o->prune && i < mb; i++)
        drop[i] = !sent[kb + i];
    ldpc_code* body = NULL;
    if (st == GPUFEC_OK)
        st = nr5g_code(&body, (const char*)b->data, b->length, (const char*)sets->data, sets->length, z, drop, diag);
    if (st == GPUFEC_OK) { /* positions in the kept columns' numbering */
        int32_t new_col[68]; /* BG1 has 68 columns, BG2 52 */
        nr5g_kept_columns(kb, mb + kb, drop, new_col);
        for (uint32_t t = 0; t < rm.e; t++) /* sent positions lie in kept columns */
            pos[t] = (uint32_t)new_col[pos[t] / z] * z + pos[t] % z;
        free(body->build_punctured); /* the map below says what is sent */
        body->build_punctured = NULL;
    }
    gpufec_code* c = NULL;
    if (st == GPUFEC_OK)
        st = ldpc_complete(&c, body, 0, diag);
    else
        ldpc_free(body);
    if (st == GPUFEC_OK)
        st = code_set_transmission(c, pos, rm.e, NULL, K - rm.kprime, diag);
    if (st == GPUFEC_OK) {
        c->harq_pos = harq;
        harq = NULL;
        c->harq_len = N - filler;
        snprintf(c->harq_code, sizeof c->harq_code, "5gnr-bg%u-z%u:k=%u", bg, z, rm.kprime);
    }
    free(pos);
    free(harq);
    free(drop);
    if (st) {
        code_free(c);
        return st;
    }
    *out = c;
    return GPUFEC_OK;
}

/* 5gnr-bg<1|2>:k=<K'>: the lifting size by the standard's rule (38.212 5.2.2): the smallest Zc
 * of all sets with Kb * Zc >= K', Kb = 22 for BG1; for BG2 10, 9, 8 or 6 as K' (taken as B, one
 * code block) exceeds 640, 560, 192 or not. */
static const builtin_code* nr_entry_for_k(uint32_t bg, uint32_t kprime, gpufec_diag* diag)
{
    const builtin_code* sets = find_entry("_5gnr-sets");
    uint32_t sizes[64];
    const size_t count = sets ? nr5g_lifting_sizes((const char*)sets->data, sets->length, sizes, 64) : 0;
    const uint32_t kb = bg == 1 ? 22 : kprime > 640 ? 10 : kprime > 560 ? 9 : kprime > 192 ? 8 : 6;
    for (size_t i = 0; i < count; i++)
        if (kb * sizes[i] >= kprime) {
            char name[32];
            snprintf(name, sizeof name, "5gnr-bg%u-z%u", bg, sizes[i]);
            return find_entry(name);
        }
    text_fail(diag, 0, "k=%u: more than BG%u carries (%u bits at Z=384)", kprime, bg, (bg == 1 ? 22 : 10) * 384);
    return NULL;
}

gpufec_status ldpc_open_name(gpufec_code** out, const char* name, const char* suffix, gpufec_diag* diag)
{
    const builtin_code* b = find_entry(name);
    unsigned dv, dc, n, bg = 0;
    char tail;
    if (b && b->format == BUILTIN_NRSETS)
        return GPUFEC_ERR_UNKNOWN_CODE;
    if (b && b->format == BUILTIN_PEG) /* listed by name, built from it */
        b = NULL;
    const int nr_by_k = strcmp(name, "5gnr-bg1") == 0 || strcmp(name, "5gnr-bg2") == 0;
    if (!b && !nr_by_k && sscanf(name, "regular-%u-%u-%u%c", &dv, &dc, &n, &tail) != 3)
        return GPUFEC_ERR_UNKNOWN_CODE;
    ldpc_suffix o;
    gpufec_status st = parse_suffix(suffix, &o, diag);
    if (st)
        return st;
    if (nr_by_k) {
        bg = (unsigned)(name[7] - '0');
        if (!o.kprime)
            return text_fail(diag, 0, "'%s' needs :k=<K'>, the code block's bits, to choose the lifting size", name);
        if (!(b = nr_entry_for_k(bg, o.kprime, diag)))
            return GPUFEC_ERR_INVALID_ARGUMENT;
    } else if (b && b->format == BUILTIN_NR) {
        bg = (unsigned)(name[7] - '0');
    }
    if (rate_matched(&o) && !bg)
        return text_fail(diag, 0, "'%.60s': rate matching (e=, rv=, qm=, ncb=, prune=) is defined for 5G NR codes "
                         "only (5gnr-bg1-z<Z>, 5gnr-bg2-z<Z>, 5gnr-bg1:k=<K'>)", name);
    if (bg && o.have_e) {
        st = open_nr_rate_matched(out, b, bg, &o, diag);
    } else if (rate_matched(&o)) {
        return text_fail(diag, 0, "rate matching needs e=<bits sent>");
    } else {
        ldpc_code* body = NULL;
        st = b ? build_builtin(&body, b, diag) : peg_regular_code(&body, dv, dc, n, 1, diag);
        if (st == GPUFEC_OK)
            st = ldpc_complete(out, body, o.kprime, diag);
    }
    return st ? st : attach_crc(out, &o, diag);
}

static int has_suffix(const char* s, const char* suffix)
{
    size_t a = strlen(s), b = strlen(suffix);
    return a >= b && strcmp(s + a - b, suffix) == 0;
}

gpufec_status ldpc_open_file(gpufec_code** out, const char* path, const char* suffix, gpufec_diag* diag)
{
    ldpc_suffix o;
    gpufec_status st = parse_suffix(suffix, &o, diag);
    if (st)
        return st;
    if (rate_matched(&o))
        return text_fail(diag, 0, "rate matching (e=, rv=, qm=, ncb=, prune=) is defined for 5G NR codes only");
    const uint32_t kprime = o.kprime;
    const int qc = has_suffix(path, ".qc") || has_suffix(path, ".txt");
    char* text;
    size_t len;
    st = read_whole_file(path, qc ? (size_t)1 << 26 : (size_t)1 << 30, &text, &len, diag);
    if (st)
        return st;
    ldpc_code* body = NULL;
    st = qc ? ldpc_read_qc(&body, text, len, 0, diag) : ldpc_read_alist(&body, text, len, diag);
    free(text);
    if (st == GPUFEC_OK)
        st = ldpc_complete(out, body, kprime, diag);
    return st ? st : attach_crc(out, &o, diag);
}
