/* Layered min-sum for codes with a QC layer view (code_internal.h): 5G NR, WiMAX, Wi-Fi, QC
 * files and DVB-S2. One thread block per frame, one thread per lane of a layer; each edge's
 * variable is derived from the layer's (block column, shift) entries instead of being loaded,
 * and each row keeps its check messages compressed (two magnitudes, the position of the first,
 * the signs) in 4 to 16 bytes, on chip when the frame fits. Storage precision float32, float16
 * or int8 (gpufec_precision); results equal the CPU's layered decoder at the same precision. */
#include "cuda_tuning.h"
#include "graph_dev.cuh"
#include "ldpc_plans.cuh"
#include "ldpc_rules.h"

#include <cuda_fp16.h>

#include <type_traits>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

namespace {

struct qc_args {
    const uint2* ents;       /* x: block column * z; y: shift | (skip lane + 1) << 16 */
    const uint32_t* ent_ptr; /* layers + 1 */
    const uint8_t* ncolor;   /* layers */
    const uint8_t* color;    /* layers * z, NULL: one colour everywhere */
    const int32_t* tx_int;   /* n_tx: internal position of each transmitted soft bit; -1: its
                                position is repeated, loaded through rep instead */
    const uint2* rep;        /* n_rep: (internal position, mother position) of repeated positions */
    tx_map_view map;         /* for the repeated positions' sums */
    const uint32_t* fill_int;/* n_fill: internal positions of filler (known zero) bits */
    const uint32_t* out_int; /* n_out: internal position of each output bit */
    uint32_t z, layers, n, n_tx, n_fill, n_out, n_rep, entries;
    uint32_t slice; /* > 0: colours are slices of this many lanes (ldpc_code.h, qv_slice); no table */
    const float* in;
    uint8_t* out;
    int32_t* iters;
    uint8_t* conv;
    uint32_t* gstate; /* global message state (when not in shared memory) */
    uint32_t pair_state_bytes; /* the lean pair kernel's row state per group (a multiple of 16) */
    uint32_t pair_desc;        /* ... and the byte offset of its layer table (pair_layers_build) in shared memory */
    uint32_t* gpost;  /* packed int8: posteriors in global memory (GPOST), n words per group */
    const uint8_t* mag_tab; /* packed int8: ms_magnitude of 0..127 */
    uint32_t nframes; /* frames in the launch (packed int8: the last group may be partial) */
    int max_iterations, early, interval, mode;
    float scale, offset, inv_step;
    /* float16 lanes: ms_magnitude in half2 arithmetic where that is exact (f16_mag_exact),
     * with the factor and the offset as binary16 in both halves */
    uint32_t f16_mag, f16_scale2, f16_offset2;
};

/* Whether ms_magnitude at float16 (min with GPUFEC_LLR_LIMIT, the factor or the offset, then
 * binary16 rounding) equals the same steps in binary16 arithmetic (HMNMX2, HMUL2, HSUB2): modes
 * 0 to 2 with the factor and offset exactly binary16 and no overflow. The float32 product of two
 * binary16 values is exact (22 bits), so rounding it is HMUL2's rounding; a float32 difference
 * rounded to binary16 is the difference correctly rounded (24 >= 2 x 11 + 2 bits). Mode 3 rounds
 * the product only after the offset: not one binary16 instruction. */
bool f16_mag_exact(int mode, float scale, float offset)
{
    const bool s_ok = (float)__float2half(scale) == scale && scale > 0.0f && GPUFEC_LLR_LIMIT * scale <= 65504.0f;
    const bool o_ok = (float)__float2half(offset) == offset && offset >= 0.0f && offset <= 65504.0f;
    return mode == 0 || (mode == 1 && s_ok) || (mode == 2 && o_ok);
}

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
    static __device__ __forceinline__ uint32_t pack(const row_state& s)
    {
        return (uint32_t)s.m1 | ((uint32_t)s.m2 << 7) | (s.arg << 14) | (s.signs << 18);
    }
};

/* Words per row for a precision and a maximum row degree (int8 in 1 word: degree <= 14;
 * float16 in 2 words: degree <= 27). */
int state_words(int prec, uint32_t maxd)
{
    return prec == LDPC_PREC_I8 ? (maxd <= 14 ? 1 : 2) : prec == LDPC_PREC_F16 ? (maxd <= 27 ? 2 : 4) : 4;
}

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

/* The failing checks among lanes tid, tid + nt, ...: the xor of hard(j) over each row's
 * variables, or-ed over the rows; stops once every bit of `all` is set (nothing left to learn).
 * SCALE: the entries' unit (4: bytes, no skipped lanes; j is then a byte offset). */
