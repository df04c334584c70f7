/* Opening convolutional codes by name: conv-k<K>-<g0>-<g1>[...], cc-k7-<rate>, lte-tbcc-<k>,
 * with :k=, :term= and :punct= (include/gpufec/conv.h). */
#include "conv_code.h"
#include "text_reader.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The K = 7 (171, 133) code with DVB-S's puncturing (EN 300 421 table 2). */
static const struct {
    const char* name;
    const char* pattern; /* rows joined by '-' */
} CC_K7[] = {
    {"cc-k7-1_2", "1-1"},         {"cc-k7-2_3", "10-11"},           {"cc-k7-3_4", "101-110"},
    {"cc-k7-5_6", "10101-11010"}, {"cc-k7-7_8", "1000101-1111010"},
};
#define N_CC_K7 (sizeof CC_K7 / sizeof *CC_K7)

size_t conv_builtin_count(void) { return N_CC_K7 + 1; }

const char* conv_builtin_name(size_t index)
{
    if (index < N_CC_K7)
        return CC_K7[index].name;
    return index == N_CC_K7 ? "lte-tbcc-40" : NULL; /* PBCH: 24 bits + CRC16 */
}

static int parse_uint(const char* s, size_t len, int base, uint32_t* v)
{
    if (len == 0 || len > 9)
        return 0;
    uint32_t x = 0;
    for (size_t i = 0; i < len; i++) {
        const int d = s[i] - '0';
        if (d < 0 || d >= base)
            return 0;
        x = x * (uint32_t)base + (uint32_t)d;
    }
    *v = x;
    return 1;
}

typedef struct {
    uint32_t K, n, generators[GPUFEC_CONV_MAX_N], k;
    gpufec_conv_termination term;
    char pattern[GPUFEC_CONV_MAX_N * (CONV_MAX_PERIOD + 1) + 1];
    int have_k, have_term, have_punct;
} conv_spec;

/* Generators "g0-g1-..." (octal) of constraint length K. */
static gpufec_status parse_generators(const char* s, conv_spec* c, const char* name, gpufec_diag* diag)
{
    c->n = 0;
    for (const char* p = s; *p;) {
        const char* end = strchr(p, '-');
        const size_t len = end ? (size_t)(end - p) : strlen(p);
        uint32_t g;
        if (c->n == GPUFEC_CONV_MAX_N)
            return text_fail(diag, 0, "'%.60s': at most %u generators (rate 1/%u)", name, GPUFEC_CONV_MAX_N,
                             GPUFEC_CONV_MAX_N);
        if (!parse_uint(p, len, 8, &g) || g == 0 || g >> c->K)
            return text_fail(diag, 0, "'%.60s': generator '%.*s' must be an octal number of at most K=%u bits, not 0",
                             name, (int)(len < 12 ? len : 12), p, c->K);
        c->generators[c->n++] = g;
        p = end ? end + 1 : p + len;
    }
    if (c->n < 2)
        return text_fail(diag, 0, "'%.60s': a rate-1/n code needs n = 2..%u generators", name, GPUFEC_CONV_MAX_N);
    return GPUFEC_OK;
}

