/* DVB-S2 LDPC codes (ETSI EN 302 307-1, Annex B/C) from their accumulator address tables, with
 * the standard's linear-time encoder.
 *
 * Table line g lists the parity accumulator addresses x of information bit 360 g; bit 360 g + s
 * of the group uses (x + s q) mod (N - K), q = (N - K) / 360. The parity part is the staircase:
 * check i holds parity bits i - 1 and i, so after accumulating the information bits,
 * p_i ^= p_{i-1} gives the parity in order. */
#include "ldpc_code.h"
#include "text_reader.h"

#include <stdlib.h>
#include <string.h>

typedef struct {
    uint32_t k, m;
    uint32_t* info_ptr;  /* k + 1 */
    uint32_t* info_rows; /* accumulator addresses of each information bit */
} dvbs2_plan;

static gpufec_status dvbs2_encode(const ldpc_code* c, uint8_t* x)
{
    const dvbs2_plan* p = c->enc_data;
    uint8_t* par = x + p->k;
    memset(par, 0, p->m);
    for (uint32_t i = 0; i < p->k; i++)
        if (x[i])
            for (uint32_t t = p->info_ptr[i]; t < p->info_ptr[i + 1]; t++)
                par[p->info_rows[t]] ^= 1u;
    for (uint32_t i = 1; i < p->m; i++)
        par[i] ^= par[i - 1];
    return GPUFEC_OK;
}

static int cmp_u32(const void* a, const void* b)
{
    uint32_t x = *(const uint32_t*)a, y = *(const uint32_t*)b;
    return (x > y) - (x < y);
}

/* The QC view (code_internal.h): layer j holds checks j + i q, i = 0..359 (lane i). The rows
 * of group g's first bit are its table addresses x; x = j + t q joins lane i of layer j to bit
 * (i - t) mod 360 of group g: block column g, shift 360 - t. Parity bit p_r is internal
 * variable k + (r mod q) 360 + r / q, so check j + i q holds lane i of parity blocks j (p_r) and
 * j - 1 (p_{r-1}); for j = 0, p_{r-1} is lane i - 1 of the last block, absent for lane 0. */
static gpufec_status dvbs2_view(ldpc_code* c, uint32_t k, uint32_t m, const uint32_t* col_ptr,
                                const uint32_t* col_rows)
{
    const uint32_t q = m / 360, groups = k / 360;
    const uint32_t entries = col_ptr[k] / 360 + 2 * q;
    gpufec_status st = qc_view_alloc(c, 360, q, entries, 1, 1);
    if (st)
        return st;
    for (uint32_t g = 0; g < groups; g++) /* count per layer */
        for (uint32_t t = col_ptr[360 * g]; t < col_ptr[360 * g + 1]; t++)
            c->qv_ent_ptr[col_rows[t] % q + 1]++;
    for (uint32_t j = 0; j < q; j++)
        c->qv_ent_ptr[j + 1] += c->qv_ent_ptr[j] + 2;
    uint32_t* fill = calloc(q, sizeof *fill);
    if (!fill) {
        qc_view_free(c);
        return GPUFEC_ERR_OUT_OF_MEMORY;
    }
    for (uint32_t g = 0; g < groups; g++)
        for (uint32_t t = col_ptr[360 * g]; t < col_ptr[360 * g + 1]; t++) {
            const uint32_t x = col_rows[t], j = x % q, e = c->qv_ent_ptr[j] + fill[j]++;
            c->qv_col[e] = g;
            c->qv_shift[e] = (360 - x / q) % 360;
        }
    for (uint32_t j = 0; j < q; j++) {
        uint32_t e = c->qv_ent_ptr[j] + fill[j];
        c->qv_col[e] = groups + j;
        c->qv_shift[e] = 0;
        c->qv_col[e + 1] = groups + (j ? j - 1 : q - 1);
        c->qv_shift[e + 1] = j ? 0 : 359;
        c->qv_skip[e + 1] = j ? -1 : 0;
    }
    free(fill);
    for (uint32_t p = 0; p < k; p++)
        c->qv_perm[p] = p;
    for (uint32_t r = 0; r < m; r++) {
        c->qv_perm[k + (r % q) * 360 + r / q] = k + r;
        c->qv_row[(r % q) * 360 + r / q] = r;
    }
    return GPUFEC_OK;
}

