/* What the QC layered kernels share (qc_kernels_*.cu): posterior storage, the compressed row
 * state, the layer tables' walk, the row update of the one-frame kernels, the syndrome, and a
 * frame's load, stop test and store. Each translation unit keeps its own copy (anonymous
 * namespace): the kernels are whole-program compiled per unit. */
#ifndef GPUFEC_QC_COMMON_CUH
#define GPUFEC_QC_COMMON_CUH

#include "qc_plan.cuh"
#include "ldpc_rules.h"
#include "bit_pack.h"

#include <cuda_fp16.h>

#include <type_traits>

namespace {
/* ---- posterior storage ---- */
__device__ __forceinline__ float post_load(const float* a, uint32_t j) { return a[j]; }
__device__ __forceinline__ float post_load(const __half* a, uint32_t j) { return __half2float(a[j]); }
__device__ __forceinline__ float post_load(const int8_t* a, uint32_t j) { return (float)a[j]; }
__device__ __forceinline__ void post_store(float* a, uint32_t j, float v) { a[j] = v; }
/* float16 storage: exact for values already rounded by ldpc_store; float32 precision with half
 * storage (a frame too large for float posteriors) rounds here, saturating like the old path. */
__device__ __forceinline__ void post_store(__half* a, uint32_t j, float v)
{
    a[j] = __float2half_rn(fminf(fmaxf(v, -65000.0f), 65000.0f));
}
__device__ __forceinline__ void post_store(int8_t* a, uint32_t j, float v) { a[j] = (int8_t)(int)v; }

/* ---- compressed row state: stored magnitudes m1 (all edges but arg) and m2 (edge arg), the
 * signs of the row's stored messages. W words per row. ---- */
struct row_state {
    float m1, m2;
    uint32_t arg, signs;
};

template <int W> struct raw_words;
template <> struct raw_words<1> {
    typedef uint32_t type;
};
template <> struct raw_words<2> {
    typedef uint2 type;
};
template <> struct raw_words<4> {
    typedef uint4 type;
};

template <int PREC, int W> struct state_codec;
template <int PREC> struct state_codec<PREC, 4> { /* float32 magnitudes */
    static __device__ __forceinline__ row_state unpack(uint4 v)
    {
        return {__uint_as_float(v.x), __uint_as_float(v.y), v.z, v.w};
    }
    static __device__ __forceinline__ uint4 pack(const row_state& s)
    {
        return make_uint4(__float_as_uint(s.m1), __float_as_uint(s.m2), s.arg, s.signs);
    }
};
template <> struct state_codec<LDPC_PREC_F16, 2> { /* half magnitudes, arg in the top 5 bits */
    static __device__ __forceinline__ row_state unpack(uint2 v)
    {
        __half2 h = *reinterpret_cast<const __half2*>(&v.x);
        return {__low2float(h), __high2float(h), v.y >> 27, v.y & 0x07ffffffu};
    }
    static __device__ __forceinline__ uint2 pack(const row_state& s)
    {
        __half2 h = __floats2half2_rn(s.m1, s.m2);
        return make_uint2(*reinterpret_cast<const uint32_t*>(&h), (s.arg << 27) | s.signs);
    }
};
template <> struct state_codec<LDPC_PREC_I8, 2> { /* byte magnitudes, byte arg, 32 signs */
    static __device__ __forceinline__ row_state unpack(uint2 v)
    {
        return {(float)(v.x & 0xffu), (float)((v.x >> 8) & 0xffu), (v.x >> 16) & 0xffu, v.y};
    }
    static __device__ __forceinline__ uint2 pack(const row_state& s)
    {
        return make_uint2((uint32_t)s.m1 | ((uint32_t)s.m2 << 8) | (s.arg << 16), s.signs);
    }
};
template <> struct state_codec<LDPC_PREC_I8, 1> { /* 7 + 7 magnitude bits, 4 arg, 14 signs */
    static __device__ __forceinline__ row_state unpack(uint32_t v)
    {
        return {(float)(v & 0x7fu), (float)((v >> 7) & 0x7fu), (v >> 14) & 0xfu, v >> 18};
    }
    /* A row with no magnitude below 127 has no first minimum (arg 0xffffffff): it is kept as 15,
     * past every position of a row this form holds (14 edges), so it still matches none. Shifted
     * whole, its ones filled the sign bits: every old message of the row came back negative. */
    static __device__ __forceinline__ uint32_t pack(const row_state& s)
    {
        return (uint32_t)s.m1 | ((uint32_t)s.m2 << 7) | ((s.arg & 0xfu) << 14) | (s.signs << 18);
    }
};


/* Shared-memory bytes of the per-layer tables, before the posteriors (16-byte aligned). */
__host__ __device__ inline size_t qc_table_bytes(uint32_t entries, uint32_t layers)
{
    return ((size_t)entries * 8 + (size_t)(layers + 1) * 4 + layers + 15) & ~(size_t)15;
}

/* The per-layer tables from global into shared memory (both QC kernels); neither colour table
 * nor slices: one colour per layer. */
__device__ __forceinline__ void qc_load_tables(const qc_args& a, uint2* ents, uint32_t* ent_ptr, uint8_t* ncolor,
                                               uint32_t tid, uint32_t nt)
{
    for (uint32_t t = tid; t < a.entries; t += nt)
        ents[t] = a.ents[t];
    for (uint32_t t = tid; t <= a.layers; t += nt)
        ent_ptr[t] = a.ent_ptr[t];
    for (uint32_t t = tid; t < a.layers; t += nt)
        ncolor[t] = a.color || a.slice ? a.ncolor[t] : 1;
}

/* A sweep runs each layer's colours in turn (phases). The lane a thread serves in colour col: its
 * own index, working only in its lane's colour (table), or lane col * slice + tid (slices). */
__device__ __forceinline__ uint32_t phase_lane(const qc_args& a, uint32_t col, uint32_t tid)
{
    return a.slice ? col * a.slice + tid : tid;
}

/* The phase after (l, col): its layer and colour; true when this thread's row changes there
 * (with a colour table a thread keeps its row through the layer's colours). */
__device__ __forceinline__ bool phase_next(const qc_args& a, uint32_t colors, uint32_t l, uint32_t col,
                                           uint32_t* nl, uint32_t* ncol)
{
    *nl = l;
    *ncol = col + 1;
    if (*ncol == colors) {
        *ncol = 0;
        *nl = l + 1 < a.layers ? l + 1 : 0;
    }
    return a.slice || *ncol == 0;
}

/* Whether a thread works in colour col of layer l, at lane `lane`. */
__device__ __forceinline__ bool phase_active(const qc_args& a, uint32_t colors, uint32_t l, uint32_t col,
                                             uint32_t lane)
{
    return lane < a.z && (a.slice || colors == 1 || a.color[l * a.z + lane] == col);
}

__device__ __forceinline__ uint32_t ent_var(uint2 e, uint32_t lane, uint32_t z, bool* skip)
{
    *skip = (e.y >> 16) == lane + 1;
    const uint32_t u = lane + (e.y & 0xffffu);
    return e.x + min(u, u - z); /* u - z wraps to a huge value when u < z */
}

/* The failing checks of layers [l0, l1) among lanes tid, tid + nt, ...: the xor of hard(j) over
 * each row's variables, or-ed over the rows; stops once every bit of `all` is set (nothing left
 * to learn). */
template <class F>
__device__ __forceinline__ uint32_t qc_syndrome_bad(const qc_args& a, const uint2* ents, const uint32_t* ent_ptr,
                                                    uint32_t tid, uint32_t nt, uint32_t all, F hard, uint32_t l0,
                                                    uint32_t l1)
{
    uint32_t bad = 0;
    for (uint32_t lane = tid; lane < a.z; lane += nt)
        for (uint32_t l = l0; l < l1; l++) {
            uint32_t parity = 0;
            for (uint32_t t = ent_ptr[l]; t < ent_ptr[l + 1]; t++) {
                bool skip;
                const uint32_t j = ent_var(ents[t], lane, a.z, &skip);
                if (!skip)
                    parity ^= hard(j);
            }
            bad |= parity & all;
            if (bad == all)
                return bad;
        }
    return bad;
}

/* ldpc_round_half(x) as binary16 (nearest, saturating at +-65504; a zero may keep x's sign,
 * which no test of the float kernels reads). */
__device__ __forceinline__ __half f16_round_hw(float x)
{
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
    unsigned short h; /* one conversion that saturates (PTX .satfinite), no clamp before it */
    asm("cvt.rn.satfinite.f16.f32 %0, %1;" : "=h"(h) : "f"(x));
    return __ushort_as_half(h);
#else
    return __float2half_rn(fminf(fmaxf(x, -LDPC_F16_MAX), LDPC_F16_MAX));
#endif
}

/* A float value as the float16 rule keeps it (ldpc_round_half), itself at other precisions. */
template <int PREC> __device__ __forceinline__ float prec_round(float x)
{
    if constexpr (PREC == LDPC_PREC_F16)
        return __half2float(f16_round_hw(x));
    else
        return x;
}

/* ldpc_extrinsic with the hardware conversion at float16. */
template <int PREC> __device__ __forceinline__ float qc_extrinsic(float app, float msg)
{
    if constexpr (PREC == LDPC_PREC_F16)
        return prec_round<PREC>(app - msg);
    else
        return ldpc_extrinsic(app, msg, PREC);
}

/* A posterior as the rule stores it (ldpc_store), float16 in one saturating conversion. */
template <int PREC, typename PostT> __device__ __forceinline__ void qc_post_store(PostT* app, uint32_t j, float x)
{
    if constexpr (PREC == LDPC_PREC_F16)
        app[j] = f16_round_hw(x);
    else
        post_store(app, j, ldpc_store(x, PREC));
}

/* The stored message of position t from the row's old state. */
__device__ __forceinline__ float old_message(const row_state& o, uint32_t t)
{
    float mag = t == o.arg ? o.m2 : o.m1;
    return (o.signs >> t) & 1u ? -mag : mag;
}

/* A row's new state from its two minima (stored as the outgoing magnitudes) and the position of
 * the first; the signs are filled in as the messages are written. */
__device__ __forceinline__ row_state new_row_state(const qc_args& a, float min1, float min2, uint32_t arg, int prec)
{
    row_state ns;
    ns.m1 = ms_magnitude(min1, a.mode, a.scale, a.offset, prec);
    ns.m2 = ms_magnitude(min2, a.mode, a.scale, a.offset, prec);
    ns.arg = arg;
    ns.signs = 0;
    return ns;
}

/* The latency plan: SPLIT adjacent threads share a row, each taking a run of its edges
 * [t0, t1); their accumulators merge by shuffles (ms_merge gives what pushing in position order
 * gives, in any grouping) and their sign bits are or-ed, so each thread ends with the row's
 * result. SPLIT = 1: one thread per row, nothing to merge. mask: the warp's threads in this
 * phase. */
template <int SPLIT> __device__ __forceinline__ void split_merge(ms_acc* acc, unsigned mask)
{
#pragma unroll
    for (int o = 1; o < SPLIT; o <<= 1) {
        ms_acc b;
        b.min1 = __shfl_xor_sync(mask, acc->min1, o);
        b.min2 = __shfl_xor_sync(mask, acc->min2, o);
        b.arg1 = __shfl_xor_sync(mask, acc->arg1, o);
        b.parity = __shfl_xor_sync(mask, acc->parity, o);
        ms_merge(acc, &b);
    }
}

template <int SPLIT> __device__ __forceinline__ uint32_t split_or(uint32_t x, unsigned mask)
{
#pragma unroll
    for (int o = 1; o < SPLIT; o <<= 1)
        x |= __shfl_xor_sync(mask, x, o);
    return x;
}

/* The edges of one part of a row, [t0, t1), and the warp's threads taking part. */
struct row_part {
    uint32_t t0, t1;
    unsigned mask;
};

/* A posterior as the row update works on it: float, or the int8 step itself. */
template <typename V, typename PostT> __device__ __forceinline__ V load_as(const PostT* a, uint32_t j)
{
    return post_load(a, j);
}
template <> __device__ __forceinline__ int load_as<int, int8_t>(const int8_t* a, uint32_t j) { return a[j]; }

/* The first pass of a row part kept in registers: every entry is loaded, then every variable
 * index derived, then every posterior loaded, with no branch between them, so that the loads of
 * all edges are in flight together (one branch per edge had made each edge wait for its entry).
 * Slots past the part's n edges repeat its last entry and are marked skipped, as are the
 * entries that skip this lane. Returns the skipped mask. */
template <typename PostT, typename V, int DB>
__device__ __forceinline__ uint32_t row_load(const qc_args& a, const PostT* app, const uint2* ents, uint32_t e0,
                                             const row_part& rp, uint32_t lane, uint32_t (&jv)[DB], V (&v)[DB])
{
    const int n = (int)(rp.t1 - rp.t0);
    const uint32_t base = e0 + (n ? rp.t0 : 0); /* n = 0: a split part with no edge; slot 0 is valid */
    uint2 ent[DB];
#pragma unroll
    for (int t = 0; t < DB; t++)
        ent[t] = ents[base + (uint32_t)max(min(t, n - 1), 0)];
    uint32_t skipped = 0;
#pragma unroll
    for (int t = 0; t < DB; t++) {
        bool skip;
        jv[t] = ent_var(ent[t], lane, a.z, &skip);
        skipped |= (uint32_t)(skip || t >= n) << t;
    }
#pragma unroll
    for (int t = 0; t < DB; t++)
        v[t] = load_as<V>(app, jv[t]);
    return skipped;
}

/* One row of a layer, at most DB edges for this thread: the variable-to-check values stay in
 * registers between the two passes, and all posterior loads are issued before the min-sum
 * chain. */
template <int PREC, typename PostT, int DB, int SPLIT>
__device__ __forceinline__ row_state row_small(const qc_args& a, PostT* app, const uint2* ents, uint32_t e0,
                                               row_part rp, uint32_t lane, const row_state& old)
{
    float v[DB];
    uint32_t jv[DB];
    const uint32_t skipped = row_load(a, app, ents, e0, rp, lane, jv, v);
    ms_acc acc;
    ms_init(&acc);
    /* Skipped slots take part without a branch: they push +inf, which moves neither minimum
     * nor the parity, contribute no sign, and their store is predicated off. */
#pragma unroll
    for (int t = 0; t < DB; t++) {
        const bool valid = !((skipped >> t) & 1u);
        const float x = qc_extrinsic<PREC>(v[t], old_message(old, rp.t0 + t));
        v[t] = valid ? x : v[t];
        ms_push(&acc, valid ? x : INFINITY, rp.t0 + t);
    }
    split_merge<SPLIT>(&acc, rp.mask);
    row_state ns = new_row_state(a, acc.min1, acc.min2, acc.arg1, PREC);
#pragma unroll
    for (int t = 0; t < DB; t++) {
        const bool valid = !((skipped >> t) & 1u);
        const uint32_t neg = acc.parity ^ (uint32_t)(v[t] < 0.0f);
        const float mag = rp.t0 + t == ns.arg ? ns.m2 : ns.m1;
        ns.signs |= (valid ? neg : 0u) << (rp.t0 + t);
        const float out = v[t] + (neg ? -mag : mag);
        if (valid)
            qc_post_store<PREC>(app, jv[t], out);
    }
    ns.signs = split_or<SPLIT>(ns.signs, rp.mask);
    return ns;
}

/* int8 storage holds whole steps, and every operation of the row update (subtract, absolute
 * value, compare, add, clamp) is exact on small integers in float and in int alike, so this
 * integer form gives the float rule's results bit for bit, without conversions per edge. Only
 * the two output magnitudes go through ms_magnitude (its rounding rule), once per row. */
template <int DB, int SPLIT>
__device__ __forceinline__ row_state row_small_i8(const qc_args& a, int8_t* app, const uint2* ents, uint32_t e0,
                                                  row_part rp, uint32_t lane, const row_state& old)
{
    int v[DB];
    uint32_t jv[DB];
    const uint32_t skipped = row_load(a, app, ents, e0, rp, lane, jv, v);
    const int om1 = (int)old.m1, om2 = (int)old.m2;
    int min1 = (int)LDPC_I8_MIN_MAX, min2 = min1; /* ms_init_prec */
    uint32_t arg1 = 0xffffffffu, parity = 0;
    /* Skipped slots without a branch: they push 127, which moves neither minimum (both start
     * below it) nor the parity. A value's magnitude may exceed 127 (app - old is exact). */
#pragma unroll
    for (int t = 0; t < DB; t++) {
        const bool valid = !((skipped >> t) & 1u);
        const uint32_t g = rp.t0 + t;
        const int mag = g == old.arg ? om2 : om1;
        const int x = v[t] - ((old.signs >> g) & 1u ? -mag : mag); /* exact (ldpc_i8_sat) */
        v[t] = valid ? x : v[t];
        const int m = valid ? min(abs(x), 127) : 127;
        parity ^= (uint32_t)(valid && x < 0);
        if (m < min1) {
            min2 = min1;
            min1 = m;
            arg1 = g;
        } else {
            min2 = min(min2, m);
        }
    }
    if constexpr (SPLIT > 1) {
        ms_acc acc = {(float)min1, (float)min2, arg1, parity};
        split_merge<SPLIT>(&acc, rp.mask);
        min1 = (int)acc.min1;
        min2 = (int)acc.min2;
        arg1 = acc.arg1;
        parity = acc.parity;
    }
    row_state ns = new_row_state(a, (float)min1, (float)min2, arg1, LDPC_PREC_I8);
    const int m1 = (int)ns.m1, m2 = (int)ns.m2;
#pragma unroll
    for (int t = 0; t < DB; t++) {
        const bool valid = !((skipped >> t) & 1u);
        const uint32_t neg = parity ^ (uint32_t)(v[t] < 0);
        const int mag = rp.t0 + t == arg1 ? m2 : m1;
        ns.signs |= (valid ? neg : 0u) << (rp.t0 + t);
        const int8_t out = (int8_t)max(-128, min(127, v[t] + (neg ? -mag : mag)));
        if (valid)
            app[jv[t]] = out;
    }
    ns.signs = split_or<SPLIT>(ns.signs, rp.mask);
    return ns;
}

/* Long rows: no per-edge registers (they would cost every layer occupancy); the second pass
 * reloads each posterior, which no other row of the layer touches. */
template <int PREC, typename PostT, int SPLIT>
__device__ __forceinline__ row_state row_large(const qc_args& a, PostT* app, const uint2* ents, uint32_t e0,
                                               row_part rp, uint32_t lane, const row_state& old)
{
    ms_acc acc;
    ms_init_prec(&acc, PREC);
    for (uint32_t t = rp.t0; t < rp.t1; t++) {
        bool skip;
        const uint32_t j = ent_var(ents[e0 + t], lane, a.z, &skip);
        if (!skip) {
            const float v = qc_extrinsic<PREC>(post_load(app, j), old_message(old, t));
            ms_push(&acc, PREC == LDPC_PREC_I8 ? fmaxf(v, -LDPC_I8_MAX) : v, t);
        }
    }
    split_merge<SPLIT>(&acc, rp.mask);
    row_state ns = new_row_state(a, acc.min1, acc.min2, acc.arg1, PREC);
    for (uint32_t t = rp.t0; t < rp.t1; t++) {
        bool skip;
        const uint32_t j = ent_var(ents[e0 + t], lane, a.z, &skip);
        if (skip)
            continue;
        const float v = qc_extrinsic<PREC>(post_load(app, j), old_message(old, t));
        const uint32_t neg = acc.parity ^ (uint32_t)(v < 0.0f);
        const float mag = t == ns.arg ? ns.m2 : ns.m1;
        ns.signs |= neg << t;
        qc_post_store<PREC>(app, j, v + (neg ? -mag : mag));
    }
    ns.signs = split_or<SPLIT>(ns.signs, rp.mask);
    return ns;
}

/* One thread's part of a row: part p of SPLIT takes a run of ceil(d / SPLIT) edges. Parts of up
 * to DBMAX edges keep their values in registers with every load issued at once (row_small);
 * longer ones reload (row_large). The throughput kernels stop at 8, where registers would cost
 * occupancy; the latency kernels (one frame per block, registers to spare) go to 20, so that a
 * 5G NR core row (19 edges) is not a chain of dependent loads. */
template <int PREC, typename PostT, int SPLIT, int DBMAX>
__device__ __forceinline__ row_state row_update(const qc_args& a, PostT* app, const uint2* ents, uint32_t e0,
                                                uint32_t d, uint32_t part, unsigned mask, uint32_t lane,
                                                const row_state& old)
{
    const uint32_t h = (d + SPLIT - 1) / SPLIT;
    const row_part rp = {min(part * h, d), min(part * h + h, d), mask};
    if constexpr (PREC == LDPC_PREC_I8) {
        if (h <= 4)
            return row_small_i8<4, SPLIT>(a, app, ents, e0, rp, lane, old);
        if (h <= 8)
            return row_small_i8<8, SPLIT>(a, app, ents, e0, rp, lane, old);
        if constexpr (DBMAX >= 12)
            if (h <= 12)
                return row_small_i8<12, SPLIT>(a, app, ents, e0, rp, lane, old);
        if constexpr (DBMAX >= 20)
            if (h <= 20)
                return row_small_i8<20, SPLIT>(a, app, ents, e0, rp, lane, old);
    } else {
        if (h <= 4)
            return row_small<PREC, PostT, 4, SPLIT>(a, app, ents, e0, rp, lane, old);
        if (h <= 8)
            return row_small<PREC, PostT, 8, SPLIT>(a, app, ents, e0, rp, lane, old);
        if constexpr (DBMAX >= 12)
            if (h <= 12)
                return row_small<PREC, PostT, 12, SPLIT>(a, app, ents, e0, rp, lane, old);
        if constexpr (DBMAX >= 20)
            if (h <= 20)
                return row_small<PREC, PostT, 20, SPLIT>(a, app, ents, e0, rp, lane, old);
    }
    return row_large<PREC, PostT, SPLIT>(a, app, ents, e0, rp, lane, old);
}

/* SPA (tanh rule, float32, the fast-instruction form spa_term_fast / spa_output_fast): one
 * message per edge, kept in global or shared memory at msg[(entry) * z + lane] (a warp's lanes
 * side by side); the second pass derives each edge's term again instead of storing it. SPLIT
 * adjacent threads share a row, each taking every SPLIT-th edge; their products and zero counts
 * are merged by shuffles (mask: the warp's threads in this phase). */
template <typename PostT, int SPLIT>
__device__ __forceinline__ void row_spa(const qc_args& a, PostT* app, float* msg, const uint2* ents, uint32_t e0,
                                        uint32_t d, uint32_t lane, uint32_t part, unsigned mask)
{
    spa_acc acc;
    spa_init(&acc);
    for (uint32_t t = part; t < d; t += SPLIT) {
        bool skip;
        const uint32_t j = ent_var(ents[e0 + t], lane, a.z, &skip);
        if (!skip)
            spa_push(&acc, spa_term_fast(post_load(app, j) - msg[(size_t)(e0 + t) * a.z + lane]));
    }
#pragma unroll
    for (int o = 1; o < SPLIT; o <<= 1) {
        acc.product *= __shfl_xor_sync(mask, acc.product, o);
        acc.zeros += __shfl_xor_sync(mask, acc.zeros, o);
    }
    for (uint32_t t = part; t < d; t += SPLIT) {
        bool skip;
        const uint32_t j = ent_var(ents[e0 + t], lane, a.z, &skip);
        if (skip)
            continue;
        float* m = &msg[(size_t)(e0 + t) * a.z + lane];
        const float v = post_load(app, j) - *m;
        const float c = spa_output_fast(&acc, spa_term_fast(v));
        *m = c;
        post_store(app, j, v + c);
    }
}

#define QC_LOAD_BATCH 8
/* ... for one frame per block with registers to spare (the edge-pairs kernel): a 5G block of
 * E = 10752 on 384 threads in one round trip instead of four */
#define QC_LOAD_BATCH_ONE 32

/* A frame's output positions: use(t, out_int[t]) for t = tid, tid + nt, ... below n_out, with
 * QC_LOAD_BATCH positions per thread in flight; none to load where they are one run (out_run:
 * out_int[t] = out_int[0] + t, 5G NR's K bits). */
template <class F> __device__ __forceinline__ void output_batches(const qc_args& a, uint32_t tid, uint32_t nt, F use)
{
    if (a.out_run) {
        for (uint32_t t = tid; t < a.n_out; t += nt)
            use(t, a.out0 + t);
        return;
    }
    for (uint32_t t0 = tid; t0 < a.n_out; t0 += QC_LOAD_BATCH * nt) {
        uint32_t j[QC_LOAD_BATCH];
#pragma unroll
        for (int k = 0; k < QC_LOAD_BATCH; k++)
            j[k] = t0 + k * nt < a.n_out ? a.out_int[t0 + k * nt] : 0u;
#pragma unroll
        for (int k = 0; k < QC_LOAD_BATCH; k++) {
            if (t0 + k * nt >= a.n_out)
                break;
            use(t0 + k * nt, j[k]);
        }
    }
}

/* Frame f's output: n_out bytes, or packed_bytes(pack_len) where the engine asked the kernel to
 * pack them (a.pack, engine_chunk.pack). */
__device__ __forceinline__ uint8_t* frame_out(const qc_args& a, uint32_t f)
{
    return a.out + (size_t)f * (a.pack ? packed_bytes(a.pack_len) : a.n_out);
}

/* Whether the XOR of every thread's r is 0 (all the block's threads call it). */
__device__ __forceinline__ bool block_xor_zero(uint32_t r, uint32_t tid)
{
    __shared__ uint32_t acc;
    if (tid == 0)
        acc = 0;
    __syncthreads();
    if (r)
        atomicXor(&acc, r);
    __syncthreads();
    const bool zero = acc == 0;
    __syncthreads(); /* before the next frame's reset */
    return zero;
}

/* A frame's output bits, hard(j) the decision at internal position j (nonzero: 1): a byte each,
 * or eight per byte by bit_pack.h's rule where a.pack (the first pack_len bits), with the CRC of
 * all n_out checked where a.crc_tab (finish_output.cuh's rule: the XOR of the registers of the 1
 * bits is 0). Packed here, the engine's finishing kernel and its launch go (docs/performance.md,
 * forty-first pass). All the block's threads call it. False: the CRC fails. */
template <class H> __device__ __forceinline__ bool output_frame(const qc_args& a, uint8_t* out, uint32_t tid, uint32_t nt,
                                                               H hard)
{
    if (!a.pack) {
        output_batches(a, tid, nt, [&](uint32_t t, uint32_t j) { out[t] = hard(j) ? 1u : 0u; });
        return true;
    }
    const uint32_t nb = packed_bytes(a.pack_len);
    uint32_t reg = 0; /* this thread's part of the CRC register */
    /* A vote gathers 32 positions read side by side, where a byte per thread would read eight
     * positions 32 bytes apart (bank conflicts: eight shared-memory wavefronts a load). Every QC
     * block is whole warps (qc_plan_create rounds its threads up), so every lane votes. */
    const uint32_t lane = tid & 31u, warps = nt >> 5;
    /* OUT_CRC_AHEAD votes at a time, their CRC registers loaded first: loaded one vote at a
     * time, each waited for its load from L2 (a 5G NR BG1 block's 8448 bits: 22 votes a warp
     * at 12 warps) */
    constexpr uint32_t OUT_CRC_AHEAD = 8;
    for (uint32_t i0 = tid >> 5; 32u * i0 < a.n_out; i0 += OUT_CRC_AHEAD * warps) {
        uint32_t creg[OUT_CRC_AHEAD];
#pragma unroll
        for (uint32_t u = 0; u < OUT_CRC_AHEAD; u++) {
            const uint32_t t = 32u * (i0 + u * warps) + lane;
            creg[u] = a.crc_tab && t < a.n_out ? __ldg(a.crc_tab + t) : 0u;
        }
#pragma unroll
        for (uint32_t u = 0; u < OUT_CRC_AHEAD; u++) {
            const uint32_t i = i0 + u * warps; /* the same across the warp */
            if (32u * i >= a.n_out)
                break;
            const uint32_t t = 32u * i + lane;
            const bool bit = t < a.n_out && hard(a.out_run ? a.out0 + t : a.out_int[t]);
            reg ^= bit ? creg[u] : 0u;
            const uint32_t r = __brev(__ballot_sync(0xffffffffu, bit && t < a.pack_len)); /* position 32i in bit 31 */
            if (lane < 4u && 4u * i + lane < nb)
                out[4u * i + lane] = (uint8_t)(r >> (24u - 8u * lane));
        }
    }
    return !a.crc_tab || block_xor_zero(reg, tid);
}

/* Where the loaders read a chunk's soft values (index i counted from its first frame's first
 * value), as float LLRs: the engine's widened floats, or the caller's int8 as given where the plan
 * took them (a.in8: the engine skipped its widening pass, which one 5G NR block with int8 in paid
 * as a second kernel, its launch and a round trip through memory: about 5 us with transfers,
 * H200). The loaders branch on the source once, not per value: a test per value issued in the
 * float path too and slowed 8192 R = 0.79 blocks by 4% (docs/performance.md, thirty-seventh
 * pass). */
struct soft_f32 {
    const float* p;
    __device__ __forceinline__ float at(size_t i) const { return p[i]; }
    /* the mother value of position j of the frame from o (the repeated positions' sums) */
    __device__ __forceinline__ float mother(const tx_map_view& m, uint32_t j, size_t o) const
    {
        int ignored = 0;
        return tx_map_load(m, j, p + o, &ignored);
    }
    __device__ __forceinline__ float4 quad(size_t q) const { return reinterpret_cast<const float4*>(p)[q]; }
};
/* int8: soft_input.h's value * scale. The integer's float is built exactly without the
 * conversion pipe (2^23 + v + 128 as a float's bits, minus 2^23 + 128), which a many-group load
 * shares with every SM's other conversions (qc_packed_kernel.cuh's channel_bits2 avoids it too);
 * the product rounds once, as the rule's. */
struct soft_i8 {
    const int8_t* p;
    float scale;
    __device__ __forceinline__ float of(uint32_t x, uint32_t sel) const /* x: the bytes plus 128 */
    {
        return (__uint_as_float(__byte_perm(x, 0x4b000000u, sel)) - 8388736.0f) * scale;
    }
    __device__ __forceinline__ float at(size_t i) const
    {
        return of((uint32_t)(uint8_t)p[i] ^ 0x80u, 0x7440u);
    }
    __device__ __forceinline__ float mother(const tx_map_view& m, uint32_t j, size_t o) const
    {
        int ignored = 0;
        return tx_map_load_as(m, j, p + o, GPUFEC_INPUT_INT8, scale, &ignored);
    }
    __device__ __forceinline__ float4 quad(size_t q) const
    {
        const uint32_t x = reinterpret_cast<const uint32_t*>(p)[q] ^ 0x80808080u;
        return make_float4(of(x, 0x7440u), of(x, 0x7441u), of(x, 0x7442u), of(x, 0x7443u));
    }
};
/* f(source) with the chunk's source: SRC 0, the one the chunk has (a.in8 set or not); 1 floats
 * and 2 int8, a build's own (the edge pairs: the branch's second path in one block's kernel cost
 * it 1-3.7% with float32 in, H200, docs/performance.md, thirty-eighth pass) */
template <int SRC = 0, class F> __device__ __forceinline__ void with_soft(const qc_args& a, F f)
{
    if constexpr (SRC == 1)
        f(soft_f32{a.in});
    else if constexpr (SRC == 2)
        f(soft_i8{a.in8, a.in8_scale});
    else if (a.in8)
        f(soft_i8{a.in8, a.in8_scale});
    else
        f(soft_f32{a.in});
}
/* The mother value of position j of the frame whose values start at o (tx_map_load_as: the
 * repeated positions, a few per frame) */
template <int SRC = 0> __device__ __forceinline__ float qc_soft_mother(const qc_args& a, uint32_t j, size_t o)
{
    float v = 0.0f;
    with_soft<SRC>(a, [&](const auto& src) { v = src.mother(a.map, j, o); });
    return v;
}

/* A frame's transmitted values four at a time: quads q0, q0 + nt, ... (Q of them per thread) of
 * tx_int and of the frame's values from o0 (NI = 2: and o1) in source S, by 16-byte loads (4-byte
 * of int8), each thread's all in flight at once. A quad beyond the frame reads as four repeated
 * positions of value 0, which load nothing and tell the decoder nothing. One 5G block (E = 10752)
 * is seven quads per thread of 384: four 16-byte loads per quad and frame instead of eight 4-byte
 * ones, and a fifth of the address arithmetic. */
template <int NI, int Q> struct channel_quads {
    int4 p[Q];
    float4 v0[Q], v1[Q];
    template <class S>
    __device__ __forceinline__ void fetch(const qc_args& a, const S& src, size_t o0, size_t o1, uint32_t q0, uint32_t nt)
    {
        const uint32_t nq = a.n_tx / 4u;
#pragma unroll
        for (int k = 0; k < Q; k++) {
            const uint32_t q = q0 + (uint32_t)k * nt;
            const bool in = q < nq;
            p[k] = in ? reinterpret_cast<const int4*>(a.tx_int)[q] : make_int4(-1, -1, -1, -1);
            v0[k] = in ? src.quad(o0 / 4u + q) : make_float4(0.0f, 0.0f, 0.0f, 0.0f);
            v1[k] = in && NI > 1 ? src.quad(o1 / 4u + q) : make_float4(0.0f, 0.0f, 0.0f, 0.0f);
        }
    }
    template <class F> __device__ __forceinline__ void each(F use) const
    {
#pragma unroll
        for (int k = 0; k < Q; k++) {
            use(p[k].x, v0[k].x, v1[k].x);
            use(p[k].y, v0[k].y, v1[k].y);
            use(p[k].z, v0[k].z, v1[k].z);
            use(p[k].w, v0[k].w, v1[k].w);
        }
    }
};

/* Whether the frames' values can load as quads: whole quads (so every frame's values start on
 * one), the arrays aligned to their loads (cudaMalloc'd: always) */
__device__ __forceinline__ bool channel_by_quads(const qc_args& a)
{
    const uintptr_t in = a.in8 ? reinterpret_cast<uintptr_t>(a.in8) & 3u : reinterpret_cast<uintptr_t>(a.in) & 15u;
    return (a.n_tx & 3u) == 0 && in == 0 && (reinterpret_cast<uintptr_t>(a.tx_int) & 15u) == 0;
}

/* A frame's transmitted values as the frame kernels load them: use(p, v0, v1) for each value t,
 * p = tx_int[t] (internal position, or -1: repeated; the order of the calls is not t's), v0 the
 * value o0 + t of source S and (NI = 2) v1 o1 + t; B values per thread in flight (one at a time,
 * a frame of few blocks waited a global load's latency per value: one 5G block, 28 per thread). */
template <int NI, int B = QC_LOAD_BATCH, class S, class F>
__device__ __forceinline__ void channel_batches(const qc_args& a, const S& src, size_t o0, size_t o1, uint32_t tid,
                                                uint32_t nt, F use)
{
    for (uint32_t t0 = tid; t0 < a.n_tx; t0 += B * nt) {
        float v0[B], v1[B];
        int32_t p[B];
#pragma unroll
        for (int k = 0; k < B; k++) {
            const uint32_t t = t0 + k * nt;
            p[k] = t < a.n_tx ? a.tx_int[t] : -1;
            v0[k] = t < a.n_tx ? src.at(o0 + t) : 0.0f;
            v1[k] = t < a.n_tx && NI > 1 ? src.at(o1 + t) : 0.0f;
        }
#pragma unroll
        for (int k = 0; k < B; k++) {
            if (t0 + k * nt >= a.n_tx)
                break;
            use(p[k], v0[k], v1[k]);
        }
    }
}

/* ... by quads (channel_by_quads must hold), where this thread already fetched its first batch
 * (quads q0 = tid, tid + nt, ...), so that its latency overlapped the work before. Only the
 * chunks of at most one group or frame per SM load so (packed_group_load's QUADS: the edge
 * pairs, the pair kernel's one-wave build): there they cut one 5G block from 58 to 55 us, but
 * the pair kernels for many groups measured slower with them (H200, BG1 rate 1/3, 8192 blocks:
 * 23.3 against 24.4 Gb/s, with the main loop's code the same) and DVB-S2's packed kernel no
 * faster (docs/performance.md, fifteenth pass). */
template <int NI, int Q, class S, class F>
__device__ __forceinline__ void channel_quads_from(const qc_args& a, const S& src, size_t o0, size_t o1, uint32_t tid,
                                                   uint32_t nt, const channel_quads<NI, Q>& first, F use)
{
    first.each(use);
    for (uint32_t q0 = tid + (uint32_t)Q * nt; q0 < a.n_tx / 4u; q0 += (uint32_t)Q * nt) {
        channel_quads<NI, Q> c;
        c.fetch(a, src, o0, o1, q0, nt);
        c.each(use);
    }
}

/* A one-frame kernel's memory: the per-layer tables, the posteriors and (SSMEM) the row state in
 * shared memory, in that order; otherwise the state is frame f's part of the global workspace. */
template <typename PostT> struct qc_frame_mem {
    uint2* ents;
    uint32_t* ent_ptr;
    uint8_t* ncolor;
    PostT* app;
    uint32_t* state;
};

template <typename PostT, bool SSMEM>
__device__ __forceinline__ qc_frame_mem<PostT> qc_frame_layout(const qc_args& a, unsigned char* smem,
                                                               size_t state_words, uint32_t f)
{
    qc_frame_mem<PostT> m;
    m.ents = reinterpret_cast<uint2*>(smem);
    m.ent_ptr = reinterpret_cast<uint32_t*>(m.ents + a.entries);
    m.ncolor = reinterpret_cast<uint8_t*>(m.ent_ptr + a.layers + 1);
    m.app = reinterpret_cast<PostT*>(smem + qc_table_bytes(a.entries, a.layers));
    const size_t post_bytes = (((size_t)a.n * sizeof(PostT)) + 15) & ~(size_t)15;
    m.state = SSMEM ? reinterpret_cast<uint32_t*>(reinterpret_cast<unsigned char*>(m.app) + post_bytes)
                    : a.gstate + (size_t)f * state_words;
    return m;
}

/* A frame's start, shared by the one-frame kernels: posteriors zeroed (punctured positions stay
 * erasures), every stored message +0, then the channel values, the sums of repeated positions and
 * the filler bits. Returns whether any value of the frame tells the decoder something
 * (ldpc_channel_says_nothing); also the barrier after loading. */
template <int PREC, typename PostT>
__device__ __forceinline__ int qc_frame_load(const qc_args& a, PostT* app, uint32_t* state, size_t state_words,
                                             uint32_t f, uint32_t tid, uint32_t nt)
{
    for (uint32_t p = tid; p < a.n; p += nt)
        post_store(app, p, 0.0f);
    for (size_t r = tid; r < state_words; r += nt)
        state[r] = 0u;
    __syncthreads();
    const size_t in = (size_t)f * a.n_tx;
    int loaded = 0;
    const auto use = [&](int32_t p, float v, float) {
        const float x = soft_sanitize(v);
        loaded |= !ldpc_channel_says_nothing(x, PREC, a.inv_step);
        if (p >= 0)
            post_store(app, (uint32_t)p, ldpc_channel(x, PREC, a.inv_step));
    };
    with_soft(a, [&](const auto& src) { channel_batches<1>(a, src, in, in, tid, nt, use); });
    for (uint32_t r = tid; r < a.n_rep; r += nt)
        post_store(app, a.rep[r].x, ldpc_channel(qc_soft_mother(a, a.rep[r].y, in), PREC, a.inv_step));
    for (uint32_t t = tid; t < a.n_fill; t += nt)
        post_store(app, a.fill_int[t], ldpc_channel(GPUFEC_LLR_LIMIT, PREC, a.inv_step));
    return __syncthreads_or(loaded);
}

/* Whether every parity check of the frame holds on the posteriors' hard decisions (all threads
 * get the answer). */
template <typename PostT>
__device__ __forceinline__ bool qc_parity_holds(const qc_args& a, const uint2* ents, const uint32_t* ent_ptr,
                                                const PostT* app, uint32_t tid, uint32_t nt)
{
    const auto hard = [&](uint32_t j) { return (uint32_t)ldpc_hard_bit(post_load(app, j)); };
    /* the first layer, then the rest only if it holds everywhere (block_failed says why; the
     * packed kernels' form, first_layer_first, leaves the verdict to their settle step) */
    if (__syncthreads_or((int)qc_syndrome_bad(a, ents, ent_ptr, tid, nt, 1u, hard, 0u, 1u)))
        return false;
    return !__syncthreads_or((int)qc_syndrome_bad(a, ents, ent_ptr, tid, nt, 1u, hard, 1u, a.layers));
}

/* After iteration `it` (counted from 1): the parity checks when the schedule asks for them (every
 * interval-th iteration with early termination, and after the last); true when decoding stops. */
template <typename PostT>
__device__ __forceinline__ bool qc_stop_after(const qc_args& a, int it, const uint2* ents, const uint32_t* ent_ptr,
                                              const PostT* app, uint32_t tid, uint32_t nt, bool* ok)
{
    if ((a.early && it % a.interval == 0) || it == a.max_iterations) {
        *ok = qc_parity_holds(a, ents, ent_ptr, app, tid, nt);
        return a.early && *ok;
    }
    return false;
}

/* A frame's end: its output bits, iterations and flag (erased frames are never decoded). */
template <typename PostT>
__device__ __forceinline__ void qc_frame_store(const qc_args& a, const PostT* app, uint32_t f, uint32_t tid,
                                               uint32_t nt, int it, bool decoded)
{
    const bool crc_ok =
        output_frame(a, frame_out(a, f), tid, nt, [&](uint32_t j) { return ldpc_hard_bit(post_load(app, j)); });
    if (tid == 0) {
        a.iters[f] = it;
        a.conv[f] = (uint8_t)(decoded && crc_ok);
    }
}

} // namespace

#endif
