/* Quasi-cyclic view of a code's layers (see code_internal.h): QC codes get it from their shift
 * table, DVB-S2 builds it in dvbs2.c. Every view is checked edge for edge against H before use. */
#include "ldpc_code.h"

#include <stdlib.h>
#include <string.h>

void qc_view_free(ldpc_code* c)
{
    free(c->qv_ent_ptr);
    free(c->qv_col);
    free(c->qv_shift);
    free(c->qv_skip);
    free(c->qv_perm);
    free(c->qv_row);
    free(c->qv_color);
    free(c->qv_ncolor);
    c->qv_color = c->qv_ncolor = NULL;
    c->qv_ent_ptr = c->qv_col = c->qv_shift = c->qv_perm = c->qv_row = NULL;
    c->qv_skip = NULL;
    c->qv_z = c->qv_layers = c->qv_max_entries = c->qv_slice = 0;
}

gpufec_status qc_view_alloc(ldpc_code* c, uint32_t z, uint32_t layers, uint32_t entries,
                            int with_perm, int with_row)
{
    qc_view_free(c);
    c->qv_ent_ptr = calloc((size_t)layers + 1, sizeof *c->qv_ent_ptr);
    c->qv_col = calloc((size_t)entries + 1, sizeof *c->qv_col);
    c->qv_shift = calloc((size_t)entries + 1, sizeof *c->qv_shift);
    c->qv_skip = malloc(((size_t)entries + 1) * sizeof *c->qv_skip);
    c->qv_perm = with_perm ? malloc((size_t)c->n * sizeof *c->qv_perm) : NULL;
    c->qv_row = with_row ? malloc((size_t)c->m * sizeof *c->qv_row) : NULL;
    if (!c->qv_ent_ptr || !c->qv_col || !c->qv_shift || !c->qv_skip || (with_perm && !c->qv_perm) ||
        (with_row && !c->qv_row)) {
        qc_view_free(c);
        return GPUFEC_ERR_OUT_OF_MEMORY;
    }
    for (uint32_t t = 0; t <= entries; t++)
        c->qv_skip[t] = -1;
    c->qv_z = z;
    c->qv_layers = layers;
    return GPUFEC_OK;
}

static int cmp_u32(const void* a, const void* b)
{
    uint32_t x = *(const uint32_t*)a, y = *(const uint32_t*)b;
    return (x > y) - (x < y);
}

/* Row i's edges as (block column) * z + (shift relative to lane i % z), sorted; 0 when the row
 * has two edges in one place (impossible in H) or more than cap edges. */
static uint32_t row_blocks(const ldpc_code* c, uint32_t i, uint32_t z, uint32_t* out, uint32_t cap)
{
    const uint32_t rb = c->row_ptr[i], d = c->row_ptr[i + 1] - rb;
    if (d > cap)
        return 0;
    for (uint32_t t = 0; t < d; t++) {
        const uint32_t v = c->edge_var[rb + t];
        out[t] = v / z * z + (v % z + z - i % z) % z;
    }
    qsort(out, d, sizeof *out, cmp_u32);
    return d;
}

/* 1 when every row of every block row of height z has its first row's (block, shift) list. */
static int circulant_blocks(const ldpc_code* c, uint32_t z, uint32_t* a, uint32_t* b)
{
    const uint32_t cap = c->max_check_degree;
    for (uint32_t br = 0; br < c->m / z; br++) {
        const uint32_t d = row_blocks(c, br * z, z, a, cap);
        for (uint32_t i = 1; i < z; i++)
            if (row_blocks(c, br * z + i, z, b, cap) != d || memcmp(a, b, d * sizeof *a))
                return 0;
    }
    return 1;
}

gpufec_status qc_view_detect(ldpc_code* c)
{
    uint32_t g = c->n, r = c->m;
    while (r) { /* gcd(n, m) */
        const uint32_t t = g % r;
        g = r;
        r = t;
    }
    uint32_t* a = malloc(((size_t)c->max_check_degree + 1) * sizeof *a);
    uint32_t* b = malloc(((size_t)c->max_check_degree + 1) * sizeof *b);
    if (!a || !b) {
        free(a);
        free(b);
        return GPUFEC_ERR_OUT_OF_MEMORY;
    }
    uint32_t z = g;
    for (; z >= 32; z--)
        if (g % z == 0 && circulant_blocks(c, z, a, b))
            break;
    gpufec_status st = GPUFEC_OK;
    if (z >= 32) {
        const uint32_t layers = c->m / z;
        st = qc_view_alloc(c, z, layers, (uint32_t)c->edges / z, 0, 0);
        for (uint32_t l = 0, e = 0; st == GPUFEC_OK && l < layers; l++) {
            const uint32_t d = row_blocks(c, l * z, z, a, c->max_check_degree);
            for (uint32_t t = 0; t < d; t++, e++) {
                c->qv_col[e] = a[t] / z;
                c->qv_shift[e] = a[t] % z;
            }
            c->qv_ent_ptr[l + 1] = e;
        }
    }
    free(a);
    free(b);
    return st;
}