static gpufec_status parse_options(const char* suffix, conv_spec* c, gpufec_diag* diag)
{
    for (const char* p = suffix; p && *p;) {
        const char* end = strchr(p, ':');
        const size_t len = end ? (size_t)(end - p) : strlen(p);
        const char* eq = memchr(p, '=', len);
        const size_t key = eq ? (size_t)(eq - p) : len, vlen = eq ? len - key - 1 : 0;
        const char* v = eq ? eq + 1 : "";
        if (eq && key == 1 && *p == 'k' && !c->have_k) {
            if (!parse_uint(v, vlen, 10, &c->k) || c->k == 0 || c->k > CONV_MAX_FRAME)
                return text_fail_as(GPUFEC_ERR_TOO_LARGE, diag, 0, "k=%.*s: information bits per frame are 1..%u",
                                    (int)(vlen < 12 ? vlen : 12), v, CONV_MAX_FRAME);
            c->have_k = 1;
        } else if (eq && key == 4 && strncmp(p, "term", 4) == 0 && !c->have_term) {
            if (vlen == 4 && strncmp(v, "zero", 4) == 0)
                c->term = GPUFEC_CONV_TERM_ZERO;
            else if (vlen == 2 && strncmp(v, "tb", 2) == 0)
                c->term = GPUFEC_CONV_TERM_TAIL_BITING;
            else if (vlen == 5 && strncmp(v, "trunc", 5) == 0)
                c->term = GPUFEC_CONV_TERM_TRUNCATED;
            else
                return text_fail(diag, 0, "term=%.*s: expected zero, tb or trunc", (int)(vlen < 12 ? vlen : 12), v);
            c->have_term = 1;
        } else if (eq && key == 5 && strncmp(p, "punct", 5) == 0 && !c->have_punct) {
            if (vlen >= sizeof c->pattern)
                return text_fail(diag, 0, "punct: a pattern of at most %u rows of %u", GPUFEC_CONV_MAX_N,
                                 CONV_MAX_PERIOD);
            memcpy(c->pattern, v, vlen);
            c->pattern[vlen] = '\0';
            c->have_punct = 1;
        } else {
            return text_fail(diag, 0, "bad convolutional code option ':%.*s': expected k=<bits>, "
                             "term=zero|tb|trunc or punct=<rows> (each once)", (int)(len < 40 ? len : 40), p);
        }
        p = end ? end + 1 : NULL;
    }
    return GPUFEC_OK;
}

/* The pattern's rows into cc->punct; its period into info. */
static gpufec_status parse_pattern(const char* pattern, conv_code* cc, gpufec_diag* diag)
{
    uint32_t row = 0, col = 0, period = 0;
    for (const char* p = pattern;; p++) {
        if (*p == '-' || *p == '\0') {
            if (col == 0 || (period && col != period))
                return text_fail(diag, 0, "punct=%.80s: every row needs the same number (1..%u) of 0/1", pattern,
                                 CONV_MAX_PERIOD);
            period = col;
            row++, col = 0;
            if (*p == '\0')
                break;
            continue;
        }
        if ((*p != '0' && *p != '1') || row >= cc->info.n || col >= CONV_MAX_PERIOD)
            return text_fail(diag, 0, "punct=%.80s: %u rows (one per generator) of 0/1, at most %u each", pattern,
                             cc->info.n, CONV_MAX_PERIOD);
        cc->punct[row * CONV_MAX_PERIOD + col++] = (uint8_t)(*p == '1');
    }
    if (row != cc->info.n)
        return text_fail(diag, 0, "punct=%.80s: %u rows for %u generators", pattern, row, cc->info.n);
    int any = 0;
    for (uint32_t j = 0; j < cc->info.n; j++)
        for (uint32_t t = 0; t < period; t++)
            any |= cc->punct[j * CONV_MAX_PERIOD + t];
    if (!any)
        return text_fail(diag, 0, "punct=%.80s: the pattern sends nothing", pattern);
    cc->info.punct_period = period;
    return GPUFEC_OK;
}

/* The name's family form into spec (K, generators, defaults); UNKNOWN_CODE when not ours. */
static gpufec_status parse_name(const char* name, conv_spec* c, gpufec_diag* diag)
{
    memset(c, 0, sizeof *c);
    c->k = 1024;
    if (strncmp(name, "lte-tbcc-", 9) == 0) {
        if (!parse_uint(name + 9, strlen(name + 9), 10, &c->k) || c->k < 8 || c->k > 8192)
            return text_fail_as(GPUFEC_ERR_UNKNOWN_CODE, diag, 0, "'%.60s': lte-tbcc-<k> carries k = 8..8192 bits",
                                name);
        c->K = 7, c->n = 3, c->term = GPUFEC_CONV_TERM_TAIL_BITING, c->have_k = 1;
        c->generators[0] = 0133, c->generators[1] = 0171, c->generators[2] = 0165; /* 36.212 5.1.3.1 */
        return GPUFEC_OK;
    }
    for (size_t i = 0; i < N_CC_K7; i++)
        if (strcmp(name, CC_K7[i].name) == 0) {
            c->K = 7, c->n = 2, c->generators[0] = 0171, c->generators[1] = 0133;
            if (i > 0) {
                strcpy(c->pattern, CC_K7[i].pattern);
                c->have_punct = 1;
            }
            return GPUFEC_OK;
        }
    if (strncmp(name, "conv-k", 6) != 0)
        return GPUFEC_ERR_UNKNOWN_CODE;
    const char* dash = strchr(name + 6, '-');
    if (!dash || !parse_uint(name + 6, (size_t)(dash - name - 6), 10, &c->K) || c->K < 2 ||
        c->K > GPUFEC_CONV_MAX_K)
        return text_fail_as(GPUFEC_ERR_UNKNOWN_CODE, diag, 0,
                            "'%.60s': conv-k<K>-<g0>-<g1>[-...] with K = 2..%u and octal generators", name,
                            GPUFEC_CONV_MAX_K);
    return parse_generators(dash + 1, c, name, diag);
}

