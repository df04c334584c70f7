/* Whether a table of positions is one run of consecutive ones (pos[t] = pos[0] + t), as the
 * information bits of a systematic code are: then a copy or a kernel takes the first position
 * and the count, with no table to read. Host only (the plans decide before they launch). */
#ifndef GPUFEC_POS_RUN_H
#define GPUFEC_POS_RUN_H

#include <stdint.h>

/* The first position where pos[0 .. n-1] is one run (NULL: the run from 0; n = 0: 0), else -1. */
static inline int64_t pos_run_start(const uint32_t* pos, uint32_t n)
{
    if (!pos || n == 0)
        return 0;
    for (uint32_t t = 1; t < n; t++)
        if (pos[t] != pos[0] + t)
            return -1;
    return pos[0];
}

#endif