gpufec_status qc_view_from_shifts(ldpc_code* c)
{
    const uint32_t mb = c->qc_mb, nb = c->qc_nb;
    uint32_t entries = 0;
    for (size_t t = 0; t < (size_t)mb * nb; t++)
        entries += c->qc_shift[t] >= 0;
    gpufec_status st = qc_view_alloc(c, c->qc_z, mb, entries, 0, 0);
    if (st)
        return st;
    uint32_t e = 0;
    for (uint32_t br = 0; br < mb; br++) {
        for (uint32_t bc = 0; bc < nb; bc++) {
            int32_t s = c->qc_shift[(size_t)br * nb + bc];
            if (s >= 0) {
                c->qv_col[e] = bc;
                c->qv_shift[e] = (uint32_t)s;
                e++;
            }
        }
        c->qv_ent_ptr[br + 1] = e;
    }
    return GPUFEC_OK;
}


/* 1 when the view describes H exactly: every row once, its variable set equal to H's, and the
 * variable permutation a bijection. */
int qc_view_check(const ldpc_code* c)
{
    const uint32_t z = c->qv_z;
    if (!z || (uint64_t)z * c->qv_layers != c->m || c->n % z)
        return 0;
    int ok = 1;
    uint8_t* seen = calloc((size_t)(c->m > c->n ? c->m : c->n) + 1, 1);
    uint32_t* a = malloc(((size_t)c->max_check_degree + 1) * sizeof *a);
    uint32_t* b = malloc(((size_t)c->max_check_degree + 1) * sizeof *b);
    if (!seen || !a || !b) {
        ok = 0;
        goto done;
    }
    if (c->qv_perm) {
        for (uint32_t p = 0; p < c->n && ok; p++) {
            ok = c->qv_perm[p] < c->n && !seen[c->qv_perm[p]];
            if (ok)
                seen[c->qv_perm[p]] = 1;
        }
        memset(seen, 0, (size_t)c->n);
    }
    for (uint32_t l = 0; l < c->qv_layers && ok; l++) {
        const uint32_t e0 = c->qv_ent_ptr[l], e1 = c->qv_ent_ptr[l + 1];
        for (uint32_t t = e0; t < e1 && ok; t++)
            ok = c->qv_col[t] < c->n / z && c->qv_shift[t] < z && c->qv_skip[t] < (int32_t)z;
        for (uint32_t i = 0; i < z && ok; i++) {
            const uint32_t row = c->qv_row ? c->qv_row[l * z + i] : l * z + i;
            if (row >= c->m || seen[row]) {
                ok = 0;
                break;
            }
            seen[row] = 1;
            const uint32_t rb = c->row_ptr[row], d = c->row_ptr[row + 1] - rb;
            uint32_t cnt = 0;
            for (uint32_t t = e0; t < e1 && cnt <= d; t++) {
                if ((int32_t)i == c->qv_skip[t])
                    continue;
                uint32_t p = c->qv_col[t] * z + (i + c->qv_shift[t]) % z;
                if (cnt < d)
                    a[cnt] = c->qv_perm ? c->qv_perm[p] : p;
                cnt++;
            }
            if (cnt != d) {
                ok = 0;
                break;
            }
            memcpy(b, c->edge_var + rb, d * sizeof *b);
            qsort(a, d, sizeof *a, cmp_u32);
            qsort(b, d, sizeof *b, cmp_u32);
            ok = memcmp(a, b, d * sizeof *a) == 0;
        }
    }
done:
    free(seen);
    free(a);
    free(b);
    return ok;
}

/* 1 when slices of s consecutive lanes never share a variable within a layer; stamp: n zeros,
 * left dirty. */