gpufec_status conv_open_name(gpufec_code** out, const char* name, const char* suffix, gpufec_diag* diag)
{
    conv_spec c;
    gpufec_status st = parse_name(name, &c, diag);
    if (st)
        return st;
    const int fixed_k = c.have_k; /* lte-tbcc-<k> names its k */
    c.have_k = 0;
    const int builtin_punct = c.have_punct;
    c.have_punct = 0;
    char builtin[sizeof c.pattern];
    strcpy(builtin, c.pattern);
    const gpufec_conv_termination name_term = c.term;
    if ((st = parse_options(suffix, &c, diag)) != GPUFEC_OK)
        return st;
    if (fixed_k && c.have_k)
        return text_fail(diag, 0, "'%.60s': the name gives k; no :k= option", name);
    if (builtin_punct && c.have_punct)
        return text_fail(diag, 0, "'%.60s': the name gives the puncturing; no :punct= option", name);
    if (!c.have_term)
        c.term = name_term;
    if (c.term == GPUFEC_CONV_TERM_TAIL_BITING && c.k < c.K - 1)
        return text_fail(diag, 0, "k=%u: tail biting needs at least K-1=%u information bits", c.k, c.K - 1);
    conv_code* cc = calloc(1, sizeof *cc);
    if (!cc)
        return GPUFEC_ERR_OUT_OF_MEMORY;
    gpufec_conv_info* i = &cc->info;
    i->K = c.K, i->n = c.n, i->k = c.k, i->termination = c.term;
    memcpy(i->generators, c.generators, sizeof i->generators);
    i->steps = c.k + (c.term == GPUFEC_CONV_TERM_ZERO ? c.K - 1 : 0);
    cc->S = 1u << (c.K - 1);
    for (uint32_t p = 0; p < cc->S; p++)
        for (uint32_t u = 0; u < 2; u++)
            cc->out[2 * p + u] = (uint8_t)conv_output_word(i->generators, i->n, i->K, p, u);
    if (builtin_punct || c.have_punct)
        st = parse_pattern(builtin_punct ? builtin : c.pattern, cc, diag);
    cc->info_pos = malloc((size_t)c.k * sizeof *cc->info_pos);
    const size_t n_full = (size_t)c.k + (size_t)i->steps * i->n;
    uint8_t* punctured = calloc(n_full, 1);
    if (st == GPUFEC_OK && (!cc->info_pos || !punctured))
        st = GPUFEC_ERR_OUT_OF_MEMORY;
    if (st) {
        free(punctured);
        conv_family.free_body(cc);
        return st;
    }
    for (uint32_t t = 0; t < c.k; t++) {
        cc->info_pos[t] = t;
        punctured[t] = 1; /* the information bits are not sent */
    }
    for (uint32_t t = 0; i->punct_period && t < i->steps; t++)
        for (uint32_t j = 0; j < i->n; j++)
            punctured[c.k + (size_t)t * i->n + j] = !cc->punct[j * CONV_MAX_PERIOD + t % i->punct_period];
    gpufec_code* code = NULL;
    st = code_create(&code, &conv_family, cc, (uint32_t)n_full, c.k, cc->info_pos);
    if (st == GPUFEC_OK)
        st = code_set_transmission(code, NULL, 0, punctured, 0, diag);
    free(punctured);
    if (st) {
        code_free(code);
        return st;
    }
    *out = code;
    return GPUFEC_OK;
}

gpufec_status conv_open_file(gpufec_code** out, const char* path, const char* suffix, gpufec_diag* diag)
{
    (void)out, (void)path, (void)suffix, (void)diag;
    return GPUFEC_ERR_UNKNOWN_CODE; /* convolutional codes are made from their parameters */
}
