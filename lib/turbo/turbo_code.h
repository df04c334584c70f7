/* The LTE turbo family's code body and its pieces: the QPP interleaver, the encoder, CRC24 and
 * rate matching (TS 36.212 5.1.1, 5.1.3.2, 5.1.4.1). Mother codeword position 3 i + s is stream
 * d_s[i], i < K + 4. */
#ifndef GPUFEC_TURBO_CODE_H
#define GPUFEC_TURBO_CODE_H

#include <gpufec/turbo.h>

#include "code_internal.h"
#include "family.h"
#include "turbo_rules.h"

#define TURBO_QPP_SIZES 188
#define TURBO_MAX_K 6144u
/* Rate matching beyond this many bits (64 times the largest mother code) is refused. */
#define TURBO_MAX_E (64u * 3u * (TURBO_MAX_K + 4u))

typedef struct {
    uint16_t K, f1, f2;
    const char* name; /* lte-turbo-<K> */
} turbo_qpp;
extern const turbo_qpp turbo_qpp_table[TURBO_QPP_SIZES];

typedef struct turbo_code {
    uint32_t K;
    uint32_t crc;  /* 0 or 24 */
    int crc_b;
    uint32_t e, rv;
    uint32_t f1, f2;
    uint32_t* perm;     /* K: pi(i) */
    uint32_t* info_pos; /* K - crc mother positions of the information bits (3 i) */
} turbo_code;

static inline const turbo_code* turbo_of(const gpufec_code* c) { return (const turbo_code*)c->body; }

/* Index of K in the table, or -1. */
int turbo_qpp_index(uint32_t K);
void turbo_qpp_fill(uint32_t K, uint32_t f1, uint32_t f2, uint32_t* perm);

/* Encodes K bits (u, one per byte) into the mother codeword (3 (K + 4) bits). */
void turbo_encode_bits(const turbo_code* t, const uint8_t* u, uint8_t* mother);

/* CRC24 parity of n bits (crc_b: CRC24B). */
void turbo_crc24(const uint8_t* bits, size_t n, int crc_b, uint8_t parity[24]);
/* 1 when the last 24 of the K bits are the CRC of the others. */
int turbo_crc_ok(const turbo_code* t, const uint8_t* u);

/* The transmission order of 36.212's rate matching: e mother positions for (K, E, rv). */
gpufec_status turbo_rate_match_positions(uint32_t K, uint32_t E, uint32_t rv, uint32_t* positions);

extern const family_record turbo_family;

#endif
