/* Opening LTE turbo codes by name: lte-turbo-<K>[:crc=24a|24b][:e=<E>:rv=<RV>]. */
#include "turbo_code.h"
#include "text_reader.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

size_t turbo_builtin_count(void) { return TURBO_QPP_SIZES; }

const char* turbo_builtin_name(size_t index) { return index < TURBO_QPP_SIZES ? turbo_qpp_table[index].name : NULL; }

typedef struct {
    uint32_t crc;
    int crc_b;
    uint32_t e, rv;
    int have_e, have_rv;
} turbo_options;

static gpufec_status parse_options(const char* suffix, turbo_options* t, gpufec_diag* diag)
{
    memset(t, 0, sizeof *t);
    int have_crc = 0;
    for (const char* p = suffix; p && *p;) {
        const char* end = strchr(p, ':');
        const size_t len = end ? (size_t)(end - p) : strlen(p);
        const char* eq = memchr(p, '=', len);
        const size_t key = eq ? (size_t)(eq - p) : len, vlen = eq ? len - key - 1 : 0;
        const int is_crc = eq && key == 3 && strncmp(p, "crc", 3) == 0, is_e = eq && key == 1 && *p == 'e',
                  is_rv = eq && key == 2 && strncmp(p, "rv", 2) == 0;
        if ((is_crc && have_crc) || (is_e && t->have_e) || (is_rv && t->have_rv))
            return text_fail(diag, 0, "turbo code option '%.*s' given twice", (int)key, p);
        if (is_crc && vlen == 3 && (strncmp(eq + 1, "24a", 3) == 0 || strncmp(eq + 1, "24b", 3) == 0)) {
            t->crc = 24;
            t->crc_b = eq[3] == 'b';
            have_crc = 1;
        } else if (is_e && text_parse_u32(eq + 1, vlen, &t->e)) {
            t->have_e = 1;
        } else if (is_rv && text_parse_u32(eq + 1, vlen, &t->rv)) {
            t->have_rv = 1;
        } else {
            return text_fail(diag, 0, "bad turbo code option ':%.*s': expected crc=24a|24b, e=<bits> or rv=0..3",
                             (int)(len < 40 ? len : 40), p);
        }
        p = end ? end + 1 : NULL;
    }
    if (t->have_rv && !t->have_e)
        return text_fail(diag, 0, "rv=%u without e=<bits>: rate matching needs the output length", t->rv);
    if (t->rv > 3)
        return text_fail(diag, 0, "rv=%u: the redundancy version is 0..3", t->rv);
    if (t->have_e && (t->e == 0 || t->e > TURBO_MAX_E))
        return text_fail_as(t->e ? GPUFEC_ERR_TOO_LARGE : GPUFEC_ERR_PARSE, diag, 0, "e=%u: must be 1..%u", t->e,
                            TURBO_MAX_E);
    return GPUFEC_OK;
}

gpufec_status turbo_open_name(gpufec_code** out, const char* name, const char* suffix, gpufec_diag* diag)
{
    static const char prefix[] = "lte-turbo-";
    if (strncmp(name, prefix, sizeof prefix - 1) != 0)
        return GPUFEC_ERR_UNKNOWN_CODE;
    uint32_t K = 0;
    const char* digits = name + sizeof prefix - 1;
    const char* colon = strchr(digits, ':'); /* an option the opener did not see as key=value */
    if (colon && text_parse_u32(digits, (size_t)(colon - digits), &K) && turbo_qpp_index(K) >= 0)
        return text_fail(diag, 0, "'%.60s': bad turbo code option ':%.40s': options are crc=24a|24b, e=<bits>, "
                         "rv=0..3 (lower case, key=value)", name, colon + 1);
    if (!text_parse_u32(digits, strlen(digits), &K) || turbo_qpp_index(K) < 0)
        return text_fail_as(GPUFEC_ERR_UNKNOWN_CODE, diag, 0,
                            "'%.60s': K must be one of the 188 LTE turbo block sizes (40..6144, gpufec-info "
                            "--list-codes)", name);
    turbo_options o;
    gpufec_status st = parse_options(suffix, &o, diag);
    if (st)
        return st;
    if (o.have_e && o.e < K) /* fewer bits sent than the block carries: a rate above 1 */
        return text_fail(diag, 0, "e=%u: fewer transmitted bits than the block's K=%u (a code rate above 1)", o.e, K);
    const int q = turbo_qpp_index(K);
    turbo_code* t = calloc(1, sizeof *t);
    if (!t)
        return GPUFEC_ERR_OUT_OF_MEMORY;
    t->K = K;
    t->crc = o.crc;
    t->crc_b = o.crc_b;
    t->e = o.e;
    t->rv = o.rv;
    t->f1 = turbo_qpp_table[q].f1;
    t->f2 = turbo_qpp_table[q].f2;
    t->perm = malloc((size_t)K * sizeof *t->perm);
    t->info_pos = malloc((size_t)K * sizeof *t->info_pos);
    uint32_t* positions = o.have_e ? malloc((size_t)o.e * sizeof *positions) : NULL;
    if (!t->perm || !t->info_pos || (o.have_e && !positions)) {
        free(positions);
        turbo_family.free_body(t);
        return GPUFEC_ERR_OUT_OF_MEMORY;
    }
    turbo_qpp_fill(K, t->f1, t->f2, t->perm);
    for (uint32_t i = 0; i < K - t->crc; i++)
        t->info_pos[i] = 3 * i;
    gpufec_code* c = NULL;
    st = code_create(&c, &turbo_family, t, 3 * (K + 4), K - t->crc, t->info_pos);
    if (st == GPUFEC_OK && o.have_e) {
        turbo_rate_match_positions(K, o.e, o.rv, positions);
        st = code_set_transmission(c, positions, o.e, NULL, 0, diag);
    }
    free(positions);
    if (st) {
        code_free(c);
        return st;
    }
    *out = c;
    return GPUFEC_OK;
}

gpufec_status turbo_open_file(gpufec_code** out, const char* path, const char* suffix, gpufec_diag* diag)
{
    (void)out, (void)path, (void)suffix, (void)diag;
    return GPUFEC_ERR_UNKNOWN_CODE; /* turbo codes are made from their parameters, not read */
}
