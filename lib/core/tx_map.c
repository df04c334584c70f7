/* Building the transmission map (tx_map.h) from the order in which positions are sent. */
#include "tx_map.h"
#include "text_reader.h"

#include <stdlib.h>
#include <string.h>

void tx_map_free(tx_map* m)
{
    free(m->src);
    free(m->rep_ptr);
    free(m->rep_src);
    free(m->tx_pos);
    memset(m, 0, sizeof *m);
}

gpufec_status tx_map_build(tx_map* m, uint32_t n_full, const uint32_t* tx_pos, uint32_t n_tx, const uint8_t* filler,
                           gpufec_diag* diag)
{
    if (n_tx == 0)
        return text_fail_as(GPUFEC_ERR_INVALID_ARGUMENT, diag, 0, "a frame must transmit at least one position");
    tx_map t;
    memset(&t, 0, sizeof t);
    t.n_full = n_full;
    t.n_tx = n_tx;
    t.src = malloc((size_t)n_full * sizeof *t.src);
    t.tx_pos = malloc((size_t)n_tx * sizeof *t.tx_pos);
    uint32_t* copies = calloc((size_t)n_full + 1, sizeof *copies);
    if (!t.src || !t.tx_pos || !copies) {
        free(copies);
        tx_map_free(&t);
        return GPUFEC_ERR_OUT_OF_MEMORY;
    }
    for (uint32_t j = 0; j < n_full; j++)
        t.src[j] = filler && filler[j] ? TX_KNOWN_ZERO : TX_PUNCTURED;
    for (uint32_t i = 0; i < n_tx; i++) {
        const uint32_t j = tx_pos[i];
        if (j >= n_full || t.src[j] == TX_KNOWN_ZERO) {
            free(copies);
            tx_map_free(&t);
            return text_fail_as(GPUFEC_ERR_INVALID_ARGUMENT, diag, 0,
                                "transmitted value %u names position %u: %s", i, j,
                                j >= n_full ? "past the mother codeword" : "a filler bit, which is never sent");
        }
        t.tx_pos[i] = j;
        if (t.src[j] == TX_PUNCTURED)
            t.src[j] = (int32_t)i;
        else
            copies[j]++;
    }
    for (uint32_t j = 0; j < n_full; j++) {
        t.punctured += t.src[j] == TX_PUNCTURED;
        t.shortened += t.src[j] == TX_KNOWN_ZERO;
        t.repeated += copies[j];
    }
    if (t.repeated) { /* the further copies of each position, in transmitted order */
        t.rep_ptr = malloc(((size_t)n_full + 1) * sizeof *t.rep_ptr);
        t.rep_src = malloc((size_t)t.repeated * sizeof *t.rep_src);
        if (!t.rep_ptr || !t.rep_src) {
            free(copies);
            tx_map_free(&t);
            return GPUFEC_ERR_OUT_OF_MEMORY;
        }
        t.rep_ptr[0] = 0;
        for (uint32_t j = 0; j < n_full; j++)
            t.rep_ptr[j + 1] = t.rep_ptr[j] + copies[j];
        memcpy(copies, t.rep_ptr, (size_t)n_full * sizeof *copies); /* fill cursors */
        for (uint32_t i = 0; i < n_tx; i++) {
            const uint32_t j = tx_pos[i];
            if ((uint32_t)t.src[j] != i)
                t.rep_src[copies[j]++] = i;
        }
    }
    free(copies);
    int identity = n_tx == n_full && !t.repeated;
    for (uint32_t i = 0; identity && i < n_tx; i++)
        identity = tx_pos[i] == i;
    if (identity) { /* every position sent once, in order: no tables */
        free(t.src);
        free(t.tx_pos);
        t.src = NULL;
        t.tx_pos = NULL;
    }
    tx_map_free(m);
    *m = t;
    return GPUFEC_OK;
}

void tx_map_expand(const tx_map* m, const float* frame, float* mother)
{
    const tx_map_view v = tx_map_host_view(m);
    if (!v.src && !v.rep_ptr) { /* identity: a loop the compiler vectorises (a tenth of the int8
                                   CPU decoder's time went to the general one) */
        for (uint32_t j = 0; j < m->n_full; j++)
            mother[j] = soft_sanitize(frame[j]);
        return;
    }
    for (uint32_t j = 0; j < m->n_full; j++)
        mother[j] = tx_map_value(v, j, frame);
}
