/* Layer profiles: a base graph's sequence of row degrees and orthogonal pairs, for which edge pairs
 * at int8 compile the whole iteration with each layer's degree a constant (prof_steps), and the
 * pair kernel at int8 a window of it (pair_prof_steps): no search on the degree and no loop per
 * layer. The plan takes a profile where the code's layers are a
 * prefix of it, degree for degree and pair for pair (layer_profile_match); any other code runs
 * the loop. The degrees are TS 38.212's base graphs' row weights (Tables 5.3.2-2 and 5.3.2-3),
 * the pairs those pair_next_make finds in them: rows that share no column, degrees 3 to 6. */
#ifndef GPUFEC_QC_LAYER_PROFILE_CUH
#define GPUFEC_QC_LAYER_PROFILE_CUH

#include <stdint.h>

namespace {

template <int PROF> struct layer_profile;
template <> struct layer_profile<1> { /* 5G NR BG1 */
    static constexpr int layers = 46;
    static constexpr uint8_t deg[46] = {19, 19, 19, 19, 3, 8, 9, 7, 10, 9, 7, 8, 7, 6, 7, 7, 6, 6, 6, 6, 6, 6, 5,
                                        5, 6, 5, 5, 4, 5, 5, 5, 5, 5, 5, 5, 5, 5, 4, 5, 5, 4, 5, 4, 5, 5, 4};
    /* the first row of each pair: 16, then 20 to 44 in steps of 2 */
    __host__ __device__ static constexpr bool pair(int l) { return l == 16 || (l >= 20 && l <= 44 && l % 2 == 0); }
};
template <> struct layer_profile<2> { /* 5G NR BG2 */
    static constexpr int layers = 42;
    static constexpr uint8_t deg[42] = {8, 10, 8, 10, 4, 6, 6, 6, 4, 5, 5, 5, 4, 5, 5, 4, 5, 5, 4, 4, 4,
                                        4, 3, 4, 4, 3, 5, 3, 4, 3, 5, 3, 4, 4, 4, 4, 4, 3, 4, 4, 4, 4};
    /* 11, 17, then 20 to 40 in steps of 2 */
    __host__ __device__ static constexpr bool pair(int l) { return l == 11 || l == 17 || (l >= 20 && l <= 40 && l % 2 == 0); }
};
#define LAYER_PROFILES 2

/* The edges per iteration up to which a profile's code runs faster than the loop: the whole
 * iteration is straight-line code, which beyond this no longer stays in the instruction caches.
 * A code with more layers runs a window of them within it straight and the others in the loop.
 * Measured, docs/performance.md:
 * - H100, 2026-11-27: BG2's 197 edges 10% faster, BG1's 316 12% slower.
 * - H200, 2026-12-01 (thirty-fourth pass), after edge pairs' code shrank: BG1's whole code (316)
 *   2-3% faster than 256 edges and the loop (one R = 1/3 block, int8p16 200-203 -> 196 us). */
#ifndef LAYER_PROFILE_MAX_EDGES
#define LAYER_PROFILE_MAX_EDGES 320u
#endif
/* ... for the rows that run one layer per step: the pair kernel's, two frames per word
 * (qc_lean_pair_kernel.cuh), and the float32 lean rows (qc_lean_kernel.cuh), whose code per edge
 * is about twice an edge pair's. Measured, H200, docs/performance.md:
 * - 2026-11-29 (twentieth pass): 128 edges faster than the loop, 200 slower than it.
 * - 2026-12-01 (thirty-fourth pass), after the rows' code shrank: 176 (BG1's first 18 layers,
 *   BG2's 36) beat 128 at int8 and int8p16 by 2-5% (8192 BG1 R = 1/3 int8p16 35.2 -> 36.7
 *   Gb/s); 224 lost at int8 on BG2 (-2%), at float32 on BG2 (-6%) and at float16 on BG2, whose
 *   whole code it then held (-45%). */
#ifndef ROW_PROFILE_MAX_EDGES
#define ROW_PROFILE_MAX_EDGES 176u
#endif

/* Leading layers of at least this degree run in the loop before the straight window (their code
 * is long and the loop's overhead per layer small beside it); 0: none. */
#ifndef LAYER_PROFILE_HEAD_DEGREE
#define LAYER_PROFILE_HEAD_DEGREE 0u
#endif

/* The layers of profile PROF in the loop before its straight window: the leading run of layers
 * of at least LAYER_PROFILE_HEAD_DEGREE edges (never a pair's). */
template <int PROF> __host__ __device__ constexpr int layer_profile_head()
{
    using P = layer_profile<PROF>;
    int h = 0;
    while (LAYER_PROFILE_HEAD_DEGREE > 0 && h < P::layers && P::deg[h] >= LAYER_PROFILE_HEAD_DEGREE && !P::pair(h))
        h++;
    return h;
}

/* The end of profile PROF's straight window: from its head, the longest run of layers within
 * MAXE edges that cuts no pair. */
template <int PROF, uint32_t MAXE = LAYER_PROFILE_MAX_EDGES> __host__ __device__ constexpr int layer_profile_end()
{
    using P = layer_profile<PROF>;
    int best = layer_profile_head<PROF>();
    uint32_t edges = 0;
    for (int l = best; l < P::layers; l++) {
        edges += P::deg[l];
        if (edges > MAXE)
            break;
        if (!P::pair(l))
            best = l + 1; /* a window ending here cuts no pair */
    }
    return best;
}

/* The index of layer `layer`'s first entry in profile PROF: the degrees before it */
template <int PROF> __host__ __device__ constexpr int layer_profile_first_edge(int layer)
{
    int e = 0;
    for (int l = 0; l < layer; l++)
        e += layer_profile<PROF>::deg[l];
    return e;
}

/* The straight window of the rows that run one layer per step (ROW_PROFILE_MAX_EDGES). They
 * take no pair of layers, but their window ends as edge pairs' does, where it cuts no pair. */
template <int PROF> __host__ __device__ constexpr int row_profile_end()
{
    return layer_profile_end<PROF, ROW_PROFILE_MAX_EDGES>();
}

/* The least (or, with most, the greatest) degree of profile PROF's layers after the window of the
 * rows that run one layer per step (those the loop runs); 0 where the window is the whole profile. */
template <int PROF> __host__ __device__ constexpr int row_profile_loop_degree(bool most)
{
    using P = layer_profile<PROF>;
    int d = 0;
    for (int l = row_profile_end<PROF>(); l < P::layers; l++)
        if (d == 0 || (most ? P::deg[l] > d : P::deg[l] < d))
            d = P::deg[l];
    return d;
}

/* Whether layers 0..layers-1 of degrees deg[] (and pair flags pair[]: 1 on a pair's first layer)
 * are a prefix of profile PROF that cuts no pair: its layers from layer_profile_head() to
 * layer_profile_end() run straight, the others in the loop. rows_only: degree for degree alone
 * (the pair kernel, which runs one layer per step). */
template <int PROF>
inline bool layer_profile_match(uint32_t layers, const uint32_t* deg, const uint8_t* pair, bool rows_only = false)
{
    using P = layer_profile<PROF>;
    if (layers < 2 || layers > (uint32_t)P::layers || (!rows_only && P::pair((int)layers - 1)))
        return false;
    for (uint32_t l = 0; l < layers; l++) {
        const bool want = P::pair((int)l);
        if (deg[l] != P::deg[l] || (!rows_only && ((pair && (pair[l] != 0) != want) || (!pair && want))))
            return false;
    }
    return true;
}

} // namespace

#endif
