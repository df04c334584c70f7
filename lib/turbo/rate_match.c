/* Rate matching of turbo-coded transport channels, 3GPP TS 36.212 5.1.4.1: each stream is
 * written into a 32-column matrix behind N_D dummy bits, its columns permuted (stream 2 also
 * shifted by one), the streams collected into a circular buffer (systematic, then parity 1 and
 * parity 2 interlaced), and E bits read from the redundancy version's starting point, skipping
 * dummy bits and wrapping (E beyond the buffer repeats bits). Here the buffer holds mother
 * positions, so the result is the transmission map's order. The soft buffer is the whole
 * circular buffer (N_cb = K_w, as for the uplink); the downlink's limit N_IR is not modelled. */
#include "turbo_code.h"

#include <stdlib.h>

static const uint8_t column_permutation[32] = {0, 16, 8,  24, 4, 20, 12, 28, 2, 18, 10, 26, 6, 22, 14, 30,
                                               1, 17, 9,  25, 5, 21, 13, 29, 3, 19, 11, 27, 7, 23, 15, 31};

gpufec_status turbo_rate_match_positions(uint32_t K, uint32_t E, uint32_t rv, uint32_t* positions)
{
    const uint32_t D = K + 4, R = (D + 31) / 32, KP = 32 * R, ND = KP - D, Kw = 3 * KP;
    int32_t* w = malloc((size_t)Kw * sizeof *w); /* mother position, or -1 for a dummy bit */
    if (!w)
        return GPUFEC_ERR_OUT_OF_MEMORY;
    for (uint32_t k = 0; k < KP; k++) {
        const uint32_t col = column_permutation[k / R], row = k % R;
        const uint32_t y01 = col + 32 * row;           /* streams 0 and 1 */
        const uint32_t y2 = (col + 32 * row + 1) % KP; /* stream 2 */
        w[k] = y01 < ND ? -1 : (int32_t)(3 * (y01 - ND) + 0);
        w[KP + 2 * k] = y01 < ND ? -1 : (int32_t)(3 * (y01 - ND) + 1);
        w[KP + 2 * k + 1] = y2 < ND ? -1 : (int32_t)(3 * (y2 - ND) + 2);
    }
    const uint32_t Ncb = Kw;
    const uint32_t k0 = R * (2 * ((Ncb + 8 * R - 1) / (8 * R)) * rv + 2);
    for (uint32_t k = 0, j = 0; k < E; j++) {
        const int32_t v = w[(k0 + j) % Ncb];
        if (v >= 0)
            positions[k++] = (uint32_t)v;
    }
    free(w);
    return GPUFEC_OK;
}
