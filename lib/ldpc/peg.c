/* Regular (dv, dc) codes of any length by progressive edge growth (Hu, Eleftheriou, Arnold):
 * each new edge of a variable goes to a check as far from it as the graph allows (unreachable,
 * or beyond the search depth cap, if possible), preferring checks of lowest degree, ties broken
 * by a seeded random source, so a name always builds the same code. Long cycles first: the girth
 * comes out large (at least 2 (PEG_MAX_DEPTH + 2) wherever the sizes allow it). */
#include "ldpc_code.h"
#include "text_reader.h"

#include <stdlib.h>
#include <string.h>

/* Search depth cap: a check more than PEG_MAX_DEPTH check-levels away closes no cycle shorter
 * than 2 (PEG_MAX_DEPTH + 2), so all such checks are equally good; capping the search keeps the
 * construction near-linear (N=16000 in well under a second) instead of quadratic. */
#ifndef PEG_MAX_DEPTH
#define PEG_MAX_DEPTH 4
#endif
/* Work bound of the whole construction, in graph entries read by the searches (each visited
 * check costs about dc * dv of them): each edge's search stops after PEG_TOTAL_WORK /
 * (edges * dc * dv) checks, and the checks it did not reach count as far. Up to N = 16000 for
 * (3,6) every search ends before that, so those codes are as before; above, the guaranteed girth
 * falls gracefully (searches of depth 2 to 3 at N = 10^6). */
#define PEG_TOTAL_WORK (1ull << 33)

static uint64_t peg_rand(uint64_t* s)
{
    uint64_t x = *s;
    x ^= x << 13;
    x ^= x >> 7;
    x ^= x << 17;
    return *s = x;
}

