/* Generic systematic encoder for any parity-check matrix.
 *
 * H is brought to reduced row-echelon form over GF(2) once per code, choosing pivots from the
 * last column towards the first, so that codes with the parity part on the right (most standard
 * codes) keep their information bits in the first k positions. Non-pivot columns carry the
 * information; each pivot (parity) bit is then the XOR of the information bits its reduced row
 * selects. Redundant rows fall out as zero rows, so k = n - rank(H) also for rank-deficient H. */
#include "code_internal.h"

#include <stdlib.h>
#include <string.h>

static void gf2_encode(const gpufec_code* c, uint8_t* x);

static inline int get_bit(const uint64_t* row, uint32_t j) { return (int)((row[j >> 6] >> (j & 63)) & 1u); }

gpufec_status gf2_encoder_prepare(gpufec_code* c)
{
    const uint32_t n = c->n, m = c->m, W = (n + 63) / 64;
    uint64_t* h = calloc((size_t)m * W, sizeof *h);
    uint32_t* pivot_col = malloc(((size_t)m + 1) * sizeof *pivot_col);
    uint8_t* is_pivot = calloc(n, 1);
    if (!h || !pivot_col || !is_pivot) {
        free(h);
        free(pivot_col);
        free(is_pivot);
        return GPUFEC_ERR_OUT_OF_MEMORY;
    }
    for (uint32_t i = 0; i < m; i++)
        for (uint32_t e = c->row_ptr[i]; e < c->row_ptr[i + 1]; e++)
            h[(size_t)i * W + (c->edge_var[e] >> 6)] ^= 1ull << (c->edge_var[e] & 63);

    uint32_t rank = 0;
    for (uint32_t col = n; col-- > 0 && rank < m;) {
        uint32_t r = rank;
        while (r < m && !get_bit(h + (size_t)r * W, col))
            r++;
        if (r == m)
            continue;
        if (r != rank)
            for (uint32_t w = 0; w < W; w++) {
                uint64_t t = h[(size_t)r * W + w];
                h[(size_t)r * W + w] = h[(size_t)rank * W + w];
                h[(size_t)rank * W + w] = t;
            }
        const uint64_t* prow = h + (size_t)rank * W;
        for (uint32_t i = 0; i < m; i++) {
            uint64_t* row = h + (size_t)i * W;
            if (i != rank && get_bit(row, col))
                for (uint32_t w = 0; w < W; w++)
                    row[w] ^= prow[w];
        }
        pivot_col[rank++] = col;
        is_pivot[col] = 1;
    }

    const uint32_t k = n - rank, KW = (k + 63) / 64 ? (k + 63) / 64 : 1;
    c->rank = rank;
    c->k_enc = k;
    c->words_per_row = KW;
    c->encode = gf2_encode;
    c->enc_info_pos = malloc(((size_t)k + 1) * sizeof *c->enc_info_pos);
    c->parity_pos = malloc(((size_t)rank + 1) * sizeof *c->parity_pos);
    c->parity_rows = calloc((size_t)rank * KW + 1, sizeof *c->parity_rows);
    uint32_t* info_index = malloc(((size_t)n + 1) * sizeof *info_index);
    gpufec_status st = GPUFEC_OK;
    if (!c->enc_info_pos || !c->parity_pos || !c->parity_rows || !info_index) {
        st = GPUFEC_ERR_OUT_OF_MEMORY;
    } else {
        uint32_t t = 0;
        for (uint32_t j = 0; j < n; j++)
            if (!is_pivot[j]) {
                info_index[j] = t;
                c->enc_info_pos[t++] = j;
            }
        for (uint32_t r = 0; r < rank; r++) {
            c->parity_pos[r] = pivot_col[r];
            const uint64_t* row = h + (size_t)r * W;
            uint64_t* out = c->parity_rows + (size_t)r * KW;
            for (uint32_t w = 0; w < W; w++) {
                uint64_t bits = row[w];
                while (bits) {
                    uint32_t j = w * 64 + (uint32_t)__builtin_ctzll(bits);
                    bits &= bits - 1;
                    if (!is_pivot[j])
                        out[info_index[j] >> 6] |= 1ull << (info_index[j] & 63);
                }
            }
        }
    }
    free(info_index);
    free(h);
    free(pivot_col);
    free(is_pivot);
    return st;
}

static void gf2_encode(const gpufec_code* c, uint8_t* x)
{
    const uint32_t KW = c->words_per_row;
    uint64_t packed[KW];
    memset(packed, 0, sizeof packed);
    for (uint32_t i = 0; i < c->k_enc; i++)
        packed[i >> 6] |= (uint64_t)(x[c->enc_info_pos[i]] & 1u) << (i & 63);
    for (uint32_t r = 0; r < c->rank; r++) {
        const uint64_t* row = c->parity_rows + (size_t)r * KW;
        uint64_t acc = 0;
        for (uint32_t w = 0; w < KW; w++)
            acc ^= row[w] & packed[w];
        x[c->parity_pos[r]] = (uint8_t)(__builtin_popcountll(acc) & 1);
    }
}
