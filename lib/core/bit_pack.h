/* Packed output (GPUFEC_OUTPUT_*_PACKED): a frame's bits, eight per byte, the first in the most
 * significant bit (GNU Radio's GR_MSB_FIRST); the last byte's unused low bits are 0. Host and
 * device: the CUDA engine packs on the GPU, before the copy back, by this rule. */
#ifndef GPUFEC_BIT_PACK_H
#define GPUFEC_BIT_PACK_H

#include "soft_value.h" /* GPUFEC_HD */

#include <stdint.h>

/* Bytes of the packed form of n bits */
GPUFEC_HD uint32_t packed_bytes(uint32_t n) { return n / 8u + (n % 8u != 0); }

/* Byte j of the packed form of n bits (one per byte, nonzero = 1); bit t is bits[pos[t]] (pos
 * NULL: bits[t]). */
GPUFEC_HD uint8_t packed_byte(const uint8_t* bits, const uint32_t* pos, uint32_t n, uint32_t j)
{
    uint32_t v = 0;
    for (uint32_t b = 0; b < 8; b++) {
        const uint32_t t = 8 * j + b;
        v = v << 1 | (uint32_t)(t < n && bits[pos ? pos[t] : t] != 0);
    }
    return (uint8_t)v;
}

#endif