gpufec_status peg_regular_code(ldpc_code** out, uint32_t dv, uint32_t dc, uint32_t n,
                               uint64_t seed, gpufec_diag* diag)
{
    if (dv < 2 || dc <= dv || dc > 64 || n < dc || n > 1000000 || ((uint64_t)n * dv) % dc)
        return text_fail(diag, 0, "regular-%u-%u-%u: need 2 <= dv < dc <= 64 and N*dv divisible by dc",
                         dv, dc, n);
    const uint32_t m = (uint32_t)((uint64_t)n * dv / dc);
    uint32_t* vadj = malloc((size_t)n * dv * sizeof *vadj); /* checks of each variable */
    uint32_t* cadj = malloc((size_t)m * dc * sizeof *cadj); /* variables of each check */
    uint32_t* cdeg = calloc(m, sizeof *cdeg);
    uint32_t* depth = malloc((size_t)m * sizeof *depth);
    uint32_t* cmark = calloc(m, sizeof *cmark); /* search stamp of the check's depth */
    uint32_t* vseen = calloc(n, sizeof *vseen);
    uint32_t* queue = malloc(((size_t)m + n) * sizeof *queue);
    /* Checks bucketed by degree: bucket d holds the checks of degree d in slots
     * [bstart[d], bstart[d+1]); slot[] and where[] let a check move to the next bucket in O(1). */
    uint32_t* slot = malloc((size_t)m * sizeof *slot);
    uint32_t* where = malloc((size_t)m * sizeof *where);
    uint32_t bstart[66];
    uint32_t* col_ptr = malloc(((size_t)n + 1) * sizeof *col_ptr);
    gpufec_status st = GPUFEC_OK;
    if (!vadj || !cadj || !cdeg || !depth || !cmark || !vseen || !queue || !slot || !where || !col_ptr) {
        st = GPUFEC_ERR_OUT_OF_MEMORY;
        goto done;
    }
    for (uint32_t i = 0; i < m; i++)
        slot[i] = where[i] = i;
    for (uint32_t d = 0; d <= dc + 1; d++)
        bstart[d] = d == 0 ? 0 : m; /* all checks start in bucket 0 */
    uint64_t rng = seed * 0x9e3779b97f4a7c15ull + 0x2545f4914f6cdd1dull;
    const uint32_t FAR = 0xffffffffu;
    uint32_t stamp = 0; /* one fresh mark per search */
    const uint64_t per_edge = PEG_TOTAL_WORK / ((uint64_t)n * dv * dc * dv);
    const uint32_t cap = per_edge < 64 ? 64 : per_edge > m ? m : (uint32_t)per_edge;
#define DEPTH(i) (cmark[i] == stamp ? depth[i] : FAR)
    for (uint32_t j = 0; j < n; j++) {
        for (uint32_t k = 0; k < dv; k++) {
            /* Depths of the checks near variable j in the current graph (BFS over checks). */
            uint32_t head = 0, tail = 0;
            vseen[j] = ++stamp;
            for (uint32_t t = 0; t < k; t++) {
                uint32_t i = vadj[(size_t)j * dv + t];
                depth[i] = 0;
                cmark[i] = stamp;
                queue[tail++] = i;
            }
            while (head < tail && tail < cap) {
                uint32_t i = queue[head++];
                if (depth[i] >= PEG_MAX_DEPTH)
                    break; /* farther checks all count as far enough */
                for (uint32_t t = 0; t < cdeg[i]; t++) {
                    uint32_t v = cadj[(size_t)i * dc + t];
                    if (vseen[v] == stamp)
                        continue;
                    vseen[v] = stamp;
                    for (uint32_t u = 0; u < dv; u++) { /* v < j: all its edges exist */
                        uint32_t i2 = vadj[(size_t)v * dv + u];
                        if (cmark[i2] != stamp) {
                            cmark[i2] = stamp;
                            depth[i2] = depth[i] + 1;
                            queue[tail++] = i2;
                        }
                    }
                }
            }
            /* Lowest-degree bucket holding a far (unreached) check: random probes, then a scan. */
            uint32_t best = FAR;
            for (uint32_t d = 0; d < dc && best == FAR; d++) {
                uint32_t lo = bstart[d], size = bstart[d + 1] - lo;
                for (int probe = 0; probe < 16 && size && best == FAR; probe++) {
                    uint32_t i = slot[lo + (uint32_t)(peg_rand(&rng) % size)];
                    if (DEPTH(i) == FAR)
                        best = i;
                }
                for (uint32_t t = 0; t < size && best == FAR; t++)
                    if (DEPTH(slot[lo + t]) == FAR)
                        best = slot[lo + t];
            }
            /* Every open check is near: take the deepest, then the lowest degree. */
            if (best == FAR) {
                uint32_t bd = 0, bg = 0, ties = 0;
                for (uint32_t c2 = 0; c2 < m; c2++) {
                    uint32_t dd = DEPTH(c2);
                    if (cdeg[c2] >= dc || dd == 0)
                        continue;
                    if (best == FAR || dd > bd || (dd == bd && cdeg[c2] < bg)) {
                        best = c2;
                        bd = dd;
                        bg = cdeg[c2];
                        ties = 1;
                    } else if (dd == bd && cdeg[c2] == bg && peg_rand(&rng) % ++ties == 0) {
                        best = c2;
                    }
                }
            }
            if (best == FAR) {
                st = text_fail(diag, 0, "regular-%u-%u-%u: construction ran out of checks", dv, dc, n);
                goto done;
            }
            vadj[(size_t)j * dv + k] = best;
            cadj[(size_t)best * dc + cdeg[best]] = j;
            /* Move best from bucket d to d+1: swap it to the bucket's end, shrink the bucket. */
            uint32_t d = cdeg[best]++, last = bstart[d + 1] - 1, other = slot[last];
            slot[where[best]] = other;
            where[other] = where[best];
            slot[last] = best;
            where[best] = last;
            bstart[d + 1]--;
        }
    }
#undef DEPTH
    /* Column lists, sorted. */
    for (uint32_t j = 0; j < n; j++) {
        uint32_t* a = vadj + (size_t)j * dv;
        for (uint32_t x = 1; x < dv; x++)
            for (uint32_t y = x; y > 0 && a[y] < a[y - 1]; y--) {
                uint32_t t = a[y];
                a[y] = a[y - 1];
                a[y - 1] = t;
            }
        col_ptr[j] = j * dv;
    }
    col_ptr[n] = n * dv;
    st = code_build_graph(out, n, m, col_ptr, vadj);
done:
    free(vadj);
    free(cadj);
    free(cdeg);
    free(depth);
    free(cmark);
    free(vseen);
    free(queue);
    free(slot);
    free(where);
    free(col_ptr);
    return st;
}
