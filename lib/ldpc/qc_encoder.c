/* Quasi-cyclic codes: construction from a block shift table, and a linear-time encoder for the
 * dual-diagonal parity structure shared by IEEE 802.16e (WiMAX), 802.11n (Wi-Fi) and
 * 3GPP 5G NR.
 *
 * H = [H_info | H_parity] with kb = nb - mb information block columns. In the "core" rows
 * 0..c-1 every parity block column except the first appears an even number of times with the
 * same shift (the dual diagonal), so their sum leaves only the first parity block:
 * P^s0 p0 = sum of the core rows' information parts. After p0, every other parity block is
 * solved from a row in which it is the only unknown (back-substitution; the 5G NR extension rows
 * are of this kind). The plan is found once per code; codes that do not fit keep the generic
 * encoder. The result equals the generic encoder's bit for bit (tests/c/test_encoder.c). */
#include "ldpc_code.h"

#include <stdlib.h>
#include <string.h>

typedef struct {
    uint32_t core; /* c */
    uint32_t s0;   /* shift of the summed first parity column */
    uint32_t steps;
    uint32_t* step_row;    /* row solved at step t */
    uint32_t* step_target; /* parity block column it solves */
    /* scratch is per call (stack/heap), so the code stays shareable across threads */
} qc_plan;

static inline int32_t shift_at(const ldpc_code* c, uint32_t r, uint32_t col)
{
    return c->qc_shift[(size_t)r * c->qc_nb + col];
}

/* acc ^= P^s x, with (P^s x)[a] = x[(a + s) mod z]. */
static void add_rotated(uint8_t* acc, const uint8_t* x, uint32_t s, uint32_t z)
{
    uint32_t head = z - s;
    for (uint32_t a = 0; a < head; a++)
        acc[a] ^= x[a + s];
    for (uint32_t a = head; a < z; a++)
        acc[a] ^= x[a - head];
}

static gpufec_status qc_encode(const ldpc_code* c, uint8_t* x)
{
    const qc_plan* p = c->enc_data;
    const uint32_t z = c->qc_z, mb = c->qc_mb, nb = c->qc_nb, kb = nb - mb;
    uint8_t* lam = calloc((size_t)mb * z + z, 1);
    uint8_t* tmp = lam + (size_t)mb * z;
    if (!lam)
        return GPUFEC_ERR_OUT_OF_MEMORY;
    for (uint32_t r = 0; r < mb; r++)
        for (uint32_t j = 0; j < kb; j++) {
            int32_t s = shift_at(c, r, j);
            if (s >= 0)
                add_rotated(lam + (size_t)r * z, x + (size_t)j * z, (uint32_t)s, z);
        }
    uint8_t* par = x + (size_t)kb * z;
    /* p0 from the core sum: (P^s0 p0)[a] = sum[a]  =>  p0[(a + s0) mod z] = sum[a]. */
    memset(tmp, 0, z);
    for (uint32_t r = 0; r < p->core; r++)
        for (uint32_t a = 0; a < z; a++)
            tmp[a] ^= lam[(size_t)r * z + a];
    for (uint32_t a = 0; a < z; a++)
        par[(a + p->s0) % z] = tmp[a];
    for (uint32_t t = 0; t < p->steps; t++) {
        const uint32_t r = p->step_row[t], target = p->step_target[t];
        memcpy(tmp, lam + (size_t)r * z, z);
        for (uint32_t q = 0; q < mb; q++) {
            int32_t s = shift_at(c, r, kb + q);
            if (s >= 0 && q != target)
                add_rotated(tmp, par + (size_t)q * z, (uint32_t)s, z);
        }
        const uint32_t s = (uint32_t)shift_at(c, r, kb + target);
        for (uint32_t a = 0; a < z; a++)
            par[(size_t)target * z + (a + s) % z] = tmp[a];
    }
    free(lam);
    return GPUFEC_OK;
}

int qc_encoder_plan(const ldpc_code* c, uint32_t* core, uint32_t* s0, uint32_t* steps, const uint32_t** step_row,
                    const uint32_t** step_target)
{
    if (c->encode != qc_encode)
        return 0;
    const qc_plan* p = c->enc_data;
    *core = p->core;
    *s0 = p->s0;
    *steps = p->steps;
    *step_row = p->step_row;
    *step_target = p->step_target;
    return 1;
}

