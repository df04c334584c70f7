/* gr-gpufec public C API: 5G NR transport blocks (TS 38.212 7.2) over the LDPC family.
 *
 * A transport block of A bits gets its CRC (7.2.1: CRC24A when A > 3824, else CRC16), giving
 * B bits; the base graph is given or chosen from A and the target rate (7.2.2); B is cut into C
 * code blocks of K' bits, each with a CRC24B when C > 1, all of one base graph and lifting size
 * (5.2.2); each block is LDPC-encoded and rate matched (5.4.2) to E_r bits, where 5.4.2.1 gives
 * the first C0 blocks E0 = NL Qm floor(G / (NL Qm C)) and the others E1 = NL Qm ceil(...); the
 * blocks' bits are concatenated (5.5) into the G bits of the transport block.
 *
 * The description is a text of options in the code names' form:
 *   tbs=<A>:g=<G>:qm=<1|2|4|6|8>[:nl=<1..4>][:rv=<0..3>][:bg=<1|2>][:r=<target rate>][:ncb=<Ncb>]
 * One of bg and r is needed: r (0 < r < 1, the MCS's target code rate) chooses the base graph as
 * 7.2.2 does. ncb limits each block's circular buffer (limited-buffer rate matching). G must be
 * a multiple of NL Qm.
 *
 * A context holds the blocks' codes and (when created with decoder options) one decoder per E
 * value. gpufec_nr_tb_decode takes n_tb transport blocks' G soft values each (the decoders' sign
 * convention) and gives their A bits, whether each transport block's CRC and all its blocks'
 * CRCs hold, and each block's result. The blocks of all n_tb transport blocks with the same E
 * decode in one call of their decoder. */
#ifndef GPUFEC_NR5G_H
#define GPUFEC_NR5G_H

#include "decoder.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct gpufec_nr_tb gpufec_nr_tb;

typedef struct {
    uint32_t A, G, qm, nl, rv, bg;
    uint32_t tb_crc;            /* 24 or 16: the transport block's CRC */
    uint32_t C;                 /* code blocks */
    uint32_t kprime;            /* bits per code block K', with its CRC24B when C > 1 */
    uint32_t zc;                /* lifting size */
    uint32_t C0, E0, E1;        /* the first C0 blocks carry E0 bits each, the other C - C0 E1 */
    char code0[96], code1[96];  /* their code names (gpufec_code_open); code1 empty when C0 = C */
} gpufec_nr_tb_info;

/* opts NULL: no decoders (the context encodes only). diag (may be NULL) names the option and the
 * reason on failure. */
GPUFEC_API gpufec_status gpufec_nr_tb_create(gpufec_nr_tb** out, const char* description,
                                             const gpufec_decoder_opts* opts, gpufec_diag* diag);
GPUFEC_API gpufec_status gpufec_nr_tb_destroy(gpufec_nr_tb* tb);
GPUFEC_API gpufec_status gpufec_nr_tb_get_info(const gpufec_nr_tb* tb, gpufec_nr_tb_info* info);

/* bits: n_tb * A bytes of 0/1 in; coded: n_tb * G bytes out (the bits as transmitted). */
GPUFEC_API gpufec_status gpufec_nr_tb_encode(const gpufec_nr_tb* tb, const uint8_t* bits, size_t n_tb,
                                             uint8_t* coded);

/* soft: n_tb * G values in. bits: n_tb * A bytes out. tb_ok: n_tb flags, 1 when the transport
 * block's CRC and every block's CRC and parity checks hold. cb_ok (may be NULL): n_tb * C flags,
 * each block's CRC-and-parity result. Frames of nothing but erasures are never reported good. */
GPUFEC_API gpufec_status gpufec_nr_tb_decode(gpufec_nr_tb* tb, const float* soft, size_t n_tb, uint8_t* bits,
                                             uint8_t* tb_ok, uint8_t* cb_ok);

#ifdef __cplusplus
}
#endif

#endif
