/* Built-in GF(q) LDPC codes from their parameters.
 *
 * Quasi-cyclic codes by array dispersion (seed 001, after Zhou et al.): the (q-1) x (q-1) base
 * array W over GF(q) with w[i][j] = alpha^((j - i) mod (q-1)) - 1 (Lan et al.'s array, which
 * meets the alpha-multiplied row constraints, so the dispersed H has no 4-cycles); a dv x dc
 * sub-array of W that avoids its zero diagonal; each non-zero entry alpha^k dispersed into the
 * (q-1) x (q-1) alpha-multiplied circulant permutation matrix whose row r holds alpha^(k+r) in
 * column (k + r) mod (q-1).
 *
 * Regular codes like seed 000's: (dv, dc) = (2, 4) for q >= 16 and (3, 6) below, rate 1/2,
 * the graph by progressive edge growth (lib/ldpc/peg.c), coefficients drawn uniformly from the
 * non-zero elements by a generator seeded from the name. */
#include "ldpc_code.h"
#include "nb_code.h"
#include "text_reader.h"

#include <stdlib.h>

gpufec_status nb_build_qc(gpufec_code** out, uint32_t q, uint32_t dv, uint32_t dc, uint32_t row0, uint32_t col0,
                          gpufec_diag* diag)
{
    nb_gf gf;
    if (nb_gf_init(&gf, q, gpufec_nb_default_poly(q)))
        return text_fail_as(GPUFEC_ERR_INVALID_ARGUMENT, diag, 0, "q=%u: not a field size 4..256", q);
    const uint32_t z = q - 1;
    if (row0 + dv > z || col0 + dc > z)
        return text_fail_as(GPUFEC_ERR_INVALID_ARGUMENT, diag, 0, "a %u x %u sub-array does not fit the %u x %u base array",
                            dv, dc, z, z);
    const uint32_t n = dc * z, m = dv * z;
    uint32_t* row_ptr = malloc(((size_t)m + 1) * sizeof *row_ptr);
    uint32_t* var = malloc((size_t)m * dc * sizeof *var);
    uint8_t* coef = malloc((size_t)m * dc);
    if (!row_ptr || !var || !coef) {
        free(row_ptr), free(var), free(coef);
        return GPUFEC_ERR_OUT_OF_MEMORY;
    }
    uint32_t e = 0;
    for (uint32_t bi = 0; bi < dv; bi++)
        for (uint32_t r = 0; r < z; r++) {
            row_ptr[bi * z + r] = e;
            for (uint32_t bj = 0; bj < dc; bj++) {
                const uint32_t i = row0 + bi, j = col0 + bj;
                const uint32_t w = nb_gf_pow(&gf, (j + z - i) % z) ^ 1u; /* alpha^(j-i) - 1 */
                if (!w)
                    continue; /* the diagonal: a zero block */
                const uint32_t k = (uint32_t)gf.log[w];
                var[e] = bj * z + (k + r) % z;
                coef[e++] = (uint8_t)nb_gf_pow(&gf, k + r);
            }
        }
    row_ptr[m] = e;
    return nb_complete(out, q, gf.poly, n, m, row_ptr, var, coef, z, diag);
}

static uint64_t nb_rand(uint64_t* s)
{
    uint64_t x = *s;
    x ^= x << 13;
    x ^= x >> 7;
    x ^= x << 17;
    return *s = x;
}

gpufec_status nb_build_regular(gpufec_code** out, uint32_t q, uint32_t info_bits, uint64_t seed, gpufec_diag* diag)
{
    nb_gf gf;
    if (nb_gf_init(&gf, q, gpufec_nb_default_poly(q)))
        return text_fail_as(GPUFEC_ERR_UNKNOWN_CODE, diag, 0, "nb-gf%u: q must be 4, 8, 16, 32, 64, 128 or 256", q);
    const uint32_t dv = q >= 16 ? 2 : 3, dc = 2 * dv;
    if (info_bits % gf.p || info_bits / gf.p < 4 || info_bits > 500000)
        return text_fail_as(GPUFEC_ERR_UNKNOWN_CODE, diag, 0,
                            "nb-gf%u-%u: the information bits must be a multiple of %u, 4 symbols to 500000 bits", q,
                            info_bits, gf.p);
    const uint32_t n = 2 * (info_bits / gf.p), m = n / 2;
    /* The size limits before the graph is built (building first took seconds to be refused). */
    if (n > NB_MAX_SYMBOLS || (uint64_t)n * dv > NB_MAX_EDGES)
        return text_fail_as(GPUFEC_ERR_TOO_LARGE, diag, 0, "nb-gf%u-%u: H would have %u columns and %llu entries: limits %u and %u",
                            q, info_bits, n, (unsigned long long)n * dv, NB_MAX_SYMBOLS, NB_MAX_EDGES);
    ldpc_code* g = NULL;
    gpufec_status st = peg_regular_code(&g, dv, dc, n, seed, diag);
    if (st)
        return st;
    uint32_t* row_ptr = malloc(((size_t)m + 1) * sizeof *row_ptr);
    uint32_t* var = malloc((size_t)g->edges * sizeof *var);
    uint8_t* coef = malloc(g->edges);
    if (!row_ptr || !var || !coef) {
        ldpc_free(g);
        free(row_ptr), free(var), free(coef);
        return GPUFEC_ERR_OUT_OF_MEMORY;
    }
    uint64_t rng = seed * 0x9e3779b97f4a7c15ull + q;
    for (uint32_t i = 0; i <= m; i++)
        row_ptr[i] = g->row_ptr[i];
    for (uint32_t e = 0; e < g->edges; e++) {
        var[e] = g->edge_var[e];
        coef[e] = (uint8_t)(1 + nb_rand(&rng) % (q - 1));
    }
    ldpc_free(g);
    return nb_complete(out, q, gf.poly, n, m, row_ptr, var, coef, 0, diag);
}
