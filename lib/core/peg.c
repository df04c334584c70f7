/* Regular (dv, dc) codes of any length by progressive edge growth (Hu, Eleftheriou, Arnold):
 * each new edge of a variable goes to a check as far from it as the graph allows (not reachable
 * at all if possible), preferring checks of lowest degree, ties broken by a seeded random
 * source, so a name always builds the same code. Long cycles first: the girth comes out large. */
#include "code_internal.h"
#include "text_reader.h"

#include <stdlib.h>
#include <string.h>

static uint64_t peg_rand(uint64_t* s)
{
    uint64_t x = *s;
    x ^= x << 13;
    x ^= x >> 7;
    x ^= x << 17;
    return *s = x;
}

gpufec_status peg_regular_code(gpufec_code** out, uint32_t dv, uint32_t dc, uint32_t n,
                               uint64_t seed, gpufec_diag* diag)
{
    if (dv < 2 || dc <= dv || dc > 64 || n < dc || n > 1000000 || ((uint64_t)n * dv) % dc)
        return text_fail(diag, 0, "regular-%u-%u-%u: need 2 <= dv < dc <= 64 and N*dv divisible by dc",
                         dv, dc, n);
    const uint32_t m = (uint32_t)((uint64_t)n * dv / dc);
    uint32_t* vadj = malloc((size_t)n * dv * sizeof *vadj);   /* checks of each variable */
    uint32_t* cadj = malloc((size_t)m * dc * sizeof *cadj);   /* variables of each check */
    uint32_t* cdeg = calloc(m, sizeof *cdeg);
    uint32_t* depth = malloc((size_t)m * sizeof *depth);
    uint32_t* vseen = calloc(n, sizeof *vseen);
    uint32_t* queue = malloc(((size_t)m + n) * sizeof *queue);
    uint32_t* col_ptr = malloc(((size_t)n + 1) * sizeof *col_ptr);
    gpufec_status st = GPUFEC_OK;
    if (!vadj || !cadj || !cdeg || !depth || !vseen || !queue || !col_ptr) {
        st = GPUFEC_ERR_OUT_OF_MEMORY;
        goto done;
    }
    uint64_t rng = seed * 0x9e3779b97f4a7c15ull + 0x2545f4914f6cdd1dull;
    const uint32_t INF = 0xffffffffu;
    uint32_t stamp = 0; /* one fresh mark per search */
    for (uint32_t j = 0; j < n; j++) {
        for (uint32_t k = 0; k < dv; k++) {
            /* Depth of every check from variable j in the current graph (BFS over checks). */
            for (uint32_t i = 0; i < m; i++)
                depth[i] = INF;
            uint32_t head = 0, tail = 0;
            vseen[j] = ++stamp;
            for (uint32_t t = 0; t < k; t++) {
                uint32_t i = vadj[(size_t)j * dv + t];
                depth[i] = 0;
                queue[tail++] = i;
            }
            while (head < tail) {
                uint32_t i = queue[head++];
                for (uint32_t t = 0; t < cdeg[i]; t++) {
                    uint32_t v = cadj[(size_t)i * dc + t];
                    if (vseen[v] == stamp)
                        continue;
                    vseen[v] = stamp;
                    for (uint32_t u = 0; u < dv; u++) { /* v < j: all its edges exist */
                        uint32_t i2 = vadj[(size_t)v * dv + u];
                        if (depth[i2] == INF) {
                            depth[i2] = depth[i] + 1;
                            queue[tail++] = i2;
                        }
                    }
                }
            }
            /* Farthest (unreachable best), then lowest degree, then random. */
            uint32_t best = INF, best_depth = 0, best_deg = 0, ties = 0;
            for (uint32_t i = 0; i < m; i++) {
                if (cdeg[i] >= dc || (depth[i] == 0 && k > 0))
                    continue;
                int better = best == INF || depth[i] > best_depth ||
                             (depth[i] == best_depth && cdeg[i] < best_deg);
                int same = best != INF && depth[i] == best_depth && cdeg[i] == best_deg;
                if (better) {
                    best = i;
                    best_depth = depth[i];
                    best_deg = cdeg[i];
                    ties = 1;
                } else if (same && peg_rand(&rng) % ++ties == 0) {
                    best = i;
                }
            }
            if (best == INF) {
                st = text_fail(diag, 0, "regular-%u-%u-%u: construction ran out of checks", dv, dc, n);
                goto done;
            }
            vadj[(size_t)j * dv + k] = best;
            cadj[(size_t)best * dc + cdeg[best]++] = j;
        }
    }
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
    st = code_build(out, n, m, col_ptr, vadj, diag);
done:
    free(vadj);
    free(cadj);
    free(cdeg);
    free(depth);
    free(vseen);
    free(queue);
    free(col_ptr);
    return st;
}
