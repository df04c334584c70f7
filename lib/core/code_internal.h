/* The family-neutral code object. Every family has a mother
 * code of n_full bits with k_mother information positions and a family body behind `body`;
 * what a frame transmits is the transmission map (tx_map.h), owned here. The family's record
 * (family.h) encodes, checks and describes its body. */
#ifndef GPUFEC_CODE_INTERNAL_H
#define GPUFEC_CODE_INTERNAL_H

#include <gpufec/code.h>

#include "text_reader.h"
#include "tx_map.h"

struct family_record;

struct gpufec_code {
    const struct family_record* family;
    void* body;                      /* owned: the family's own structure */
    uint32_t n_full;                 /* mother codeword bits */
    uint32_t k_mother;               /* information positions of the mother code */
    const uint32_t* mother_info_pos; /* k_mother positions, ascending; owned by the body. Filler
                                        bits are the last ones (as 5G NR places them) */
    uint32_t k;                      /* information bits carried: k_mother - shortened */
    uint32_t* info_pos;              /* the first k of mother_info_pos (owned copy) */
    uint32_t crc_poly;               /* 0, or a CRC (crc24.h) of crc_len bits (24 or 16) over the k
                                        information bits, its parity bits in the next information
                                        positions (mother_info_pos[k .. k+crc_len-1]); the decoder
                                        front checks it */
    uint32_t crc_len;
    tx_map tx;
    /* HARQ (gpufec_code_harq_*): each transmitted value's index in the soft buffer of harq_len
     * values that harq_code decodes; NULL without rate matching. Owned. */
    uint32_t* harq_pos;
    uint32_t harq_len;
    char harq_code[96];
};

/* A code object around a finished family body (which it then owns, also on failure), with
 * every position transmitted once, in order. */
gpufec_status code_create(gpufec_code** out, const struct family_record* family, void* body, uint32_t n_full,
                          uint32_t k_mother, const uint32_t* mother_info_pos);

/* Sets what a frame transmits: tx_pos[0..n_tx) mother positions in transmitted order (NULL: all
 * positions once, in order, except `punctured` ones); the last `shortened` information positions
 * become filler bits. Leaves the code unchanged on failure. */
gpufec_status code_set_transmission(gpufec_code* c, const uint32_t* tx_pos, uint32_t n_tx,
                                    const uint8_t* punctured, uint32_t shortened, gpufec_diag* diag);

/* Attaches a CRC24 (poly CRC24A_POLY or CRC24B_POLY) to the last 24 information bits: the
 * encoder computes them, the decoder reports a frame decoded only when they check. */
gpufec_status code_attach_crc(gpufec_code* c, uint32_t poly, uint32_t len, gpufec_diag* diag);

void code_free(gpufec_code* c);

/* Reads a whole regular file into a NUL-terminated buffer (caller frees). Refuses FIFOs, devices
 * and directories (GPUFEC_ERR_IO) and files over max_bytes (GPUFEC_ERR_TOO_LARGE). */
gpufec_status read_whole_file(const char* path, size_t max_bytes, char** text, size_t* length,
                              gpufec_diag* diag);
/* 1 when path names a regular file (stat never blocks, unlike opening a FIFO). */
int path_is_regular_file(const char* path);

#endif