template <uint32_t SCALE = 1, class F>
__device__ __forceinline__ uint32_t qc_syndrome_bad(const qc_args& a, const uint2* ents, const uint32_t* ent_ptr,
                                                    uint32_t tid, uint32_t nt, uint32_t all, F hard)
{
    uint32_t bad = 0;
    for (uint32_t lane = tid; lane < a.z; lane += nt)
        for (uint32_t l = 0; l < a.layers; l++) {
            uint32_t parity = 0;
            for (uint32_t t = ent_ptr[l]; t < ent_ptr[l + 1]; t++) {
                bool skip;
                const uint32_t j = ent_var(ents[t], lane * SCALE, a.z * SCALE, &skip);
                if (SCALE != 1 || !skip)
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
    int min1 = 127, min2 = 127; /* ms_init_prec */
    uint32_t arg1 = 0xffffffffu, parity = 0;
    /* Skipped slots without a branch: they push 127, which moves neither minimum (both start
     * at 127) nor the parity. */
#pragma unroll
    for (int t = 0; t < DB; t++) {
        const bool valid = !((skipped >> t) & 1u);
        const uint32_t g = rp.t0 + t;
        const int mag = g == old.arg ? om2 : om1;
        const int x = max(-128, min(127, v[t] - ((old.signs >> g) & 1u ? -mag : mag))); /* ldpc_i8_sat */
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

/* A frame's output positions: use(t, out_int[t]) for t = tid, tid + nt, ... below n_out, with
 * QC_LOAD_BATCH positions per thread in flight. */
template <class F> __device__ __forceinline__ void output_batches(const qc_args& a, uint32_t tid, uint32_t nt, F use)
{
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

/* A frame's transmitted values as the frame kernels load them: use(p, v0, v1) for t = tid,
 * tid + nt, ... below n_tx, p = tx_int[t] (internal position, or -1: repeated), v0 = in0[t] and
 * (NI = 2) v1 = in1[t]; QC_LOAD_BATCH values per thread in flight (one at a time, a frame of
 * few blocks waited a global load's latency per value: one 5G block, 28 per thread). */
template <int NI, class F>
__device__ __forceinline__ void channel_batches(const qc_args& a, const float* in0, const float* in1, uint32_t tid,
                                                uint32_t nt, F use)
{
    for (uint32_t t0 = tid; t0 < a.n_tx; t0 += QC_LOAD_BATCH * nt) {
        float v0[QC_LOAD_BATCH], v1[QC_LOAD_BATCH];
        int32_t p[QC_LOAD_BATCH];
#pragma unroll
        for (int k = 0; k < QC_LOAD_BATCH; k++) {
            const uint32_t t = t0 + k * nt;
            p[k] = t < a.n_tx ? a.tx_int[t] : -1;
            v0[k] = t < a.n_tx ? in0[t] : 0.0f;
            v1[k] = t < a.n_tx && NI > 1 ? in1[t] : 0.0f;
        }
#pragma unroll
        for (int k = 0; k < QC_LOAD_BATCH; k++) {
            if (t0 + k * nt >= a.n_tx)
                break;
            use(p[k], v0[k], v1[k]);
        }
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
    const float* in = a.in + (size_t)f * a.n_tx;
    int loaded = 0;
    channel_batches<1>(a, in, in, tid, nt, [&](int32_t p, float v, float) {
        const float x = soft_sanitize(v);
        loaded |= !ldpc_channel_says_nothing(x, PREC, a.inv_step);
        if (p >= 0)
            post_store(app, (uint32_t)p, ldpc_channel(x, PREC, a.inv_step));
    });
    for (uint32_t r = tid; r < a.n_rep; r += nt)
        post_store(app, a.rep[r].x, ldpc_channel(tx_map_value(a.map, a.rep[r].y, in), PREC, a.inv_step));
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
    const uint32_t bad = qc_syndrome_bad(a, ents, ent_ptr, tid, nt, 1u,
                                         [&](uint32_t j) { return (uint32_t)ldpc_hard_bit(post_load(app, j)); });
    return !__syncthreads_or((int)bad);
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
    uint8_t* out = a.out + (size_t)f * a.n_out;
    output_batches(a, tid, nt, [&](uint32_t t, uint32_t j) { out[t] = ldpc_hard_bit(post_load(app, j)); });
    if (tid == 0) {
        a.iters[f] = it;
        a.conv[f] = (uint8_t)decoded;
    }
}

/* SPLIT: threads per row (min-sum: 1 in the throughput plan, 2 in the latency plan; SPA: 2,
 * qc_plan_create). SPA: the tanh rule with a message per edge (PREC float32) instead of
 * min-sum row states. */
template <int PREC, typename PostT, int W, bool SSMEM, int SPLIT, bool SPA, int DBMAX>
__global__ void __launch_bounds__(SPLIT > 2 ? 1024 : 512 * SPLIT) k_qc_layered(qc_args a)
{
    static_assert(!SPA || PREC == LDPC_PREC_F32, "SPA: float32");
    extern __shared__ __align__(16) unsigned char smem[];
    const uint32_t rows = a.layers * a.z, f = blockIdx.x, tid = threadIdx.x, nt = blockDim.x;
    const size_t state_words = SPA ? (size_t)a.entries * a.z : (size_t)rows * W; /* SPA: one float per edge slot */
    const auto [ents, ent_ptr, ncolor, app, state] = qc_frame_layout<PostT, SSMEM>(a, smem, state_words, f);

    qc_load_tables(a, ents, ent_ptr, ncolor, tid, nt);
    const int has_info = qc_frame_load<PREC>(a, app, state, state_words, f, tid, nt);

    typedef typename raw_words<W>::type raw_t;
    raw_t* rstate = reinterpret_cast<raw_t*>(state);
    /* Each row's state is read and written only by the thread of its lane, so the next phase's
     * state can be loaded before this phase's barrier: its latency (global memory) overlaps the
     * work. Phase (0, 0) serves lane tid in both colourings. */
    const uint32_t rt = tid / SPLIT, part = tid % SPLIT; /* the row thread; this thread's part */
    raw_t next = !SPA && rt < a.z ? rstate[rt] : raw_t();
    int it = 0;
    bool ok = false;
    while (it < a.max_iterations) {
        for (uint32_t l = 0; l < a.layers; l++) {
            const uint32_t e0 = ent_ptr[l], d = ent_ptr[l + 1] - e0;
            const uint32_t colors = ncolor[l];
            for (uint32_t col = 0; col < colors; col++) {
                const uint32_t lane = phase_lane(a, col, rt);
                const bool active = phase_active(a, colors, l, col, lane);
                if constexpr (SPA) {
                    const unsigned mask = SPLIT > 1 ? __ballot_sync(0xffffffffu, active) : 0xffffffffu;
                    if (active)
                        row_spa<PostT, SPLIT>(a, app, reinterpret_cast<float*>(state), ents, e0, d, lane, part, mask);
                    __syncthreads();
                    continue;
                }
                const raw_t cur = next;
                uint32_t nl, ncol;
                if (phase_next(a, colors, l, col, &nl, &ncol) && phase_lane(a, ncol, rt) < a.z)
                    next = rstate[nl * a.z + phase_lane(a, ncol, rt)];
                const unsigned mask = SPLIT > 1 ? __ballot_sync(0xffffffffu, active) : 0xffffffffu;
                if (active) {
                    const row_state ns =
                        row_update<PREC, PostT, SPLIT, DBMAX>(a, app, ents, e0, d, part, mask, lane,
                                                       state_codec<PREC, W>::unpack(cur));
                    if (part == 0)
                        rstate[l * a.z + lane] = state_codec<PREC, W>::pack(ns);
                }
                __syncthreads();
            }
        }
        if (qc_stop_after(a, ++it, ents, ent_ptr, app, tid, nt, &ok))
            break;
    }
    qc_frame_store(a, app, f, tid, nt, it, ok && has_info);
}

#include "qc_packed_kernel.cuh"
#include "qc_lean_kernel.cuh"
#include "qc_lean_pair_kernel.cuh"

} // namespace

struct qc_plan {
    const decoder_config* cfg;
    qc_args args; /* device tables filled; per-launch fields set by qc_launch */
    int prec, words, ssmem, half_post, spa, spa_split;
    int packed, packed_sv, packed_gpost; /* int8, float16: frames per word (2 or 4, qc_packed_kernel.cuh) or 0 */
    int lean_pair;                       /* the packed plan on the lean kernel's rows (qc_lean_pair_kernel.cuh) */
    int pair_compact;                    /* ... with two frames' row state in one uint4 */
    int pair_ssmem;                      /* ... with the row state on chip */
    int pair_short;                      /* ... int8, with 8 bytes of it for rows of at most 11 edges */
    uint32_t pair_one_wave;              /* ... chunks of at most this many groups (one per SM, two frames
                                            per word): the kernel built for one block per SM */
    size_t pair_state_bytes;             /* ... its bytes per group */
    size_t pair_desc;                    /* ... where its layer table starts in shared memory */
    int packed_row_bytes;                /* row state per row and group */
    uint32_t packed_dmax;                /* the longest row */
    int wide;                            /* throughput kernel with rows of up to 20 edges in registers */
    int lean_tp, lat_lean;               /* the lean kernel (qc_lean_kernel.cuh) for many frames, for few */
    /* int8 packed plans: chunks of fewer frames than one wave of the packed kernel run the lean
     * kernel (one frame per block, lean_smem bytes, lean_gstate bytes of global row state per frame) */
    uint32_t lean_small_frames;
    size_t lean_smem, lean_gstate;
    /* The latency plan, for chunks of at most lat_frames frames (one per SM): one frame per
     * block (a packed plan would leave SMs idle), lat_split threads per row, row state on chip
     * where it fits. lat_frames = 0: none. */
    uint32_t lat_frames, lat_threads;
    int lat_ssmem, lat_split;
    size_t lat_smem;
    /* ... at int8 and float16 on the lean rows: a row's edges two by two in the pair kernel's
     * 16-bit lanes (k_qc_lean_pair EP), its row state (ep_state_bytes) and layer table (at
     * ep_desc) on chip, ep_smem bytes in all */
    int ep;
    size_t ep_smem, ep_state_bytes, ep_desc;
    size_t smem, gstate_bytes, gpost_bytes; /* per frame, or per group of four when packed */
    uint32_t threads;
    char describe[288];
    void* dev[9];
    tx_map_dev map;
};

namespace {

typedef void (*qc_kernel_fn)(qc_args);

template <int PREC, typename PostT, int W, int SPLIT, bool SPA = false, int DBMAX = 8>
qc_kernel_fn pick_ssmem(bool ssmem)
{
    return ssmem ? k_qc_layered<PREC, PostT, W, true, SPLIT, SPA, DBMAX>
                 : k_qc_layered<PREC, PostT, W, false, SPLIT, SPA, DBMAX>;
}

template <class L, int SV, int DMAX> qc_kernel_fn pick_packed_post(const qc_plan* p)
{
    return p->packed_gpost ? k_qc_packed<L, SV, true, DMAX> : k_qc_packed<L, SV, false, DMAX>;
}

/* The lean pair kernel's row state per group: the layers' regions (pair_region_bytes), rows of
 * at most PAIR_SHORT_MAX_DEGREE edges in short_bytes where not 0. */
size_t pair_state_sum(const ldpc_code* c, uint32_t z, int row_bytes, int short_bytes)
{
    size_t bytes = 0;
    for (uint32_t l = 0; l < c->qv_layers; l++) {
        const uint32_t d = c->qv_ent_ptr[l + 1] - c->qv_ent_ptr[l];
        bytes += pair_region_bytes(short_bytes && d <= PAIR_SHORT_MAX_DEGREE ? (uint32_t)short_bytes : (uint32_t)row_bytes, z);
    }
    return bytes;
}

/* The row state's place; one: a chunk of at most one group per SM (a slot of 152 5G NR blocks
 * is 76 pairs on 132 SMs), the kernel built for one block per SM, whose registers are not
 * capped for two (pair_one_wave; posteriors in global memory keep the two-block build). */
template <class L, int SV, bool SHORT> qc_kernel_fn pick_lean_pair_mem(const qc_plan* p, bool one)
{
    if (p->packed_gpost)
        return k_qc_lean_pair<L, SV, true, false, SHORT, 2>;
    if (p->pair_ssmem)
        return one ? k_qc_lean_pair<L, SV, false, true, SHORT, 1> : k_qc_lean_pair<L, SV, false, true, SHORT, 2>;
    return one ? k_qc_lean_pair<L, SV, false, false, SHORT, 1> : k_qc_lean_pair<L, SV, false, false, SHORT, 2>;
}

template <class L, int SV> qc_kernel_fn pick_lean_pair_short(const qc_plan* p, bool one)
{
    if constexpr (L::PREC == LDPC_PREC_I8 && L::FR == 2)
        if (p->pair_short)
            return pick_lean_pair_mem<L, SV, true>(p, one);
    return pick_lean_pair_mem<L, SV, false>(p, one);
}

/* Rows longer than one sign word of two frames: the compact row state (lean rows have at most
 * LEAN_MAX_DEGREE edges, within PAIR_COMPACT_MAX_DEGREE); else packed_row's. */
template <class L> qc_kernel_fn pick_lean_pair(const qc_plan* p, bool one)
{
    static_assert(LEAN_MAX_DEGREE <= PAIR_COMPACT_MAX_DEGREE, "lean rows in the compact state");
    if constexpr (L::FR == 2) /* one sign word, or the compact state */
        return p->pair_compact ? pick_lean_pair_short<L, 0>(p, one) : pick_lean_pair_short<L, 1>(p, one);
    else
        return p->packed_sv > 1 ? pick_lean_pair_mem<L, 2, false>(p, false) : pick_lean_pair_mem<L, 1, false>(p, false);
}

/* The latency plan's edge pairs (16-bit lanes, row state on chip, one frame per block). */
qc_kernel_fn pick_edge_pairs(const qc_plan* p)
{
    return p->prec == LDPC_PREC_F16 ? k_qc_lean_pair<lanes_f16, 0, false, true, false, 1, true>
                                    : k_qc_lean_pair<lanes_h2, 0, false, true, false, 1, true>;
}

/* The pair kernel for a chunk of at most one group per SM. */
qc_kernel_fn pick_pair_one(const qc_plan* p)
{
    return p->prec == LDPC_PREC_F16 ? pick_lean_pair<lanes_f16>(p, true) : pick_lean_pair<lanes_h2>(p, true);
}

/* The kernel built for the code's longest row: one sign word (state vector) while the rows fit
 * a lane's bits. */
template <class L> qc_kernel_fn pick_packed(const qc_plan* p)
{
    if (p->lean_pair)
        return pick_lean_pair<L>(p, false);
    if (p->packed_dmax <= 8)
        return pick_packed_post<L, 1, 8>(p);
    if (p->packed_dmax <= L::BITS)
        return pick_packed_post<L, 1, 16>(p);
    return p->packed_dmax <= 16 ? pick_packed_post<L, 2, 16>(p) : pick_packed_post<L, 2, PACKED_MAX_DEGREE>(p);
}

template <int SPLIT> qc_kernel_fn pick_spa(const qc_plan* p, bool sm)
{
    return p->half_post ? pick_ssmem<LDPC_PREC_F32, __half, 4, SPLIT, true>(sm)
                        : pick_ssmem<LDPC_PREC_F32, float, 4, SPLIT, true>(sm);
}

/* DBMAX: the longest row part kept in registers (row_update): 8 for the throughput kernels, 20 for
 * the latency ones. */
template <int SPLIT, int DBMAX = 8> qc_kernel_fn pick_one_frame(const qc_plan* p, bool sm)
{
    if (p->spa)
        return p->spa_split == 4 ? pick_spa<4>(p, sm) : pick_spa<2>(p, sm);
    switch (p->prec) {
    case LDPC_PREC_F16: return p->words == 2 ? pick_ssmem<LDPC_PREC_F16, __half, 2, SPLIT, false, DBMAX>(sm)
                                             : pick_ssmem<LDPC_PREC_F16, __half, 4, SPLIT, false, DBMAX>(sm);
    case LDPC_PREC_I8: return p->words == 1 ? pick_ssmem<LDPC_PREC_I8, int8_t, 1, SPLIT, false, DBMAX>(sm)
                                            : pick_ssmem<LDPC_PREC_I8, int8_t, 2, SPLIT, false, DBMAX>(sm);
    default:
        return p->half_post ? pick_ssmem<LDPC_PREC_F32, __half, 4, SPLIT, false, DBMAX>(sm)
                            : pick_ssmem<LDPC_PREC_F32, float, 4, SPLIT, false, DBMAX>(sm);
    }
}

/* MINB: 1 for the latency plan (registers to spare), 2 for many frames; SPLIT: threads per row. */
template <int PREC, typename PostT, int W, int MINB, int SPLIT> qc_kernel_fn pick_lean_mem(bool sm)
{
    return sm ? k_qc_lean<PREC, PostT, W, true, MINB, SPLIT> : k_qc_lean<PREC, PostT, W, false, MINB, SPLIT>;
}

template <int MINB, int SPLIT> qc_kernel_fn pick_lean(const qc_plan* p, bool sm)
{
    switch (p->prec) {
    case LDPC_PREC_F16: return p->words == 2 ? pick_lean_mem<LDPC_PREC_F16, __half, 2, MINB, SPLIT>(sm)
                                             : pick_lean_mem<LDPC_PREC_F16, __half, 4, MINB, SPLIT>(sm);
    case LDPC_PREC_I8: return p->words == 1 ? pick_lean_mem<LDPC_PREC_I8, int8_t, 1, MINB, SPLIT>(sm)
                                            : pick_lean_mem<LDPC_PREC_I8, int8_t, 2, MINB, SPLIT>(sm);
    default:
        return p->half_post ? pick_lean_mem<LDPC_PREC_F32, __half, 4, MINB, SPLIT>(sm)
                            : pick_lean_mem<LDPC_PREC_F32, float, 4, MINB, SPLIT>(sm);
    }
}

qc_kernel_fn pick_kernel(const qc_plan* p)
{
    if (p->lean_tp)
        return pick_lean<2, 1>(p, p->ssmem != 0);
    if (p->packed)
        return p->prec == LDPC_PREC_F16 ? pick_packed<lanes_f16>(p)
               : p->packed == 2         ? pick_packed<lanes_h2>(p)
                                        : pick_packed<lanes_b4>(p);
    return p->wide ? pick_one_frame<1, 20>(p, p->ssmem != 0) : pick_one_frame<1>(p, p->ssmem != 0);
}

qc_kernel_fn pick_latency(const qc_plan* p)
{
    if (p->lat_lean)
        return p->lat_split == 2 ? pick_lean<1, 2>(p, p->lat_ssmem != 0) : pick_lean<1, 1>(p, p->lat_ssmem != 0);
    return p->lat_split == 2 ? pick_one_frame<2, 20>(p, p->lat_ssmem != 0) : pick_one_frame<1, 20>(p, p->lat_ssmem != 0);
}

template <typename T> cudaError_t upload(void** slot, const T* src, size_t count)
{
    cudaError_t e = cudaMalloc(slot, (count ? count : 1) * sizeof(T));
    if (e == cudaSuccess && count)
        e = cudaMemcpy(*slot, src, count * sizeof(T), cudaMemcpyHostToDevice);
    return e;
}

} // namespace

namespace {

void qc_destroy(void* plan)
{
    qc_plan* p = (qc_plan*)plan;
    if (!p)
        return;
    for (void* d : p->dev)
        if (d)
            cudaFree(d);
    tx_map_dev_free(&p->map);
    free(p);
}

uint32_t qc_units(const qc_plan* p, uint32_t frames)
{
    return p->packed ? (frames + p->packed - 1) / p->packed : frames;
}

size_t qc_state_bytes(const void* plan, uint32_t B)
{
    const qc_plan* p = (const qc_plan*)plan;
    const size_t main = (p->gstate_bytes + p->gpost_bytes) * qc_units(p, B);
    const size_t small = p->lean_gstate * (B < p->lean_small_frames ? B : p->lean_small_frames);
    return main > small ? main : small;
}
const char* qc_describe(const void* plan) { return ((const qc_plan*)plan)->describe; }

cudaError_t qc_launch(const void* plan, const engine_chunk* ch, cudaStream_t stream)
{
    const qc_plan* p = (const qc_plan*)plan;
    qc_args a = p->args;
    a.in = ch->in;
    a.out = ch->out;
    a.iters = ch->iterations;
    a.conv = ch->converged;
    a.gstate = (uint32_t*)ch->state;
    a.gpost = (uint32_t*)((unsigned char*)ch->state + p->gstate_bytes * qc_units(p, ch->B));
    a.nframes = ch->nf;
    a.max_iterations = p->cfg->opts.max_iterations; /* may change between calls */
    if (ch->nf <= p->lat_frames && p->ep) {
        a.pair_desc = (uint32_t)p->ep_desc;
        a.pair_state_bytes = (uint32_t)p->ep_state_bytes;
        pick_edge_pairs(p)<<<ch->nf, p->threads, p->ep_smem, stream>>>(a);
    } else if (ch->nf <= p->lat_frames)
        pick_latency(p)<<<ch->nf, p->lat_threads, p->lat_smem, stream>>>(a);
    else if (ch->nf < p->lean_small_frames)
        pick_lean<2, 1>(p, p->ssmem != 0)<<<ch->nf, p->threads, p->lean_smem, stream>>>(a);
    else if (qc_units(p, ch->nf) <= p->pair_one_wave)
        pick_pair_one(p)<<<qc_units(p, ch->nf), p->threads, p->smem, stream>>>(a);
    else
        pick_kernel(p)<<<qc_units(p, ch->nf), p->threads, p->smem, stream>>>(a);
    return cudaGetLastError();
}

} // namespace

const engine_plan_ops qc_plan_ops = {qc_describe, qc_state_bytes, qc_launch, qc_destroy};

size_t qc_state_bytes_per_frame(const void* plan)
{
    const qc_plan* p = (const qc_plan*)plan;
    return p->packed ? (qc_state_bytes(plan, 4096) + 4095) / 4096 : 0;
}

uint32_t qc_wave_frames(const void* plan, int device)
{
    const qc_plan* p = (const qc_plan*)plan;
    int sms = 0, blocks = 0;
    cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device);
    if (cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, pick_kernel(p), (int)p->threads, p->smem) != cudaSuccess ||
        blocks < 1 || sms < 1) {
        (void)cudaGetLastError();
        return 0;
    }
    return (uint32_t)(sms * blocks) * (p->packed ? (uint32_t)p->packed : 1u);
}

void* qc_plan_create(const decoder_config* cfg, char* why, size_t why_len, gpufec_status* st)
{
    const ldpc_code* c = ldpc_of(cfg->code);
    const tx_map* map = &cfg->code->tx;
    const gpufec_decoder_opts* o = &cfg->opts;
    const ldpc_opts lo = ldpc_opts_of(o);
    *st = GPUFEC_OK;
    if (!c->qv_z || o->schedule != GPUFEC_SCHEDULE_LAYERED ||
        !(ldpc_is_min_sum(lo.algorithm) || lo.algorithm == GPUFEC_ALG_SPA)) {
        snprintf(why, why_len, "needs a QC layer view and layered min-sum or SPA");
        return NULL;
    }
    const uint32_t z = c->qv_z, entries = c->qv_ent_ptr[c->qv_layers];
    const uint32_t lanes = c->qv_slice ? c->qv_slice : z; /* threads per frame */
    if (lanes > 512 || z > 65535 || c->qv_max_entries > 32 || entries > 8192) {
        snprintf(why, why_len, "lifting %u or %u entries per layer too large", z, c->qv_max_entries);
        return NULL;
    }
    if (o->cuda_tuning & GPUFEC_CUDA_NO_QC_KERNEL) {
        snprintf(why, why_len, "disabled by the option cuda_tuning");
        return NULL;
    }
    int optin = 0;
    cudaDeviceGetAttribute(&optin, cudaDevAttrMaxSharedMemoryPerBlockOptin, o->device);
    qc_plan* p = (qc_plan*)calloc(1, sizeof *p);
    if (!p) {
        *st = GPUFEC_ERR_OUT_OF_MEMORY;
        return NULL;
    }
    p->cfg = cfg;
    p->prec = (int)lo.precision;
    p->words = state_words(p->prec, c->qv_max_entries);
    const int W = p->words;
    const size_t tables = qc_table_bytes(entries, c->qv_layers);
    size_t post_elem = p->prec == LDPC_PREC_I8 ? 1 : p->prec == LDPC_PREC_F16 ? 2 : 4;
    if (p->prec == LDPC_PREC_F32 && tables + (size_t)c->n * 4 > (size_t)optin) {
        p->half_post = 1; /* as the generic kernel: float32 arithmetic, half posteriors */
        post_elem = 2;
    }
    const size_t post = (((size_t)c->n * post_elem) + 15) & ~(size_t)15;
    p->spa = lo.algorithm == GPUFEC_ALG_SPA; /* float32 only (decoder options) */
    /* min-sum: a compressed state per row; SPA: a float message per edge slot */
    const size_t state = p->spa ? (size_t)entries * z * 4 : (size_t)c->m * W * 4;
    if (tables + post > (size_t)optin) {
        snprintf(why, why_len, "posteriors do not fit shared memory");
        free(p);
        return NULL;
    }
    /* Row state on chip only when that does not cost frames per SM: two frames' barriers
     * interleave, and the prefetched global state costs little bandwidth (measured). */
    int per_sm = 0, sms = 0;
    cudaDeviceGetAttribute(&per_sm, cudaDevAttrMaxSharedMemoryPerMultiprocessor, o->device);
    cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, o->device);
    const size_t with_state = tables + post + state + 1024, without = tables + post + 1024;
    p->ssmem = tables + post + state <= (size_t)optin &&
               (size_t)per_sm / with_state >= ((size_t)per_sm / without < 2 ? 1 : 2);
    if (o->cuda_tuning & GPUFEC_CUDA_QC_STATE_GLOBAL)
        p->ssmem = 0;
    else if ((o->cuda_tuning & GPUFEC_CUDA_QC_STATE_SHARED) && tables + post + state <= (size_t)optin)
        p->ssmem = 1;
    p->smem = tables + post + (p->ssmem ? state : 0);
    p->gstate_bytes = p->ssmem ? 0 : state;
    p->threads = (lanes + 31) & ~31u;
    /* SPA: several threads per row (a row's chain is long: exp, log, two passes). H100,
     * docs/performance.md: two threads measured 1.15x to 1.6x one; four where at most 1024
     * threads allow it, 1.26x two on CCSDS C2's 32-edge rows but 0.97x on Wi-Fi's 8-edge rows,
     * so four only for rows of at least 16 edges. */
    p->wide = (o->cuda_tuning & GPUFEC_CUDA_WIDE_ROWS) != 0;
    p->spa_split = p->threads <= 256 && c->qv_max_entries >= 16 ? 4 : 2;
    if (p->spa)
        p->threads *= (uint32_t)p->spa_split;
    /* The lean kernel (qc_lean_kernel.cuh): whole layers, rows of 1 to LEAN_MAX_DEGREE edges. */
    int lean_ok = !p->spa && !c->qv_color && !c->qv_slice && c->qv_max_entries <= LEAN_MAX_DEGREE &&
                  !(o->cuda_tuning & GPUFEC_CUDA_NO_LEAN);
    for (uint32_t t = 0; lean_ok && t < entries; t++)
        lean_ok = c->qv_skip[t] < 0;
    for (uint32_t l = 0; lean_ok && l < c->qv_layers; l++)
        lean_ok = c->qv_ent_ptr[l + 1] > c->qv_ent_ptr[l];
    /* For many frames too at float32 (H100, docs/performance.md: 1.3x to 1.9x the generic kernel
     * on 5G NR and Wi-Fi); int8 and float16 take the packed plan on the lean rows (two frames per
     * word, qc_lean_pair_kernel.cuh: 1.3x to 1.7x the lean kernel at the same precision). */
    p->lean_tp = lean_ok && (p->prec == LDPC_PREC_F32 || (o->cuda_tuning & GPUFEC_CUDA_LEAN_THROUGHPUT) ||
                             (p->prec == LDPC_PREC_F16 && (o->cuda_tuning & GPUFEC_CUDA_NO_PACKED_I8)));
    /* int8: several frames per word unless disabled: two in half2 where the rows are whole layers
     * (the lean rows) or have up to 16 edges (one sign word), and a group's posteriors fit on
     * chip, else four in bytes (measured on the H100, docs/performance.md: half2 ahead on Wi-Fi
     * and on the lean rows, bytes on the generic kernel's long rows and on DVB-S2 normal frames,
     * whose posteriors live in L2, level on DVB-S2 short); the row state in global memory
     * (prefetched a layer ahead), the posteriors on chip where a group's fit, else in global
     * memory. float16: two frames per word in half2 (lanes_f16, the float16 rule's own
     * arithmetic) on the lean rows; on other codes only when asked (not measured ahead). */
    const int packed_f16 = p->prec == LDPC_PREC_F16 && (lean_ok || (o->cuda_tuning & GPUFEC_CUDA_PACKED_HALF2));
    if ((p->prec == LDPC_PREC_I8 || packed_f16) && !(o->cuda_tuning & GPUFEC_CUDA_NO_PACKED_I8) && !p->lean_tp &&
        c->qv_max_entries <= PACKED_MAX_DEGREE && p->threads <= PACKED_MAX_THREADS) {
        /* (with the lean pair kernel's layer table, pair_desc_bytes, after them) */
        const int gpost = tables + PACKED_TABLE_BYTES + (size_t)c->n * 4 + (lean_ok ? pair_desc_bytes(c->qv_layers) + 15 : 0) >
                          (size_t)optin;
        p->packed = p->prec == LDPC_PREC_F16                     ? 2
                    : o->cuda_tuning & GPUFEC_CUDA_PACKED_BYTES   ? 4
                    : o->cuda_tuning & GPUFEC_CUDA_PACKED_HALF2 ? 2
                    : (c->qv_max_entries <= 16 || lean_ok) && !gpost ? 2
                                                                       : 4;
        p->packed_sv = packed_state_vec(packed_sign_words(32 / p->packed, c->qv_max_entries));
        p->packed_dmax = c->qv_max_entries;
        p->packed_gpost = gpost;
        /* whole layers: the lean kernel's rows, two (or four) frames per word; its entries in
         * bytes keep a shift times 4 in 16 bits */
        p->lean_pair = lean_ok && z < (1u << 14) && c->qv_layers >= 2; /* a layer ahead is another layer */
        /* one uint4 instead of two where the rows need two sign words (H100, docs/performance.md:
         * 8192 BG1 blocks at rate 1/3 1.2x to 1.3x; one word already: Wi-Fi 1944 0.9x) */
        p->pair_compact = p->lean_pair && p->packed == 2 && p->packed_sv > 1;
        p->packed_row_bytes = (p->pair_compact ? 1 : p->packed_sv) * 16;
        p->smem = tables + PACKED_TABLE_BYTES + (p->packed_gpost ? 0 : (size_t)c->n * 4);
        p->gstate_bytes = (size_t)c->m * p->packed_row_bytes;
        if (p->lean_pair)
            p->gstate_bytes = p->pair_state_bytes = pair_state_sum(c, z, p->packed_row_bytes, 0);
        /* the lean rows' state on chip where two groups per SM still fit (5G NR BG1 at rate 0.79:
         * 8 layers, 48 KiB), unless asked for global memory */
        const size_t on_chip = tables + PACKED_TABLE_BYTES + pair_post_bytes(c->n) + p->gstate_bytes +
                               pair_desc_bytes(c->qv_layers);
        p->pair_ssmem = p->lean_pair && !gpost && on_chip <= (size_t)optin &&
                        (size_t)per_sm / (on_chip + 1024) >= 2 && !(o->cuda_tuning & GPUFEC_CUDA_QC_STATE_GLOBAL);
        if (p->pair_ssmem)
            p->gstate_bytes = 0;
        if (p->lean_pair) { /* the layer table last */
            p->pair_desc = ((p->pair_ssmem ? on_chip - pair_desc_bytes(c->qv_layers) : p->smem) + 15) & ~(size_t)15;
            p->smem = p->pair_desc + pair_desc_bytes(c->qv_layers);
        }
        /* int8 pairs with the row state in DRAM: 8 bytes of it for rows of at most 11 edges (H100,
         * docs/performance.md: 8192 blocks of BG1 at rate 1/3, whose 42 extension rows have at
         * most 10 edges, 1.11x, then 1.06x with cheaper conversions; on chip the conversions
         * cost more than the bytes save; a 12-byte float16 form gained nothing) */
        p->pair_short = p->lean_pair && !p->pair_ssmem && p->packed == 2 && p->prec == LDPC_PREC_I8 &&
                        !(o->cuda_tuning & GPUFEC_CUDA_PAIR_WIDE_STATE);
        if (p->pair_short)
            p->gstate_bytes = p->pair_state_bytes = pair_state_sum(c, z, p->packed_row_bytes, 8);
        p->gpost_bytes = p->packed_gpost ? (((size_t)c->n * 4 + 255) & ~(size_t)255) : 0;
    }
    /* The latency plan in the one-frame layout; in global memory its row state uses the
     * throughput plan's (one-frame) workspace, so a packed plan needs it on chip. Two threads per
     * row where a frame has at most four warps of lanes: one SM is then latency-bound (three
     * warps per scheduler, half the cycles without an eligible warp), and splitting its rows
     * measured 1.2x (Wi-Fi 1944) to 1.6x (CCSDS C2) faster; with 12 warps (Z = 360, 384) it is
     * issue-bound and the split measured 0.8x to 1.06x (H100, docs/performance.md). */
    if (!(o->cuda_tuning & GPUFEC_CUDA_NO_LATENCY_PLAN) && !p->spa) {
        const int forced = (o->cuda_tuning & GPUFEC_CUDA_LATENCY_PLAN) != 0;
        p->lat_ssmem = tables + post + state <= (size_t)optin;
        p->lat_lean = lean_ok && !forced;
        p->lat_split = p->lat_lean ? ((o->cuda_tuning & GPUFEC_CUDA_LEAN_SPLIT) ? 2 : 1) : forced || lanes <= 128 ? 2 : 1;
        p->lat_threads = (uint32_t)p->lat_split * ((lanes + 31) & ~31u);
        /* ... or rows longer than the throughput kernel keeps in registers (8 edges), which the
         * latency kernel keeps (20): 5G NR BG1's core rows have 19. */
        const int differs = p->packed || p->lat_split == 2 || (p->lat_ssmem && !p->ssmem) ||
                            p->lat_lean || (!p->lat_lean && !p->wide && c->qv_max_entries > 8);
        if (p->lat_threads <= 1024 && (p->lat_ssmem || !p->packed) && (differs || forced)) {
            p->lat_smem = tables + post + (p->lat_ssmem ? state : 0);
            p->lat_frames = forced ? UINT32_MAX : (uint32_t)sms;
        }
    }

    /* Host tables: entries, internal positions of inputs, fillers and outputs. */
    uint2* ents = (uint2*)malloc((size_t)entries * sizeof *ents);
    uint32_t* inv = (uint32_t*)malloc((size_t)c->n * sizeof *inv);
    const uint32_t n_out = cfg->out_len;
    int32_t* tx_int = (int32_t*)malloc(((size_t)map->n_tx + 1) * sizeof *tx_int);
    uint32_t* fill_int = (uint32_t*)malloc(((size_t)c->n + 1) * sizeof *fill_int);
    uint32_t* out_int = (uint32_t*)malloc(((size_t)n_out + 1) * sizeof *out_int);
    uint2* rep = (uint2*)malloc(((size_t)c->n + 1) * sizeof *rep);
    uint32_t n_fill = 0, n_rep = 0;
    cudaError_t err = cudaSuccess;
    if (!ents || !inv || !tx_int || !fill_int || !out_int || !rep) {
        *st = GPUFEC_ERR_OUT_OF_MEMORY;
        goto done;
    }
    for (uint32_t t = 0; t < entries; t++)
        ents[t] = make_uint2(c->qv_col[t] * z, c->qv_shift[t] | ((uint32_t)(c->qv_skip[t] + 1) << 16));
    for (uint32_t q = 0; q < c->n; q++)
        inv[c->qv_perm ? c->qv_perm[q] : q] = q;
    for (uint32_t t = 0; t < map->n_tx; t++) {
        const uint32_t j = map->tx_pos ? map->tx_pos[t] : t;
        const int repeated = map->rep_ptr && map->rep_ptr[j + 1] > map->rep_ptr[j];
        tx_int[t] = repeated ? -1 : (int32_t)inv[j];
    }
    for (uint32_t j = 0; map->src && j < c->n; j++) {
        if (map->src[j] == TX_KNOWN_ZERO)
            fill_int[n_fill++] = inv[j];
        if (map->rep_ptr && map->rep_ptr[j + 1] > map->rep_ptr[j])
            rep[n_rep++] = make_uint2(inv[j], j);
    }
    for (uint32_t t = 0; t < n_out; t++)
        out_int[t] = inv[cfg->out_pos ? cfg->out_pos[t] : t];
    if ((err = upload(&p->dev[0], ents, entries)) != cudaSuccess ||
        (err = upload(&p->dev[1], c->qv_ent_ptr, (size_t)c->qv_layers + 1)) != cudaSuccess ||
        (err = upload(&p->dev[2], c->qv_ncolor, c->qv_layers)) != cudaSuccess ||
        (c->qv_color && !c->qv_slice && (err = upload(&p->dev[3], c->qv_color, c->m)) != cudaSuccess) ||
        (err = upload(&p->dev[4], tx_int, map->n_tx)) != cudaSuccess ||
        (err = upload(&p->dev[5], fill_int, n_fill)) != cudaSuccess ||
        (err = upload(&p->dev[6], out_int, n_out)) != cudaSuccess ||
        (err = upload(&p->dev[7], rep, n_rep)) != cudaSuccess || (err = tx_map_upload(map, &p->map)) != cudaSuccess)
        goto done;
    if (p->packed) { /* the outgoing magnitudes by the rule's own function: int8, binary16 */
        uint8_t tab[PACKED_TABLE_BYTES];
        const float off = ldpc_rule_offset(&lo);
        for (uint32_t m = 0; m < 128; m++) {
            const uint32_t q =
                (uint32_t)ms_magnitude((float)m, ldpc_rule_mode(&lo), lo.normalization, off, LDPC_PREC_I8);
            const uint16_t hb = (uint16_t)lanes_h2::half_bits(q);
            tab[m] = (uint8_t)q;
            memcpy(tab + 128 + 2 * m, &hb, 2);
        }
        if ((err = upload(&p->dev[8], tab, PACKED_TABLE_BYTES)) != cudaSuccess)
            goto done;
    }
    {
        qc_args& a = p->args;
        a.ents = (const uint2*)p->dev[0];
        a.ent_ptr = (const uint32_t*)p->dev[1];
        a.ncolor = (const uint8_t*)p->dev[2];
        a.color = (const uint8_t*)p->dev[3];
        a.tx_int = (const int32_t*)p->dev[4];
        a.fill_int = (const uint32_t*)p->dev[5];
        a.out_int = (const uint32_t*)p->dev[6];
        a.rep = (const uint2*)p->dev[7];
        a.mag_tab = (const uint8_t*)p->dev[8];
        a.pair_state_bytes = (uint32_t)p->pair_state_bytes;
        a.pair_desc = (uint32_t)p->pair_desc;
        a.map = p->map.view();
        a.n_rep = n_rep;
        a.z = z;
        a.slice = c->qv_slice;
        a.layers = c->qv_layers;
        a.n = c->n;
        a.n_tx = map->n_tx;
        a.n_fill = n_fill;
        a.n_out = n_out;
        a.entries = entries;
        a.max_iterations = o->max_iterations;
        a.early = o->early_termination;
        a.interval = lo.syndrome_interval;
        a.mode = ldpc_rule_mode(&lo);
        a.scale = lo.normalization;
        a.offset = ldpc_rule_offset(&lo);
        a.inv_step = decoder_inv_step(&lo);
        a.f16_mag = f16_mag_exact(a.mode, a.scale, a.offset) && !(o->cuda_tuning & GPUFEC_CUDA_F16_MAG_FLOAT);
        a.f16_scale2 = __half_as_ushort(__float2half(a.scale)) * 0x00010001u;
        a.f16_offset2 = __half_as_ushort(__float2half(a.offset)) * 0x00010001u;
    }
    err = cudaFuncSetAttribute(pick_kernel(p), cudaFuncAttributeMaxDynamicSharedMemorySize, (int)p->smem);
    /* two frames per word on lean rows, a chunk of one group per SM at most: one block per SM
     * (H100, docs/performance.md: a slot of 152 5G NR blocks) */
    if (err == cudaSuccess && p->lean_pair && p->packed == 2 && !p->packed_gpost) {
        p->pair_one_wave = (uint32_t)sms;
        err = cudaFuncSetAttribute(pick_pair_one(p), cudaFuncAttributeMaxDynamicSharedMemorySize, (int)p->smem);
    }
    if (err == cudaSuccess && p->lat_frames)
        err = cudaFuncSetAttribute(pick_latency(p), cudaFuncAttributeMaxDynamicSharedMemorySize, (int)p->lat_smem);
    /* A few frames at int8 and float16 on the lean rows: a row's edges two by two in 16-bit lanes
     * (ep_row), one binary16 per position, the row state on chip in 8 bytes per row. */
    if (err == cudaSuccess && p->lat_frames && p->lean_pair && p->packed == 2 && !p->packed_gpost &&
        c->qv_max_entries <= EP_MAX_DEGREE &&
        !(o->cuda_tuning & (GPUFEC_CUDA_NO_EDGE_PAIRS | GPUFEC_CUDA_LATENCY_PLAN | GPUFEC_CUDA_LEAN_SPLIT))) {
        const size_t st = pair_state_sum(c, z, 8, 0);
        const size_t at = (tables + PACKED_TABLE_BYTES + pair_post_bytes((c->n + 1) / 2) + st + 15) & ~(size_t)15;
        if (at + pair_desc_bytes(c->qv_layers) <= (size_t)optin) {
            p->ep = 1;
            p->ep_state_bytes = st;
            p->ep_desc = at;
            p->ep_smem = at + pair_desc_bytes(c->qv_layers);
            err = cudaFuncSetAttribute(pick_edge_pairs(p), cudaFuncAttributeMaxDynamicSharedMemorySize, (int)p->ep_smem);
        }
    }
    /* Four frames per word below one wave (a slot of 152 5G NR blocks is 38 groups of four on 132
     * SMs): the lean kernel, which fills the SMs with one frame per block (H100,
     * docs/performance.md). Two per word on the lean rows stay (the same slot at int8: 144 us
     * in pairs against 190 us one frame per block). */
    if (err == cudaSuccess && p->packed == 4 && lean_ok && !(o->cuda_tuning & GPUFEC_CUDA_PACKED_ALWAYS)) {
        p->lean_smem = tables + post + (p->ssmem ? state : 0);
        p->lean_gstate = p->ssmem ? 0 : state;
        err = cudaFuncSetAttribute(pick_lean<2, 1>(p, p->ssmem != 0), cudaFuncAttributeMaxDynamicSharedMemorySize,
                                   (int)p->lean_smem);
        if (err == cudaSuccess)
            p->lean_small_frames = qc_wave_frames(p, o->device);
    }
    char layers[48];
    snprintf(layers, sizeof layers, c->qv_slice ? "Z=%u, %u layers in slices of %u lanes" : "Z=%u, %u layers", z,
             c->qv_layers, c->qv_slice);
    if (p->lean_tp)
        snprintf(p->describe, sizeof p->describe, "QC layered (%s), lean rows, %s posteriors, %d-byte row state in %s memory",
                 layers, p->prec == LDPC_PREC_I8 ? "int8" : p->prec == LDPC_PREC_F16 || p->half_post ? "fp16" : "fp32",
                 W * 4, p->ssmem ? "shared" : "global");
    else if (p->packed)
        snprintf(p->describe, sizeof p->describe,
                 "QC layered (%s), %s%s rule, %d frames per word (%s), posteriors in %s memory, "
                 "%d-byte row state per row%s in %s memory",
                 layers, p->lean_pair ? "lean rows, " : "", p->prec == LDPC_PREC_F16 ? "float16" : "int8", p->packed,
                 p->packed == 2 ? "half2" : "bytes", p->packed_gpost ? "global" : "shared",
                 p->packed_row_bytes, p->pair_short ? " (8 with at most 11 edges)" : "", p->pair_ssmem ? "shared" : "global");
    else if (p->spa)
        snprintf(p->describe, sizeof p->describe, "QC layered SPA, fast instructions (%s), %s posteriors, a message per edge in %s memory",
                 layers, p->half_post ? "fp16" : "fp32", p->ssmem ? "shared" : "global");
    else
        snprintf(p->describe, sizeof p->describe,
                 "QC layered (%s), %s posteriors, %d-byte row state in %s memory%s", layers,
                 p->prec == LDPC_PREC_I8 ? "int8" : p->prec == LDPC_PREC_F16 || p->half_post ? "fp16" : "fp32",
                 W * 4, p->ssmem ? "shared" : "global", p->wide ? ", rows of up to 20 edges in registers" : "");
    if (p->lean_small_frames) {
        const size_t len = strlen(p->describe);
        snprintf(p->describe + len, sizeof p->describe - len, "; below %u frames: lean rows, one frame per block",
                 p->lean_small_frames);
    }
    if (p->lat_frames) {
        const size_t len = strlen(p->describe);
        snprintf(p->describe + len, sizeof p->describe - len, "; up to %u frames: one per block, %s", p->lat_frames,
                 p->ep         ? "lean rows, a row's edges two by two in half2"
                 : p->lat_lean ? (p->lat_split == 2 ? "lean rows, 2 threads per row" : "lean rows, 1 thread per row")
                 : p->lat_split == 2 ? "2 threads per row" : "1 thread per row");
    }
done:
    free(ents);
    free(inv);
    free(tx_int);
    free(fill_int);
    free(out_int);
    free(rep);
    if (err != cudaSuccess) {
        snprintf(why, why_len, "CUDA: %s", cudaGetErrorString(err));
        *st = err == cudaErrorMemoryAllocation ? GPUFEC_ERR_DEVICE_OUT_OF_MEMORY : GPUFEC_ERR_DEVICE;
        (void)cudaGetLastError();
    }
    if (*st != GPUFEC_OK) {
        qc_destroy(p);
        return NULL;
    }
    return p;
}
