#include "ldpc_enc_desc.h"

#include "ldpc_code.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define DESC_FAIL(st, ...) text_fail_as((st), diag, 0, __VA_ARGS__)

void ldpc_enc_desc_free(ldpc_enc_desc* d)
{
    free(d->row_ptr), free(d->row_info), free(d->out_src), free(d->step_row), free(d->step_target),
        free(d->par_shift), free(d->gen);
    memset(d, 0, sizeof *d);
}

/* Check r holds parity bits r-1 and r only (r = 0: bit 0 only). src: each position's index in
 * [information | parity]. */
static int is_staircase(const ldpc_code* c, const uint32_t* src, uint32_t ki)
{
    for (uint32_t r = 0; r < c->m; r++) {
        uint32_t seen = 0, ok = 1;
        for (uint32_t e = c->row_ptr[r]; e < c->row_ptr[r + 1] && ok; e++) {
            const uint32_t s = src[c->edge_var[e]];
            if (s < ki)
                continue;
            ok = s - ki == r || (r > 0 && s - ki == r - 1);
            seen++;
        }
        if (!ok || seen != (r > 0 ? 2u : 1u))
            return 0;
    }
    return 1;
}

/* The generator of a code with another encoder: column i is the parity of information bit i alone
 * (the encoder is linear), packed 32 parity bits a word. */
static gpufec_status dense_generator(ldpc_enc_desc* d, const ldpc_code* c, const uint32_t* src)
{
    const uint32_t ki = d->k_mother;
    d->gen_words = (d->m + 31) / 32;
    d->gen = calloc((size_t)ki * d->gen_words + 1, sizeof *d->gen);
    uint8_t* x = calloc(c->n, 1);
    gpufec_status st = d->gen && x ? GPUFEC_OK : GPUFEC_ERR_OUT_OF_MEMORY;
    for (uint32_t i = 0; !st && i < ki; i++) {
        memset(x, 0, c->n);
        x[c->enc_info_pos[i]] = 1;
        st = c->encode(c, x);
        uint32_t* col = d->gen + (size_t)i * d->gen_words;
        for (uint32_t j = 0; !st && j < c->n; j++)
            if (src[j] >= ki && x[j])
                col[(src[j] - ki) >> 5] |= 1u << ((src[j] - ki) & 31);
    }
    free(x);
    return st;
}

/* The checks' information sums and, for QC codes, the block steps. */
static gpufec_status check_rows(ldpc_enc_desc* d, const ldpc_code* c, const uint32_t* src, const uint32_t* srow,
                                const uint32_t* starget)
{
    const uint32_t m = d->m, ki = d->k_mother;
    uint32_t edges = 0;
    for (uint32_t e = 0; e < c->row_ptr[m]; e++)
        edges += src[c->edge_var[e]] < ki;
    d->row_edges = edges;
    d->row_ptr = malloc(((size_t)m + 1) * sizeof *d->row_ptr);
    d->row_info = malloc(((size_t)edges + 1) * sizeof *d->row_info);
    if (d->kind == LDPC_ENC_QC) {
        d->step_row = malloc(((size_t)d->steps + 1) * sizeof *d->step_row);
        d->step_target = malloc(((size_t)d->steps + 1) * sizeof *d->step_target);
        d->par_shift = malloc((size_t)d->mb * d->mb * sizeof *d->par_shift);
    }
    if (!d->row_ptr || !d->row_info || (d->kind == LDPC_ENC_QC && (!d->step_row || !d->step_target || !d->par_shift)))
        return GPUFEC_ERR_OUT_OF_MEMORY;
    uint32_t t = 0;
    for (uint32_t r = 0; r < m; r++) {
        d->row_ptr[r] = t;
        for (uint32_t e = c->row_ptr[r]; e < c->row_ptr[r + 1]; e++)
            if (src[c->edge_var[e]] < ki)
                d->row_info[t++] = src[c->edge_var[e]];
    }
    d->row_ptr[m] = t;
    if (d->kind == LDPC_ENC_QC) {
        const uint32_t kb = c->qc_nb - c->qc_mb;
        memcpy(d->step_row, srow, (size_t)d->steps * sizeof *srow);
        memcpy(d->step_target, starget, (size_t)d->steps * sizeof *starget);
        for (uint32_t r = 0; r < d->mb; r++)
            for (uint32_t q = 0; q < d->mb; q++)
                d->par_shift[(size_t)r * d->mb + q] = c->qc_shift[(size_t)r * c->qc_nb + kb + q];
    }
    return GPUFEC_OK;
}

