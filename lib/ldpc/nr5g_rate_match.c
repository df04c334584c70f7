/* 5G NR LDPC rate matching, 3GPP TS 38.212 5.4.2: bit selection from the circular buffer and
 * bit interleaving. The buffer holds the mother codeword without its first 2Z (punctured)
 * systematic bits, d_k = mother position 2Z + k, k < N (66Z for BG1, 50Z for BG2), limited to
 * its first Ncb bits; filler bits are in it but never sent. E bits are read from the redundancy
 * version's starting point k0, skipping filler bits and wrapping (E beyond the buffer repeats
 * bits); then the E bits are written row by row into Qm rows and read column by column. Here
 * the buffer holds mother positions, so the result is the transmission map's order. */
#include "nr5g_rate_match.h"

#include <stdlib.h>

/* Table 5.4.2.1-2: k0 = floor(num[rv] * Ncb / (den * Z)) * Z. */
uint32_t nr5g_k0(uint32_t bg, uint32_t rv, uint32_t ncb, uint32_t z)
{
    static const uint32_t num[2][4] = {{0, 17, 33, 56}, {0, 13, 25, 43}};
    const uint32_t den = bg == 1 ? 66 : 50;
    return (uint32_t)(((uint64_t)num[bg == 1 ? 0 : 1][rv & 3] * ncb) / ((uint64_t)den * z)) * z;
}

gpufec_status nr5g_rate_match_positions(const nr5g_rm* rm, uint32_t* positions)
{
    const uint32_t z = rm->z, k_info = (rm->bg == 1 ? 22 : 10) * z;
    const uint32_t filler_begin = rm->kprime - 2 * z, filler_end = k_info - 2 * z; /* in d */
    const uint32_t k0 = nr5g_k0(rm->bg, rm->rv, rm->ncb, z);
    uint32_t* e = malloc((size_t)rm->e * sizeof *e);
    if (!e)
        return GPUFEC_ERR_OUT_OF_MEMORY;
    /* The buffer holds Ncb - filler > 0 sendable bits (checked by the caller), so this ends. */
    for (uint32_t k = 0, j = 0; k < rm->e; j++) {
        const uint32_t d = (uint32_t)(((uint64_t)k0 + j) % rm->ncb);
        if (d < filler_begin || d >= filler_end)
            e[k++] = 2 * z + d;
    }
    const uint32_t rows = rm->qm, cols = rm->e / rm->qm;
    for (uint32_t c = 0; c < cols; c++)
        for (uint32_t r = 0; r < rows; r++)
            positions[(size_t)c * rows + r] = e[(size_t)r * cols + c];
    free(e);
    return GPUFEC_OK;
}