int qc_encoder_prepare(ldpc_code* c)
{
    const uint32_t z = c->qc_z, mb = c->qc_mb, nb = c->qc_nb;
    if (!c->qc_shift || mb < 2 || nb <= mb)
        return 0;
    const uint32_t kb = nb - mb;
    /* The core: rows 0..core-1 touch only parity columns 0..core-1; summed, columns 1..core-1
     * cancel and column 0 leaves one shift. */
    uint32_t core = 0, s0 = 0;
    uint32_t* parity_count = calloc((size_t)mb * z, sizeof *parity_count);
    if (!parity_count)
        return 0;
    for (uint32_t cand = 2; cand <= mb && !core; cand++) {
        int ok = 1;
        for (uint32_t r = 0; r < cand && ok; r++)
            for (uint32_t q = cand; q < mb && ok; q++)
                ok = shift_at(c, r, kb + q) < 0;
        if (!ok)
            continue;
        memset(parity_count, 0, (size_t)mb * z * sizeof *parity_count);
        for (uint32_t r = 0; r < cand; r++)
            for (uint32_t q = 0; q < cand; q++) {
                int32_t s = shift_at(c, r, kb + q);
                if (s >= 0)
                    parity_count[(size_t)q * z + (uint32_t)s] ^= 1u;
            }
        uint32_t odd0 = 0;
        for (uint32_t a = 0; a < z; a++)
            if (parity_count[a]) {
                odd0++;
                s0 = a;
            }
        for (uint32_t q = 1; q < cand && ok; q++)
            for (uint32_t a = 0; a < z && ok; a++)
                ok = !parity_count[(size_t)q * z + a];
        if (ok && odd0 == 1)
            core = cand;
    }
    free(parity_count);
    if (!core)
        return 0;

    qc_plan* p = calloc(1, sizeof *p + 2 * (size_t)mb * sizeof(uint32_t));
    uint8_t* known = calloc(mb, 1);
    uint8_t* used = calloc(mb, 1);
    if (!p || !known || !used) {
        free(p);
        free(known);
        free(used);
        return 0;
    }
    p->core = core;
    p->s0 = s0;
    p->step_row = (uint32_t*)(p + 1);
    p->step_target = p->step_row + mb;
    known[0] = 1;
    for (int progress = 1; progress;) {
        progress = 0;
        for (uint32_t r = 0; r < mb; r++) {
            if (used[r])
                continue;
            uint32_t unknown = 0, target = 0;
            for (uint32_t q = 0; q < mb; q++)
                if (shift_at(c, r, kb + q) >= 0 && !known[q]) {
                    unknown++;
                    target = q;
                }
            if (unknown == 1) {
                p->step_row[p->steps] = r;
                p->step_target[p->steps++] = target;
                known[target] = 1;
                used[r] = 1;
                progress = 1;
            }
        }
    }
    int complete = 1;
    for (uint32_t q = 0; q < mb; q++)
        complete &= known[q];
    free(known);
    free(used);
    if (!complete) {
        free(p);
        return 0;
    }
    /* Information is the first kb blocks; parity the rest. Rank is full when this works. */
    c->enc_info_pos = malloc((size_t)kb * z * sizeof *c->enc_info_pos);
    if (!c->enc_info_pos) {
        free(p);
        return 0;
    }
    for (uint32_t i = 0; i < kb * z; i++)
        c->enc_info_pos[i] = i;
    c->k_enc = kb * z;
    c->rank = mb * z;
    c->enc_data = p;
    c->encode = qc_encode;
    return 1;
}

gpufec_status qc_code_build(ldpc_code** out, uint32_t mb, uint32_t nb, uint32_t z,
                            const int32_t* shifts, gpufec_diag* diag)
{
    (void)diag;
    const uint32_t n = nb * z, m = mb * z;
    uint64_t edges = 0;
    for (size_t t = 0; t < (size_t)mb * nb; t++)
        edges += shifts[t] >= 0 ? z : 0;
    uint32_t* col_ptr = calloc((size_t)n + 1, sizeof *col_ptr);
    uint32_t* col_rows = malloc((size_t)edges * sizeof *col_rows + 1);
    int32_t* table = malloc((size_t)mb * nb * sizeof *table);
    if (!col_ptr || !col_rows || !table) {
        free(col_ptr);
        free(col_rows);
        free(table);
        return GPUFEC_ERR_OUT_OF_MEMORY;
    }
    memcpy(table, shifts, (size_t)mb * nb * sizeof *table);
    uint32_t e = 0;
    for (uint32_t bc = 0; bc < nb; bc++)
        for (uint32_t col = 0; col < z; col++) {
            /* Row br*z + r has its one at column (r + s) mod z, so column col of the block has
             * its one at row (col - s) mod z; block rows in order keep each column sorted. */
            for (uint32_t br = 0; br < mb; br++) {
                int32_t s = shifts[(size_t)br * nb + bc];
                if (s >= 0)
                    col_rows[e++] = br * z + (col + z - (uint32_t)s) % z;
            }
            col_ptr[bc * z + col + 1] = e;
        }
    ldpc_code* c = NULL;
    gpufec_status st = code_build_graph(&c, n, m, col_ptr, col_rows);
    free(col_ptr);
    free(col_rows);
    if (st) {
        free(table);
        return st;
    }
    c->qc_z = z;
    c->qc_mb = mb;
    c->qc_nb = nb;
    c->qc_shift = table;
    qc_encoder_prepare(c);
    *out = c;
    return GPUFEC_OK;
}