gpufec_status ldpc_enc_desc_build(ldpc_enc_desc* d, const gpufec_code* code, gpufec_diag* diag)
{
    memset(d, 0, sizeof *d);
    if (!code || code->family != &ldpc_family)
        return DESC_FAIL(GPUFEC_ERR_UNSUPPORTED, "device encoder: binary LDPC codes only (this is a %s code)",
                         code ? code->family->name : "missing");
    const ldpc_code* c = ldpc_of(code);
    const uint32_t n = c->n, ki = c->k_enc, np = n - ki;
    if (code->k_mother != ki || !c->encode)
        return DESC_FAIL(GPUFEC_ERR_UNSUPPORTED, "device encoder: the code has no encoder");
    uint32_t* src = malloc((size_t)n * sizeof *src); /* each position's index in [information | parity] */
    if (!src)
        return GPUFEC_ERR_OUT_OF_MEMORY;
    for (uint32_t j = 0; j < n; j++)
        src[j] = UINT32_MAX;
    for (uint32_t i = 0; i < ki; i++)
        src[c->enc_info_pos[i]] = i;
    for (uint32_t j = 0, p = ki; j < n; j++) /* parity bits in position order */
        if (src[j] == UINT32_MAX)
            src[j] = p++;
    const uint32_t* srow = NULL;
    const uint32_t* starget = NULL;
    const int full_rank = c->rank == c->m && np == c->m;
    if (full_rank && qc_encoder_plan(c, &d->core, &d->s0, &d->steps, &srow, &starget)) {
        d->kind = LDPC_ENC_QC;
        d->z = c->qc_z;
        d->mb = c->qc_mb;
    } else if (full_rank && is_staircase(c, src, ki)) {
        d->kind = LDPC_ENC_STAIRCASE;
    } else if ((uint64_t)ki * ((np + 31) / 32) * 32 <= LDPC_ENC_DENSE_MAX_BITS) {
        d->kind = LDPC_ENC_DENSE;
    } else {
        free(src);
        return DESC_FAIL(GPUFEC_ERR_UNSUPPORTED,
                         "device encoder: the code has neither DVB-S2's staircase nor the dual-diagonal QC structure, "
                         "and its generator (%u x %u bits) exceeds %llu bits",
                         ki, np, (unsigned long long)LDPC_ENC_DENSE_MAX_BITS);
    }
    d->k = code->k;
    d->k_mother = ki;
    d->m = np;
    d->n_out = code->tx.n_tx;
    gpufec_status st =
        d->kind == LDPC_ENC_DENSE ? dense_generator(d, c, src) : check_rows(d, c, src, srow, starget);
    if (!st && !(d->out_src = malloc(((size_t)d->n_out + 1) * sizeof *d->out_src)))
        st = GPUFEC_ERR_OUT_OF_MEMORY;
    for (uint32_t i = 0; !st && i < d->n_out; i++)
        d->out_src[i] = src[tx_map_position(&code->tx, i)];
    free(src);
    if (st)
        ldpc_enc_desc_free(d);
    return st;
}

size_t ldpc_enc_desc_shared_bytes(const ldpc_enc_desc* d)
{
    const size_t info_words = ((size_t)d->k_mother + 31) / 32, par_words = ((size_t)d->m + 31) / 32;
    const size_t lam = d->kind == LDPC_ENC_DENSE ? 0 : ((size_t)d->m + 3) & ~(size_t)3;
    return 4 * info_words + lam + (d->kind == LDPC_ENC_QC ? lam : 4 * par_words);
}