gpufec_status dvbs2_code_from_table(ldpc_code** out, const char* text, size_t length, uint32_t n,
                                    gpufec_diag* diag)
{
    /* First pass: count groups and addresses. */
    text_reader r;
    text_line ln;
    uint32_t groups = 0, addresses = 0;
    text_reader_init(&r, text, length, diag);
    while (text_reader_next_line(&r, &ln)) {
        const char* p = ln.begin;
        long v;
        token_kind k;
        while ((k = text_next_token(&p, ln.end, &v, 0)) == TOKEN_INT)
            addresses++;
        if (k != TOKEN_END)
            return text_fail(diag, ln.line, "not an address table");
        groups++;
    }
    const uint32_t k = groups * 360;
    if (groups == 0 || k >= n || (n - k) % 360)
        return text_fail(diag, 0, "table of %u groups does not fit N=%u", groups, n);
    const uint32_t m = n - k, q = m / 360;
    dvbs2_plan* plan = calloc(1, sizeof *plan);
    uint32_t* col_ptr = calloc((size_t)n + 1, sizeof *col_ptr);
    uint32_t* col_rows = malloc(((size_t)addresses * 360 + 2 * (size_t)m) * sizeof *col_rows);
    uint32_t* line_addr = malloc(((size_t)addresses + 1) * sizeof *line_addr);
    gpufec_status st = GPUFEC_OK;
    if (!plan || !col_ptr || !col_rows || !line_addr) {
        st = GPUFEC_ERR_OUT_OF_MEMORY;
        goto done;
    }
    uint32_t e = 0, g = 0;
    text_reader_init(&r, text, length, diag);
    while (text_reader_next_line(&r, &ln)) {
        const char* p = ln.begin;
        long v;
        uint32_t cnt = 0;
        while (text_next_token(&p, ln.end, &v, 0) == TOKEN_INT) {
            if ((unsigned long)v >= m) {
                st = text_fail(diag, ln.line, "address %ld is not below N-K=%u", v, m);
                goto done;
            }
            line_addr[cnt++] = (uint32_t)v;
        }
        for (uint32_t s = 0; s < 360; s++) {
            uint32_t j = g * 360 + s, b = e;
            for (uint32_t t = 0; t < cnt; t++)
                col_rows[e++] = (line_addr[t] + s * q) % m;
            qsort(col_rows + b, e - b, sizeof *col_rows, cmp_u32);
            for (uint32_t t = b + 1; t < e; t++)
                if (col_rows[t] == col_rows[t - 1]) {
                    st = text_fail(diag, ln.line, "information bit %u hits check %u twice", j, col_rows[t]);
                    goto done;
                }
            col_ptr[j + 1] = e;
        }
        g++;
    }
    for (uint32_t i = 0; i < m; i++) {
        col_rows[e++] = i;
        if (i + 1 < m)
            col_rows[e++] = i + 1;
        col_ptr[k + i + 1] = e;
    }
    plan->k = k;
    plan->m = m;
    plan->info_ptr = malloc(((size_t)k + 1) * sizeof *plan->info_ptr);
    plan->info_rows = malloc(((size_t)col_ptr[k] + 1) * sizeof *plan->info_rows);
    if (!plan->info_ptr || !plan->info_rows) {
        st = GPUFEC_ERR_OUT_OF_MEMORY;
        goto done;
    }
    memcpy(plan->info_ptr, col_ptr, ((size_t)k + 1) * sizeof *col_ptr);
    memcpy(plan->info_rows, col_rows, (size_t)col_ptr[k] * sizeof *col_rows);
    ldpc_code* c = NULL;
    st = code_build_graph(&c, n, m, col_ptr, col_rows);
    if (st)
        goto done;
    if ((st = dvbs2_view(c, k, m, col_ptr, col_rows)) != GPUFEC_OK) {
        ldpc_free(c);
        goto done;
    }
    /* One allocation for the plan so ldpc_free releases it with enc_data. */
    size_t bytes = sizeof *plan + ((size_t)k + 1 + col_ptr[k]) * sizeof(uint32_t);
    dvbs2_plan* packed = malloc(bytes);
    c->enc_info_pos = malloc((size_t)k * sizeof *c->enc_info_pos);
    if (!packed || !c->enc_info_pos) {
        free(packed);
        ldpc_free(c);
        st = GPUFEC_ERR_OUT_OF_MEMORY;
        goto done;
    }
    *packed = *plan;
    packed->info_ptr = (uint32_t*)(packed + 1);
    packed->info_rows = packed->info_ptr + k + 1;
    memcpy(packed->info_ptr, plan->info_ptr, ((size_t)k + 1) * sizeof(uint32_t));
    memcpy(packed->info_rows, plan->info_rows, (size_t)col_ptr[k] * sizeof(uint32_t));
    for (uint32_t i = 0; i < k; i++)
        c->enc_info_pos[i] = i;
    c->k_enc = k;
    c->rank = m;
    c->enc_data = packed;
    c->encode = dvbs2_encode;
    *out = c;
done:
    if (plan) {
        free(plan->info_ptr);
        free(plan->info_rows);
    }
    free(plan);
    free(col_ptr);
    free(col_rows);
    free(line_addr);
    return st;
}