static int slices_independent(const ldpc_code* c, uint32_t s, uint32_t* stamp)
{
    const uint32_t z = c->qv_z;
    uint32_t id = 0;
    memset(stamp, 0, (size_t)c->n * sizeof *stamp);
    for (uint32_t l = 0; l < c->qv_layers; l++)
        for (uint32_t i = 0; i < z; i++) {
            if (i % s == 0)
                id++;
            for (uint32_t t = c->qv_ent_ptr[l]; t < c->qv_ent_ptr[l + 1]; t++)
                if ((int32_t)i != c->qv_skip[t]) {
                    uint32_t* u = &stamp[c->qv_col[t] * z + (i + c->qv_shift[t]) % z];
                    if (*u == id)
                        return 0;
                    *u = id;
                }
        }
    return 1;
}

/* Where interleaved colours would leave most lanes of each warp idle (circulants of weight 2, as
 * in CCSDS C2, need five colours), slices of consecutive lanes instead: the largest multiple of
 * 32 whose slices share no variable. Chosen when the colours cost more than 1.5 times the warp
 * work of one sweep per layer and the slices need at most twice the colours' barriers; DVB-S2's
 * colours stay. */
static gpufec_status qc_view_slice(ldpc_code* c)
{
    const uint32_t z = c->qv_z;
    uint32_t colours = 0;
    for (uint32_t l = 0; l < c->qv_layers; l++)
        colours += c->qv_ncolor[l];
    if (2 * colours <= 3 * c->qv_layers || z <= 32)
        return GPUFEC_OK;
    uint32_t* stamp = malloc((size_t)c->n * sizeof *stamp);
    if (!stamp)
        return GPUFEC_ERR_OUT_OF_MEMORY;
    uint32_t s = (z - 1) / 32 * 32;
    while (s >= 32 && !slices_independent(c, s, stamp))
        s -= 32;
    free(stamp);
    if (s < 32 || (uint64_t)c->qv_layers * ((z + s - 1) / s) > 2ull * colours || (z + s - 1) / s > QV_MAX_COLOURS)
        return GPUFEC_OK; /* more than twice the barriers (DVB-S2 short 3/4: 144 against 27) */
    for (uint32_t l = 0; l < c->qv_layers; l++) { /* qv_color exists: some layer has colours */
        c->qv_ncolor[l] = (uint8_t)((z + s - 1) / s);
        for (uint32_t i = 0; i < z; i++)
            c->qv_color[l * z + i] = (uint8_t)(i / s);
    }
    c->qv_slice = s;
    return GPUFEC_OK;
}

/* A layer whose block columns repeat (DVB-S2 tables put two addresses of one group into the same
 * layer in places) has rows that share variables. Greedy colouring in lane order splits such a
 * layer into colours whose rows share none; the schedule runs the colours in turn. */
gpufec_status qc_view_color(ldpc_code* c)
{
    const uint32_t z = c->qv_z;
    uint32_t* used = calloc((size_t)c->n, sizeof *used);
    c->qv_color = calloc((size_t)c->m, 1);
    c->qv_ncolor = calloc((size_t)c->qv_layers, 1);
    if (!used || !c->qv_color || !c->qv_ncolor) {
        free(used);
        return GPUFEC_ERR_OUT_OF_MEMORY;
    }
    int any = 0, fail = 0;
    for (uint32_t l = 0; l < c->qv_layers && !fail; l++) {
        const uint32_t e0 = c->qv_ent_ptr[l], e1 = c->qv_ent_ptr[l + 1];
        uint32_t colors = 1;
        for (int pass = 0; pass < 2; pass++) /* pass 0 colours, pass 1 clears the masks */
            for (uint32_t i = 0; i < z; i++) {
                uint32_t busy = 0;
                for (uint32_t t = e0; t < e1; t++)
                    if ((int32_t)i != c->qv_skip[t]) {
                        uint32_t* u = &used[c->qv_col[t] * z + (i + c->qv_shift[t]) % z];
                        busy |= *u;
                        if (pass)
                            *u = 0;
                    }
                if (pass)
                    continue;
                if (busy == ~0u) {
                    fail = 1;
                    break;
                }
                uint32_t col = (uint32_t)__builtin_ctz(~busy);
                for (uint32_t t = e0; t < e1; t++)
                    if ((int32_t)i != c->qv_skip[t])
                        used[c->qv_col[t] * z + (i + c->qv_shift[t]) % z] |= 1u << col;
                c->qv_color[l * z + i] = (uint8_t)col;
                if (col + 1 > colors)
                    colors = col + 1;
            }
        c->qv_ncolor[l] = (uint8_t)colors;
        any |= colors > 1;
    }
    free(used);
    if (fail)
        return GPUFEC_ERR_UNSUPPORTED;
    if (!any) { /* every layer is one colour: no table needed */
        free(c->qv_color);
        c->qv_color = NULL;
        return GPUFEC_OK;
    }
    return qc_view_slice(c);
}