/* Phase 2 on the host, as the kernel does it: lam in, parity out. */
static void parity_from_lam(const ldpc_enc_desc* d, const uint8_t* lam, uint8_t* par)
{
    if (d->kind == LDPC_ENC_DENSE)
        return; /* no checks: parity_dense */
    if (d->kind == LDPC_ENC_STAIRCASE) {
        uint8_t acc = 0;
        for (uint32_t i = 0; i < d->m; i++)
            par[i] = acc ^= lam[i];
        return;
    }
    const uint32_t z = d->z;
    for (uint32_t a = 0; a < z; a++) {
        uint8_t v = 0;
        for (uint32_t r = 0; r < d->core; r++)
            v ^= lam[(size_t)r * z + a];
        par[(a + d->s0) % z] = v;
    }
    for (uint32_t t = 0; t < d->steps; t++) {
        const uint32_t r = d->step_row[t], target = d->step_target[t];
        const int32_t* sh = d->par_shift + (size_t)r * d->mb;
        for (uint32_t a = 0; a < z; a++) {
            uint8_t v = lam[(size_t)r * z + a];
            for (uint32_t q = 0; q < d->mb; q++)
                if (sh[q] >= 0 && q != target)
                    v ^= par[(size_t)q * z + (a + (uint32_t)sh[q]) % z];
            par[(size_t)target * z + (a + (uint32_t)sh[target]) % z] = v;
        }
    }
}

const char* ldpc_enc_variant(const ldpc_enc_desc* d)
{
    return d->kind == LDPC_ENC_QC ? "qc dual-diagonal" : d->kind == LDPC_ENC_STAIRCASE ? "staircase" : "dense generator";
}

gpufec_status ldpc_enc_desc_run_host(const gpufec_code* code, const uint8_t* info, size_t n_frames, uint8_t* out,
                                     char* variant, size_t variant_len)
{
    ldpc_enc_desc d;
    gpufec_status st = ldpc_enc_desc_build(&d, code, NULL);
    if (st)
        return st;
    if (variant && variant_len)
        snprintf(variant, variant_len, "%s", ldpc_enc_variant(&d));
    uint8_t* u = malloc((size_t)d.k_mother + 2 * (size_t)d.m + 1);
    if (!u) {
        ldpc_enc_desc_free(&d);
        return GPUFEC_ERR_OUT_OF_MEMORY;
    }
    uint8_t *lam = u + d.k_mother, *par = lam + d.m;
    for (size_t f = 0; f < n_frames; f++) {
        for (uint32_t i = 0; i < d.k_mother; i++)
            u[i] = i < d.k ? info[f * d.k + i] != 0 : 0;
        if (d.kind == LDPC_ENC_DENSE) {
            memset(par, 0, d.m);
            for (uint32_t i = 0; i < d.k_mother; i++)
                if (u[i])
                    for (uint32_t p = 0; p < d.m; p++)
                        par[p] ^= (uint8_t)((d.gen[(size_t)i * d.gen_words + (p >> 5)] >> (p & 31)) & 1u);
        } else {
            for (uint32_t r = 0; r < d.m; r++) {
                uint8_t v = 0;
                for (uint32_t e = d.row_ptr[r]; e < d.row_ptr[r + 1]; e++)
                    v ^= u[d.row_info[e]];
                lam[r] = v;
            }
            parity_from_lam(&d, lam, par);
        }
        for (uint32_t t = 0; t < d.n_out; t++)
            out[f * d.n_out + t] = d.out_src[t] < d.k_mother ? u[d.out_src[t]] : par[d.out_src[t] - d.k_mother];
    }
    free(u);
    ldpc_enc_desc_free(&d);
    return GPUFEC_OK;
}
