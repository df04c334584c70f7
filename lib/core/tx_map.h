/* The transmission map: how the n transmitted soft values of a frame become the n_full soft
 * values of the mother codeword every decoder works on. Written once for the CPU decoders and
 * the kernels' loaders (host and device).
 *
 * Mother position j takes the sum of the (sanitised) values of the transmitted positions that
 * carry it: none -> punctured (an erasure, 0); one -> that value; several -> repetition, summed
 * as independent observations of the same bit (LTE and 5G NR rate matching), then clamped.
 * Filler bits are known zeros (the largest positive confidence). The sign convention is the
 * API's (positive = 0); type and scale were applied before (soft_input.h), quantisation to a
 * decoder's storage precision comes after (the family's rules). */
#ifndef GPUFEC_TX_MAP_H
#define GPUFEC_TX_MAP_H

#include <gpufec/common.h>

#include "soft_input.h"
#include "soft_value.h"

#include <stddef.h>

#define TX_PUNCTURED (-1)  /* src value: no transmitted value, an erasure */
#define TX_KNOWN_ZERO (-2) /* src value: filler bit, known 0 */

/* What a loader needs, by value (three pointers, device or host). src NULL: the identity map
 * (position j is transmitted value j); rep_ptr NULL: no repetition. */
typedef struct {
    const int32_t* src;      /* n_full: first transmitted index, or TX_PUNCTURED / TX_KNOWN_ZERO */
    const uint32_t* rep_ptr; /* n_full + 1: further copies of j are rep_src[rep_ptr[j] .. rep_ptr[j+1]) */
    const uint32_t* rep_src;
} tx_map_view;

/* The mother value of position j of one frame (frame: its n transmitted values of input type
 * `type`, read by soft_input.h's rule: the CPU and the engine widen narrow types first, a kernel
 * that reads the caller's int8 in place passes them as they are). *carries is OR-ed with 1 when
 * a transmitted value read is not an erasure (the erased-frame rule). */
GPUFEC_HD float tx_map_load_as(tx_map_view m, uint32_t j, const void* frame, gpufec_input_type type, float int8_scale,
                               int* carries)
{
    const int32_t s = m.src ? m.src[j] : (int32_t)j;
    if (s < 0)
        return s == TX_PUNCTURED ? 0.0f : GPUFEC_LLR_LIMIT;
    float v = soft_sanitize(soft_input_value(frame, (size_t)s, type, int8_scale));
    *carries |= v != 0.0f;
    if (m.rep_ptr) {
        for (uint32_t t = m.rep_ptr[j]; t < m.rep_ptr[j + 1]; t++) {
            const float r = soft_sanitize(soft_input_value(frame, m.rep_src[t], type, int8_scale));
            *carries |= r != 0.0f;
            v += r;
        }
        v = fminf(fmaxf(v, -GPUFEC_LLR_LIMIT), GPUFEC_LLR_LIMIT);
    }
    return v;
}

/* ... of float soft values */
GPUFEC_HD float tx_map_load(tx_map_view m, uint32_t j, const float* frame, int* carries)
{
    return tx_map_load_as(m, j, frame, GPUFEC_INPUT_FLOAT32, 1.0f, carries);
}

GPUFEC_HD float tx_map_value(tx_map_view m, uint32_t j, const float* frame)
{
    int ignored = 0;
    return tx_map_load(m, j, frame, &ignored);
}

/* The map as the code object owns it (host). */
typedef struct {
    uint32_t n_full, n_tx;
    int32_t* src;       /* NULL: identity (n_tx == n_full, nothing removed or repeated) */
    uint32_t* rep_ptr;  /* NULL: no position transmitted twice */
    uint32_t* rep_src;
    uint32_t* tx_pos;   /* n_tx mother positions in transmitted order (NULL: identity) */
    uint32_t punctured, shortened, repeated; /* counts: mother positions never sent, filler
                                                bits, transmitted values that repeat a position */
} tx_map;

/* The mother position that transmitted bit t carries. */
static inline uint32_t tx_map_position(const tx_map* m, uint32_t t) { return m->tx_pos ? m->tx_pos[t] : t; }

static inline tx_map_view tx_map_host_view(const tx_map* m)
{
    tx_map_view v = {m->src, m->rep_ptr, m->rep_src};
    return v;
}

/* Builds the map of a frame that sends mother positions tx_pos[0..n_tx) in that order (any
 * position may appear several times); filler[j] != 0 (or filler NULL: none) marks known-zero
 * positions, which may not be sent. Positions never sent and not filler are punctured. On
 * failure (GPUFEC_ERR_INVALID_ARGUMENT, OUT_OF_MEMORY) m is unchanged and diag says why. */
gpufec_status tx_map_build(tx_map* m, uint32_t n_full, const uint32_t* tx_pos, uint32_t n_tx, const uint8_t* filler,
                           gpufec_diag* diag);
void tx_map_free(tx_map* m);

/* The mother frame of one transmitted frame (host). */
void tx_map_expand(const tx_map* m, const float* frame, float* mother);

#endif
