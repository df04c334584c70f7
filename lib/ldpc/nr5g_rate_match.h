/* 5G NR LDPC rate matching (TS 38.212 5.4.2) and what the code opener needs around it. */
#ifndef GPUFEC_NR5G_RATE_MATCH_H
#define GPUFEC_NR5G_RATE_MATCH_H

#include <gpufec/common.h>

#include <stdint.h>

typedef struct {
    uint32_t bg;     /* base graph, 1 or 2 */
    uint32_t z;      /* lifting size Zc */
    uint32_t kprime; /* K': information bits with CRC; K - K' filler bits (K = 22Z or 10Z) */
    uint32_t e;      /* bits sent */
    uint32_t rv;     /* redundancy version 0..3 */
    uint32_t qm;     /* modulation order: the bit interleaver's rows */
    uint32_t ncb;    /* circular buffer length (N without a limit) */
} nr5g_rm;

/* The starting point of redundancy version rv (Table 5.4.2.1-2). */
uint32_t nr5g_k0(uint32_t bg, uint32_t rv, uint32_t ncb, uint32_t z);

/* positions[t], t < e: the mother position (full BG1/BG2 numbering, 68Z or 52Z columns) that
 * transmitted bit t carries. rm must be valid (the opener checks). */
gpufec_status nr5g_rate_match_positions(const nr5g_rm* rm, uint32_t* positions);

#endif
