/* CRC24A and CRC24B of 3GPP (TS 36.212 5.1.1, TS 38.212 5.1), and CRC16 (38.212 5.1, a small
 * transport block's CRC): the register after shifting n bits (one per byte) through g. Attaching the 24 parity bits (the register, most significant bit
 * first) makes the register of the whole block zero, which is how a receiver checks it. Host and
 * device (a kernel may check a CRC itself). */
#ifndef GPUFEC_CRC24_H
#define GPUFEC_CRC24_H

#include "soft_value.h" /* GPUFEC_HD */

#include <stddef.h>

#include <stdint.h>

#define CRC24A_POLY 0x864CFBu
#define CRC24B_POLY 0x800063u
#define CRC16_POLY 0x1021u /* D^16 + D^12 + D^5 + 1 */

/* The register of a CRC of `width` bits after one more message bit (0 or 1) */
GPUFEC_HD uint32_t crc_step(uint32_t r, uint32_t bit, uint32_t poly, uint32_t width)
{
    const uint32_t top = ((r >> (width - 1)) & 1u) ^ bit;
    return ((r << 1) & ((1u << width) - 1u)) ^ (top ? poly : 0u);
}

/* A CRC of `width` bits (16 or 24). pos (NULL: 0, 1, 2, ...): the bits are bits[pos[0]],
 * bits[pos[1]], ... (a decoded codeword's information positions). */
GPUFEC_HD uint32_t crc_register_at(const uint8_t* bits, const uint32_t* pos, uint32_t n, uint32_t poly,
                                   uint32_t width)
{
    uint32_t r = 0;
    for (uint32_t i = 0; i < n; i++)
        r = crc_step(r, bits[pos ? pos[i] : i] != 0, poly, width);
    return r;
}

GPUFEC_HD uint32_t crc24_register_at(const uint8_t* bits, const uint32_t* pos, uint32_t n, uint32_t poly)
{
    return crc_register_at(bits, pos, n, poly, 24);
}

GPUFEC_HD uint32_t crc24_register(const uint8_t* bits, uint32_t n, uint32_t poly)
{
    return crc24_register_at(bits, NULL, n, poly);
}

#endif
