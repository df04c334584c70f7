/* The lean kernel with two frames per word (its builds: qc_kernels_pair_*.cu): the lean
 * kernel's rows (whole layers, code compiled for each row's exact degree, no entry decode, skip
 * test or mask) on the packed kernel's words (a lane policy of
 * qc_packed_kernel.cuh: lanes_f16 for float16, lanes_h2 for int8), so that one instruction
 * stream advances two frames and an edge's address, derived once and kept in a register, serves
 * both. The group's load, syndrome, freezing of converged frames and output are the packed
 * kernel's (packed_group_*), and so are the row state and the per-edge message rule
 * (packed_message, packed_output): same rule, same decisions and iteration counts as the CPU.
 * The latency plan at int8 and float16 runs the same kernel on one frame whose rows' edges go two
 * by two into the lanes (EP, ep_row). */
#ifndef GPUFEC_QC_LEAN_PAIR_KERNEL_CUH
#define GPUFEC_QC_LEAN_PAIR_KERNEL_CUH

#include "qc_layer_profile.cuh"
#include "qc_lean_kernel.cuh"
#include "qc_nr_z384.cuh"
#include "qc_packed_kernel.cuh"

#include <type_traits>

namespace {

/* The row state of two frames (16-bit lanes) in one uint4 for rows of at most 27 edges, half
 * of packed_row's two: the two magnitude words, then a word per frame with its signs (edge t at
 * bit t) and the position of its first minimum in the top 5 bits (pair_pos). The row traffic of
 * a long code's many groups goes to DRAM (BG1 at rate 1/3: 46 layers of 384 rows per group), so
 * its size is the kernel's speed there. Converted to and from packed_row once per row. */
#define PAIR_COMPACT_MAX_DEGREE 27u
/* acc plus x shifted right by sh (1 to 31), as a multiply-add's high word (IMAD.HI on the FMA
 * pipe, not LEA.HI on the ALU) */
__device__ __forceinline__ uint32_t pair_add_shr(uint32_t acc, uint32_t x, uint32_t sh)
{
    uint32_t r;
    asm("mad.hi.u32 %0, %1, %2, %3;" : "=r"(r) : "r"(x), "r"(1u << (32u - sh)), "r"(acc));
    return r;
}

/* Integers below 1024 go to and from binary16 exactly by way of 1024 + m, whose low ten bits are
 * m: two of them (one per 16-bit lane) in one half2 instruction (the short state's magnitudes,
 * pair_short_load). */
#define PAIR_1024 0x64006400u
__device__ __forceinline__ uint32_t pair_biased_half(uint32_t h) /* lanes 1024 + m (binary16) as m */
{
    return lanes_h2::u(__hsub2(lanes_h2::h(h), lanes_h2::h(PAIR_1024)));
}
__device__ __forceinline__ uint32_t pair_half_int(uint32_t h) /* the reverse: each lane's integer in its low bits */
{
    return lanes_h2::u(__hadd2(lanes_h2::h(h), lanes_h2::h(PAIR_1024)));
}

template <class L> __device__ __forceinline__ packed_row pair_compact_load(uint4 w)
{
    static_assert(L::FR == 2 && L::BITS == 16, "two frames in 16-bit lanes");
    return {w.x, w.y, w.z >> 27 | (w.w >> 27) << 16,
            {__byte_perm(w.z, w.w, 0x5410), __byte_perm(w.z, w.w, 0x7632) & 0x07ff07ffu, 0, 0, 0}};
}

/* The new state where `live`, the old one elsewhere (frozen frames), packed. The positions are
 * pair_pos integers (pair_none for none). */
template <class L> __device__ __forceinline__ uint4 pair_compact_store(const packed_row& o, const packed_row& n, uint32_t live)
{
#define PC_SEL(x, y) (((x) & live) | ((y) & ~live))
    const uint32_t arg = PC_SEL(n.arg, o.arg), s0 = PC_SEL(n.s[0], o.s[0]), s1 = PC_SEL(n.s[1], o.s[1]);
    return make_uint4(PC_SEL(n.m1, o.m1), PC_SEL(n.m2, o.m2),
                      (__byte_perm(s0, s1, 0x5410) & 0x07ffffffu) | arg << 27,
                      (__byte_perm(s0, s1, 0x7632) & 0x07ffffffu) | ((arg >> 16) & 0x1fu) << 27);
#undef PC_SEL
}

/* Rows of at most 16 edges in the compact form's 16 bytes, unpacked: the two magnitude words, the
 * sign word (edge t at bit t of each frame's half) and the first minimum's position (pair_pos),
 * each as the row computes it. The compact form packs 27 signs and the position into two words,
 * about ten instructions per row (a fifth of a 5G NR extension row's own), which a row of at most
 * 16 edges, one sign word, does not need. */
#define PAIR_PLAIN_MAX_DEGREE 16
template <class L, int SV, bool SR, int D> __host__ __device__ constexpr bool pair_plain()
{
    return SV == 0 && !SR && L::FR == 2 && L::BITS == 16 && D <= PAIR_PLAIN_MAX_DEGREE;
}

/* The minima of a row without the first minimum's position: which edge has it is found in the
 * second pass (pair_is_min), three instructions per edge fewer than packed_acc's push. */
template <class L> struct pair_acc {
    uint32_t min1, min2, parity;
    __device__ __forceinline__ void push(uint32_t v)
    {
        const uint32_t m = L::mag(v);
        min2 = L::vmin(min2, L::vmax(min1, m));
        min1 = L::vmin(min1, m);
        parity ^= v;
    }
};

/* Lanes whose edge gives the row's first minimum: |v| equal to min1. Where several edges tie,
 * each is marked and the stored position is not the rule's first (bytes: the last; 16-bit
 * lanes: the sum of the tied positions, pair_row_out), but the messages are the same, because a
 * tie makes min2 equal min1, hence M2 equal M1, whichever edge a position names. int8's
 * minima start at 63: when no edge is below it, min1 and min2 are both 63 and an edge at 63 or
 * beyond gets the same message, matched or not. */
template <class L> __device__ __forceinline__ uint32_t pair_is_min(uint32_t v, uint32_t min1)
{
    return L::eq(L::mag(v), min1);
}

/* The second pass over a row's edges (FROZEN: some frames no longer written, their posteriors
 * kept), adding each edge's outgoing message to its extrinsic value, and recording the first
 * minimum's position per frame in ns->arg and the signs in ns->s. */
template <class L, int D, bool FROZEN, int DK>
__device__ __forceinline__ void pair_row_out(unsigned char* base, const uint32_t (&jv)[D], const uint32_t (&v)[D],
                                             const uint32_t (&pk)[DK], const uint32_t (&mk)[DK], const pair_acc<L>& c,
                                             packed_row* ns, uint32_t live)
{
    uint32_t arg = pair_none<L>();
    const uint32_t d21 = pair_diff<L>(ns->m1, ns->m2);
#pragma unroll
    for (int t = 0; t < D; t++) {
        const uint32_t T = pair_pos<L>((uint32_t)t), neg = (c.parity ^ v[t]) & L::SIGN;
        const uint32_t SH = L::BITS - 1 - t % L::BITS; /* a constant once unrolled */
        uint32_t mag;
        if constexpr (L::FR == 2) { /* 1.0 where |v| is min1; tied edges' positions add up to a meaningless one,
                                       harmless as a tie makes M2 equal M1 */
            const uint32_t hit = pair_hit<L>(L::u(__habs2(L::h(v[t]))), c.min1);
            arg = L::u(__hfma2(L::h(hit), L::h(T), L::h(arg)));
            mag = pair_pick<L>(hit, ns->m1, ns->m2, d21);
            ns->s[t / L::BITS] = SH ? pair_add_shr(ns->s[t / L::BITS], neg, SH) : ns->s[t / L::BITS] | neg;
        } else {
            const uint32_t e = pair_is_min<L>(v[t], c.min1);
            arg = (arg & ~e) | (T & e);
            mag = (ns->m2 & e) | (ns->m1 & ~e);
            ns->s[t / L::BITS] |= neg >> SH;
        }
        uint32_t post = L::update(v[t], pk[t % DK], mk[t % DK], L::apply_sign(mag, neg)); /* pk, mk: L::KEEP */
        uint32_t* ap = reinterpret_cast<uint32_t*>(base + jv[t]);
        if constexpr (FROZEN) /* frozen frames keep their posteriors (unchanged since pass 1) */
            post = (post & live) | (*ap & ~live);
        *ap = post;
    }
    ns->arg = arg;
}

/* int8 pairs (lanes_h2) on rows of at most 11 edges (BG1's extension rows, all of BG2, Wi-Fi)
 * with the row state in DRAM: two frames' state in 8 bytes, a word of magnitudes (a byte each:
 * M1 of frame 0 and 1, then M2 of frame 0 and 1; the int8 rule's are at most 127), each pair to
 * and from its binary16 lanes by one byte permutation beside the 0x64 of 1024 + m
 * (pair_biased_half), and a word of positions (bits 0-3 and 16-19, pair_pos: 1 to 11, 0 none)
 * and signs (bits 4-14 and 20-30), each frame in its own 16-bit half as in the words it converts
 * to. Half the compact form's bytes: at rate 1/3 the row state is the kernel's DRAM traffic. (A
 * 12-byte float16 form, the magnitudes as half2, measured +0.8% on BG1 at rate 1/3 and -2.8% on
 * BG2 on the H100: not kept.) */
#define PAIR_SHORT_MAX_DEGREE 11
/* A lane's bytes of row state in the short form (pair_short_store's two words), which edge
 * pairs' compact state (ep_state_store) shares: one constant for the regions, the walk of the
 * loop of short rows and the prefetch. */
#define PAIR_SHORT_BYTES ((uint32_t)sizeof(uint2))

template <class L, bool SHORT> __host__ __device__ constexpr bool pair_short(uint32_t d)
{
    return SHORT && L::PREC == LDPC_PREC_I8 && L::FR == 2 && d <= (uint32_t)PAIR_SHORT_MAX_DEGREE;
}

/* The short form's sign word is its second word as stored: edge t's sign at bit
 * PAIR_SHORT_SIGN_AT + t of each half, which a row's messages read by a shift that much shorter
 * (lean_pair_row; below the sign bit, the positions' bits never reach it). */
#define PAIR_SHORT_SIGN_AT 4
__device__ __forceinline__ packed_row pair_short_load(uint2 w)
{
    const uint32_t b = PAIR_1024 >> 8; /* the byte 0x64 */
    return {pair_biased_half(__byte_perm(w.x, b, 0x4140)), pair_biased_half(__byte_perm(w.x, b, 0x4342)), w.y & 0x000f000fu,
            {w.y, 0, 0, 0, 0}};
}

/* The new state where `live`, the old one elsewhere (frozen frames). */
__device__ __forceinline__ uint2 pair_short_store(const packed_row& o, const packed_row& n, uint32_t live)
{
#define PS_SEL(x, y) (((x) & live) | ((y) & ~live))
    const uint32_t m1 = pair_half_int(PS_SEL(n.m1, o.m1)), m2 = pair_half_int(PS_SEL(n.m2, o.m2));
    /* n.s: bits 0-10 of each half only (pair_row_out, bit t of a row of D <= 11 edges, asserted in
     * lean_pair_row); o.s: the old word whole */
    const uint32_t pw = PS_SEL((n.arg & 0x000f000fu) | n.s[0] << PAIR_SHORT_SIGN_AT, o.s[0]);
#undef PS_SEL
    return make_uint2(__byte_perm(m1, m2, 0x6420), pw); /* each lane's low byte: m (below 128) */
}

/* A row's new state where `live`, the old one elsewhere, stored in its form (SR: the short one)
 * at lane `lane` of its layer's region (laid out as pair_state_get reads it). Here, where the
 * row's degree is a constant, the form needs no test. */
template <class L, int SV, bool SR, bool PLAIN = false>
__device__ __forceinline__ void pair_row_store(const packed_row& old, const packed_row& ns, uint32_t live,
                                               unsigned char* region, uint32_t lane, uint32_t z)
{
    if constexpr (PLAIN) {
#define PP_SEL(x, y) (((x) & live) | ((y) & ~live))
        reinterpret_cast<uint4*>(region)[lane] =
            make_uint4(PP_SEL(ns.m1, old.m1), PP_SEL(ns.m2, old.m2), PP_SEL(ns.s[0], old.s[0]), PP_SEL(ns.arg, old.arg));
#undef PP_SEL
    } else if constexpr (SR) {
        reinterpret_cast<uint2*>(region)[lane] = pair_short_store(old, ns, live);
    } else if constexpr (SV == 0) {
        reinterpret_cast<uint4*>(region)[lane] = pair_compact_store<L>(old, ns, live);
    } else {
        uint4 w[SV];
        packed_store<SV>(w, old, ns, live);
#pragma unroll
        for (int k = 0; k < SV; k++)
            reinterpret_cast<uint4*>(region)[k * z + lane] = w[k];
    }
}

/* The rows' edge offsets on chip (TAB: the edge-pairs kernel, and the pair kernel at one group
 * per SM): each row's positions as byte offsets in shared memory (where the posteriors start,
 * plus a position's bytes times its index: 2 for edge pairs, 4 for two frames per word), 16
 * bits each, edges 2k and 2k + 1 in word k (low, high; an odd row's last high half unused),
 * built by the plan (edge_table_make) and copied to shared memory while the channel loads,
 * where they fit (built in each block they cost 6 us on one 5G NR block; 32-bit offsets, no bit
 * operations but twice the copy, measured no faster). A layer's rows are [lane][unit] with
 * edge_units(d) uint2 units (two words) per row: a row reads its own units at constant offsets
 * (one LDS.64 and four bit operations per four edges, in place of an entry load, a multiply-add,
 * an add-min and an add per edge), and an odd number of units per row keeps a warp's LDS.64
 * free of bank conflicts. */
__host__ __device__ constexpr uint32_t edge_units(uint32_t d) { return ((d + 3u) / 4u) | 1u; }
/* ... one unit's bytes over a layer's z rows. A layer's offsets start at the units of the layers
 * before it times this: the plan's table (edge_table_make), the layer table (pair_layers_build)
 * and the profile steps (ep_prof_side) all place them so. */
__host__ __device__ constexpr uint32_t edge_unit_bytes(uint32_t z) { return 8u * z; }
/* ... a layer's bytes of them */
__host__ __device__ constexpr uint32_t edge_table_bytes(uint32_t d, uint32_t z) { return edge_units(d) * edge_unit_bytes(z); }

/* A row's D edge offsets from the table (row: its first unit) */
template <int D> __device__ __forceinline__ void edge_offsets(const uint2* row, uint32_t (&jv)[D])
{
#pragma unroll
    for (int g = 0; g < (D + 3) / 4; g++) {
        const uint2 w = row[g];
        jv[4 * g] = w.x & 0xffffu;
        if (4 * g + 1 < D)
            jv[4 * g + 1] = w.x >> 16;
        if (4 * g + 2 < D)
            jv[4 * g + 2] = w.y & 0xffffu;
        if (4 * g + 3 < D)
            jv[4 * g + 3] = w.y >> 16;
    }
}

/* Edges T.. of a row whose entries are profile KP's from entry KE on, at Z = 384 (qc_nr_z384.cuh):
 * each offset from the posteriors' start is constants and the lane's, so that an edge's address
 * is an add and an add-min, the column block's part an immediate of the load, and no entry is
 * read. */
template <int KP, int KE, int T, int D> __device__ __forceinline__ void z384_offsets(uint32_t (&jv)[D], uint32_t lane4)
{
    if constexpr (T < D) {
        using E = nr_z384_entries<KP>;
        static_assert(KE + D <= (int)(sizeof E::col / sizeof E::col[0]), "entries of the base graph");
        constexpr uint32_t Z4 = NR_Z384 * 4u, S = E::shift[KE + T] * 4u, C = E::col[KE + T] * Z4;
        const uint32_t u = lane4 + S;
        jv[T] = C + min(u, u - Z4); /* u - Z4 wraps to a huge value when u < Z4 */
        z384_offsets<KP, KE, T + 1, D>(jv, lane4);
    }
}

/* One row of exactly D edges (ents: the layer's entries, in bytes: x the column block's offset
 * from base, y the shift times 4; lane4 likewise, nz4 is -4z; TAB: the layer's edge offsets,
 * from the same base; KP > 0: neither, the entries compiled from profile KP's at Z = 384, the
 * row's first being entry KE, z384_offsets, base the posteriors' start: pair_layout_app_first). SV: uint4
 * of row state per row, 0 for the compact form; st: the row's state (loaded a layer ahead), its
 * new one stored at the row's lane of `region`. */
template <class L, int SV, bool SHORT, int D, bool TAB, int KP = 0, int KE = 0, bool MA = KP != 0>
__device__ __forceinline__ void lean_pair_row(const qc_args& a, unsigned char* base, const uint8_t* tab, const uint2* ents,
                                              uint32_t lane4, uint32_t nz4, uint32_t live, const uint4* st,
                                              unsigned char* region, uint32_t lane)
{
    static_assert(D <= (SV == 0 ? (int)PAIR_COMPACT_MAX_DEGREE : (int)L::BITS * (SV > 1 ? 5 : 1)), "sign words");
    /* KP != 0: the row's offsets count from the posteriors' start, which is base in the compiled
     * entries' layout (pair_layout_app_first) */
    constexpr bool SR = pair_short<L, SHORT>(D);
    constexpr bool PLAIN = pair_plain<L, SV, SR, D>();
    constexpr int SA = SR ? PAIR_SHORT_SIGN_AT : 0; /* where edge 0's sign is in the old sign word */
    static_assert(!SR || D + PAIR_SHORT_SIGN_AT < (int)L::BITS, "the short form's signs below the sign bit");
    /* pair_short_store takes the new sign word unmasked: pair_row_out sets bit t < D of each half */
    static_assert(!SR || D <= PAIR_SHORT_MAX_DEGREE, "the new signs in bits 0-10 of each half");
    packed_row old;
    if constexpr (PLAIN)
        old = {st[0].x, st[0].y, st[0].w, {st[0].z, 0, 0, 0, 0}};
    else if constexpr (SR)
        old = pair_short_load(make_uint2(st[0].x, st[0].y));
    else if constexpr (SV == 0)
        old = pair_compact_load<L>(st[0]);
    else
        old = packed_load<SV>(st);
    constexpr int DK = L::KEEP ? D : 1;
    uint32_t jv[D], v[D], pk[DK] = {}, mk[DK] = {}; /* KEEP: each edge's posterior and old message */
    if constexpr (TAB) {
        edge_offsets<D>(ents + lane * edge_units(D), jv);
    } else if constexpr (KP != 0) {
        static_assert(L::FR == 2, "four bytes per position");
        z384_offsets<KP, KE, 0, D>(jv, lane4);
    } else {
#pragma unroll
        for (int t = 0; t < D; t++) {
            const uint2 e = ents[t];
            const uint32_t u = lane4 + e.y; /* whole layers: e.y is the shift alone */
            jv[t] = e.x + min(u, u + nz4);  /* u - z4 wraps to a huge value when u < z4 (one add-min) */
        }
    }
#pragma unroll
    for (int t = 0; t < D; t++)
        v[t] = *reinterpret_cast<const uint32_t*>(base + jv[t]);
    pair_acc<L> c = {L::INIT, L::INIT, 0u}; /* ms_init_prec */
    const uint32_t d21 = pair_diff<L>(old.m1, old.m2);
#pragma unroll
    for (int t = 0; t < D; t++) {
        uint32_t msg;
        if constexpr (L::FR == 2) /* packed_message with pair_pick */
            msg = L::apply_sign(pair_pick<L>(pair_hit<L>(old.arg, pair_pos<L>((uint32_t)t)), old.m1, old.m2, d21),
                                old.s[t / L::BITS] << (L::BITS - 1 - t % L::BITS - SA));
        else
            msg = packed_message<L>(old, old.s[t / L::BITS], t % L::BITS, pair_pos<L>((uint32_t)t));
        if constexpr (L::KEEP) {
            pk[t % DK] = v[t];
            mk[t % DK] = msg;
        }
        v[t] = L::ext(v[t], msg);
        c.push(v[t]);
    }
    /* MA: a kernel with compiled entries, which the plan takes at int8 only with the magnitudes'
     * arithmetic (its rows after the window too) */
    packed_row ns = {0u, 0u, 0u, {0, 0, 0, 0, 0}};
    row_magnitudes<L, MA>(a, tab, c.min1, c.min2, ns.m1, ns.m2);
    if (live == 0xffffffffu) { /* no frame frozen: the masks fold away */
        pair_row_out<L, D, false>(base, jv, v, pk, mk, c, &ns, 0xffffffffu);
        pair_row_store<L, SV, SR, PLAIN>(old, ns, 0xffffffffu, region, lane, a.z);
    } else {
        pair_row_out<L, D, true>(base, jv, v, pk, mk, c, &ns, live);
        pair_row_store<L, SV, SR, PLAIN>(old, ns, live, region, lane, a.z);
    }
}

/* EP, the latency plan at int8 and float16: one frame, a row's edges two by two in a thread's
 * 16-bit lanes (edge 2k low, 2k + 1 high; the last high lane empty when D is odd), so that a
 * row's chain of instructions is half as long and each instruction serves two edges. The
 * posteriors are one binary16 per position (one_at: position p in half p % 2 of word p / 2),
 * entries in bytes (x the column block's offset from base, y the shift times 2; lane2 is 2 x the
 * row, nz2 -2z). The rule per lane is the pair rows' (pair_pick, pair_acc, the signs as two
 * frames' would be: edge 2k's at bit k, 2k + 1's at bit 16 + k), then the two lanes' minima and
 * signs merge (in any grouping the rule's, as ms_merge), and the first minimum's position is the
 * sum of both lanes' (positions 1-based per edge; a tie makes M2 equal M1, as in pair_row_out).
 * Row state in 8 bytes: M1 and M2 as binary16, the signs in bits 0-9 and 16-25 and the position
 * in the top 5 bits. */
#define EP_MAX_DEGREE 20
__device__ __forceinline__ packed_row ep_state_load(uint2 w)
{
    return {__byte_perm(w.x, 0u, 0x1010), __byte_perm(w.x, 0u, 0x3232), (w.y >> 27) * 0x00010001u,
            {w.y & 0x03ff03ffu, 0, 0, 0, 0}};
}
__device__ __forceinline__ uint2 ep_state_store(const packed_row& n)
{
    return make_uint2(__byte_perm(n.m1, n.m2, 0x5410), (n.s[0] & 0x03ff03ffu) | (n.arg & 0x1fu) << 27);
}
/* edge 2k's position in the low lane, 2k + 1's in the high one (1-based, as pair_pos) */
__host__ __device__ constexpr uint32_t ep_pos(uint32_t k) { return (2u * k + 1u) | (2u * k + 2u) << 16; }
__device__ __forceinline__ uint32_t ep_swap(uint32_t x) { return __byte_perm(x, 0u, 0x1032); }

/* 16 bytes from global to shared memory in the background (cp.async, sm_80 and later: no
 * registers held until the wait), and the wait for all of them; a plain copy before sm_80. */
__device__ __forceinline__ void copy16_async(unsigned char* dst, const uint4* src)
{
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
    asm volatile("cp.async.cg.shared.global [%0], [%1], 16;" ::"r"((uint32_t)__cvta_generic_to_shared(dst)), "l"(src)
                 : "memory");
#else
    *reinterpret_cast<uint4*>(dst) = *src;
#endif
}
__device__ __forceinline__ void copy_async_wait()
{
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
    asm volatile("cp.async.wait_all;" ::: "memory");
#endif
}

/* Store the low 16 bits of v (st.shared.u16 takes the 32-bit register as it is: no PRMT). */
__device__ __forceinline__ void ep_store_u16(unsigned char* p, uint32_t v)
{
    asm volatile("st.shared.u16 [%0], %1;" ::"r"((uint32_t)__cvta_generic_to_shared(p)), "r"(v) : "memory");
}

/* ep_row in three phases, so that two rows of one step (merged layers: no column shared) can run
 * interleaved in one thread (ep_two): their loads and first passes, then both outgoing
 * magnitudes, then both second passes with their stores. A phase's work is the row's own: the
 * order of the two rows' loads and stores is irrelevant as they touch no common position. */
template <class L, int D> struct ep_work {
    uint32_t jv[D], v[(D + 1) / 2];
    pair_acc<L> r; /* both lanes' minima and parity, in both lanes */
    packed_row ns;
};

/* The row's state, edge offsets and posteriors, and the first pass (ents: the layer's entries, or
 * its offsets where TAB). */
template <class L, int D, bool TAB>
__device__ __forceinline__ void ep_row_in(ep_work<L, D>& w, const unsigned char* base, const uint2* ents, uint32_t lane2,
                                          uint32_t nz2, const uint4* st, uint32_t lane)
{
    static_assert(L::FR == 2 && D <= EP_MAX_DEGREE && !L::KEEP, "two edges per word, the signs in ten bits per lane");
    constexpr int K = (D + 1) / 2;
    const packed_row old = ep_state_load(make_uint2(st[0].x, st[0].y));
    if constexpr (TAB) { /* ents: this layer's offsets */
        edge_offsets<D>(ents + lane * edge_units(D), w.jv);
    } else {
#pragma unroll
        for (int t = 0; t < D; t++) {
            const uint2 e = ents[t];
            const uint32_t u = lane2 + e.y;
            w.jv[t] = e.x + min(u, u + nz2); /* u - 2z wraps to a huge value when u < 2z (one add-min) */
        }
    }
#pragma unroll
    for (int k = 0; k < K; k++) {
        const uint32_t lo = *reinterpret_cast<const uint16_t*>(base + w.jv[2 * k]);
        const uint32_t hi = 2 * k + 1 < D ? *reinterpret_cast<const uint16_t*>(base + w.jv[2 * k + 1]) : 0u;
        w.v[k] = lo | hi << 16;
    }
    pair_acc<L> c = {L::INIT, L::INIT, 0u}; /* ms_init_prec */
    const uint32_t d21 = pair_diff<L>(old.m1, old.m2);
#pragma unroll
    for (int k = 0; k < K; k++) {
        const uint32_t msg = L::apply_sign(pair_pick<L>(pair_hit<L>(old.arg, ep_pos((uint32_t)k)), old.m1, old.m2, d21),
                                           old.s[0] << (15 - k));
        w.v[k] = L::ext(w.v[k], msg);
        if (D % 2 && k == K - 1) /* the empty lane: a positive magnitude at the minima's start, no effect */
            w.v[k] = (w.v[k] & 0xffffu) | (L::INIT & 0xffff0000u);
        c.push(w.v[k]);
    }
    /* both lanes' accumulators merged, in both lanes */
    const uint32_t o1 = ep_swap(c.min1);
    w.r = {L::vmin(c.min1, o1), L::vmin(L::vmax(c.min1, o1), L::vmin(c.min2, ep_swap(c.min2))), c.parity ^ ep_swap(c.parity)};
}

/* The outgoing magnitudes */
template <class L, int D>
__device__ __forceinline__ void ep_row_mag(ep_work<L, D>& w, const qc_args& a, const uint8_t* tab)
{
    w.ns = {L::magnitude_both(a, tab, w.r.min1), L::magnitude_both(a, tab, w.r.min2), 0u, {0, 0, 0, 0, 0}};
}

/* The second pass: the posteriors and the row's new state stored */
template <class L, int D>
__device__ __forceinline__ void ep_row_out(ep_work<L, D>& w, unsigned char* base, unsigned char* region, uint32_t lane)
{
    constexpr int K = (D + 1) / 2;
    packed_row& ns = w.ns;
    uint32_t arg = pair_none<L>();
    const uint32_t d21n = pair_diff<L>(ns.m1, ns.m2);
#pragma unroll
    for (int k = 0; k < K; k++) {
        const uint32_t neg = (w.r.parity ^ w.v[k]) & L::SIGN, SH = 15 - k;
        const uint32_t hit = pair_hit<L>(L::u(__habs2(L::h(w.v[k]))), w.r.min1);
        arg = L::u(__hfma2(L::h(hit), L::h(ep_pos((uint32_t)k)), L::h(arg)));
        ns.s[0] = SH ? pair_add_shr(ns.s[0], neg, SH) : ns.s[0] | neg;
        const uint32_t post = L::update(w.v[k], 0u, 0u, L::apply_sign(pair_pick<L>(hit, ns.m1, ns.m2, d21n), neg));
        if (2 * k + 1 < D) /* (the high half first: the low one then needs no copy) */
            ep_store_u16(base + w.jv[2 * k + 1], post >> 16);
        ep_store_u16(base + w.jv[2 * k], post);
    }
    ns.arg = L::u(__hadd2(L::h(arg), L::h(ep_swap(arg)))); /* subnormal integers: exact */
    reinterpret_cast<uint2*>(region)[lane] = ep_state_store(ns);
}

template <class L, int D, bool TAB>
__device__ __forceinline__ void ep_row(const qc_args& a, unsigned char* base, const uint8_t* tab, const uint2* ents,
                                       uint32_t lane2, uint32_t nz2, const uint4* st, unsigned char* region,
                                       uint32_t lane)
{
    ep_work<L, D> w;
    ep_row_in<L, D, TAB>(w, base, ents, lane2, nz2, st, lane);
    ep_row_mag<L, D>(w, a, tab);
    ep_row_out<L, D>(w, base, region, lane);
}

/* Two rows of one step (consecutive layers sharing no column, pair_next) in one thread, their
 * phases interleaved: one row's chain of loads and dependent arithmetic waits where the other's
 * runs, which a block of one frame (three warps per scheduler at Z = 384) cannot otherwise
 * hide. The degrees the step compiles for: 5G NR's merged rows (BG1 4 to 6 edges, BG2 3 to 5). */
#define EP_TWO_MIN_DEGREE 3u
#define EP_TWO_MAX_DEGREE 6u
__host__ __device__ constexpr bool ep_two_fits(uint32_t d0, uint32_t d1)
{
    return d0 >= EP_TWO_MIN_DEGREE && d0 <= EP_TWO_MAX_DEGREE && d1 >= EP_TWO_MIN_DEGREE && d1 <= EP_TWO_MAX_DEGREE;
}

/* Where the kernel has two-row steps: edge pairs at int8. At float16 they measured slower (H100,
 * one BG1 R = 1/3 block: 267 us against 262 without; int8 236 against 244), and the layer loop
 * that allows them costs its few instructions per layer where no pair runs. */
template <class L, bool EP> constexpr bool EP_TWO = EP && L::PREC == LDPC_PREC_I8;

/* One side of a two-row step: a layer's pointers (ents: entries or offsets, tab: magnitudes,
 * st: the row's state, region: where its new state goes) */
struct ep_side {
    const uint2* ents;
    const uint8_t* tab;
    const uint4* st;
    unsigned char* region;
};
/* ... of the layer whose table entry is d (pair_layers_build), with its row state at st */
__device__ __forceinline__ ep_side ep_side_at(unsigned char* smem, unsigned char* st0, const uint4& d, const uint4* st)
{
    return {reinterpret_cast<const uint2*>(smem + d.x), smem + ((d.y >> 8) & 0x7fffffu), st, st0 + d.z};
}

template <class L, bool TAB, int D0, int D1>
__device__ __forceinline__ void ep_two(const qc_args& a, unsigned char* base, const ep_side& s0, const ep_side& s1,
                                       uint32_t lane2, uint32_t nz2, uint32_t lane)
{
    ep_work<L, D0> w0;
    ep_work<L, D1> w1;
    ep_row_in<L, D0, TAB>(w0, base, s0.ents, lane2, nz2, s0.st, lane);
    ep_row_in<L, D1, TAB>(w1, base, s1.ents, lane2, nz2, s1.st, lane);
    ep_row_mag<L, D0>(w0, a, s0.tab);
    ep_row_mag<L, D1>(w1, a, s1.tab);
    ep_row_out<L, D0>(w0, base, s0.region, lane);
    ep_row_out<L, D1>(w1, base, s1.region, lane);
}

/* ... for degrees d0 and d1 (ep_two_fits), by binary search on each */
template <class L, bool TAB, int LO0, int HI0, int LO1, int HI1>
__device__ __forceinline__ void ep_two_any(const qc_args& a, unsigned char* base, const ep_side& s0, const ep_side& s1,
                                           uint32_t d0, uint32_t d1, uint32_t lane2, uint32_t nz2, uint32_t lane)
{
    if constexpr (LO0 != HI0) {
        constexpr int MID = (LO0 + HI0) / 2;
        if (d0 <= MID)
            ep_two_any<L, TAB, LO0, MID, LO1, HI1>(a, base, s0, s1, d0, d1, lane2, nz2, lane);
        else
            ep_two_any<L, TAB, MID + 1, HI0, LO1, HI1>(a, base, s0, s1, d0, d1, lane2, nz2, lane);
    } else if constexpr (LO1 != HI1) {
        constexpr int MID = (LO1 + HI1) / 2;
        if (d1 <= MID)
            ep_two_any<L, TAB, LO0, HI0, LO1, MID>(a, base, s0, s1, d0, d1, lane2, nz2, lane);
        else
            ep_two_any<L, TAB, LO0, HI0, MID + 1, HI1>(a, base, s0, s1, d0, d1, lane2, nz2, lane);
    } else {
        ep_two<L, TAB, LO0, LO1>(a, base, s0, s1, lane2, nz2, lane);
    }
}

/* The row code for degree d in [LO, HI], by binary search on d (a few uniform branches per row). */
template <class L, int SV, bool SHORT, bool EP, bool TAB, int LO, int HI, bool MA = false>
__device__ __forceinline__ void lean_pair_row_any(const qc_args& a, unsigned char* base, const uint8_t* tab,
                                                  const uint2* ents, uint32_t d, uint32_t lane4, uint32_t nz4,
                                                  uint32_t live, const uint4* st, unsigned char* region, uint32_t lane)
{
    if constexpr (LO == HI) {
        if constexpr (EP)
            ep_row<L, LO, TAB>(a, base, tab, ents, lane4, nz4, st, region, lane);
        else
            lean_pair_row<L, SV, SHORT, LO, TAB, 0, 0, MA>(a, base, tab, ents, lane4, nz4, live, st, region, lane);
    } else {
        constexpr int MID = (LO + HI) / 2;
        if (d <= MID)
            lean_pair_row_any<L, SV, SHORT, EP, TAB, LO, MID, MA>(a, base, tab, ents, d, lane4, nz4, live, st, region, lane);
        else
            lean_pair_row_any<L, SV, SHORT, EP, TAB, MID + 1, HI, MA>(a, base, tab, ents, d, lane4, nz4, live, st, region,
                                                                  lane);
    }
}

/* The xor of a row's D posteriors (EP: its binary16 halves, else the group's words; entries as
 * the rows read them), whose sign bits are the row's checks. */
template <bool EP, int LO, int HI>
__device__ __forceinline__ uint32_t pair_row_xor(const unsigned char* base, const uint2* ents, uint32_t d, uint32_t lane4,
                                                 uint32_t nz4)
{
    if constexpr (LO == HI) {
        uint32_t x = 0;
#pragma unroll
        for (int t = 0; t < LO; t++) {
            const uint2 e = ents[t];
            const uint32_t u = lane4 + e.y, j = e.x + min(u, u + nz4);
            x ^= EP ? (uint32_t) * reinterpret_cast<const uint16_t*>(base + j) : *reinterpret_cast<const uint32_t*>(base + j);
        }
        return x;
    } else {
        constexpr int MID = (LO + HI) / 2;
        return d <= MID ? pair_row_xor<EP, LO, MID>(base, ents, d, lane4, nz4)
                        : pair_row_xor<EP, MID + 1, HI>(base, ents, d, lane4, nz4);
    }
}

/* This thread's failing checks (qc_syndrome_bad's result) through the layer table, each row's
 * code compiled for its degree: the loop over entries, with a skip test and a table walk per
 * edge, cost half an iteration's instructions on one 5G NR block (Nsight Compute). */
template <bool EP>
__device__ __forceinline__ uint32_t pair_syndrome_bad(const unsigned char* base, const unsigned char* smem,
                                                      const uint4* desc, uint32_t l0, uint32_t l1, uint32_t lane4,
                                                      uint32_t all)
{
    uint32_t bad = 0;
    for (uint32_t l = l0; l < l1 && bad != all; l++) {
        const uint4 dc = desc[l];
        bad |= pair_row_xor<EP, 1, LEAN_MAX_DEGREE>(base, reinterpret_cast<const uint2*>(smem + dc.x), dc.y & 0xffu,
                                                    lane4, dc.w) &
               all;
    }
    return bad;
}

/* ... through the rows' edge offsets (TAB): a compact loop over a row's units, not code per
 * degree. It runs once per check, where code per degree is cold (waits for instructions). Four
 * offsets per unit and two units per trip keep eight loads in flight (a loop of one word, two
 * loads, per trip waited for each word's loads: about 60 cycles per two edges, the final check
 * a tenth of one 5G NR block's time). */
template <bool EP>
__device__ __forceinline__ uint32_t edge_syndrome_bad(const unsigned char* base, const unsigned char* smem, const uint4* desc,
                                                      uint32_t l0, uint32_t l1, uint32_t lane, uint32_t all)
{
    const auto at = [&](uint32_t o) -> uint32_t {
        return EP ? (uint32_t) * reinterpret_cast<const uint16_t*>(base + o) : *reinterpret_cast<const uint32_t*>(base + o);
    };
    uint32_t bad = 0;
    for (uint32_t l = l0; l < l1 && bad != all; l++) {
        const uint4 dc = desc[l];
        const uint32_t d = dc.y & 0xffu, q = d / 4u, r = d % 4u;
        const uint2* w = reinterpret_cast<const uint2*>(smem + dc.x) + lane * edge_units(d);
        uint32_t x0 = 0, x1 = 0;
#pragma unroll 2
        for (uint32_t k = 0; k < q; k++) {
            const uint2 o = w[k];
            x0 ^= at(o.x & 0xffffu) ^ at(o.x >> 16);
            x1 ^= at(o.y & 0xffffu) ^ at(o.y >> 16);
        }
        if (r) { /* the last unit's first r offsets */
            const uint2 o = w[q];
            x0 ^= at(o.x & 0xffffu);
            if (r > 1)
                x1 ^= at(o.x >> 16);
            if (r > 2)
                x0 ^= at(o.y & 0xffffu);
        }
        bad |= (x0 ^ x1) & all;
    }
    return bad;
}

/* Shared-memory bytes of a group's posteriors (after the tables), where the row state follows
 * when it is on chip. */
__host__ __device__ inline size_t pair_post_bytes(uint32_t n) { return ((size_t)n * 4 + 15) & ~(size_t)15; }

/* The layout of the kernels with compiled entries (KZ): packed_layout's regions with the
 * posteriors first, so that an edge's address needs no offset known only at run time (the column
 * block's part is the load's immediate); then the entries, the magnitude table and the row state,
 * which starts where packed_layout's does (the same bytes in another order, so the plan's sizes
 * and its layer table's place hold). */
__device__ __forceinline__ packed_mem pair_layout_app_first(const qc_args& a, unsigned char* smem)
{
    packed_mem m;
    m.base = smem;
    m.app = reinterpret_cast<uint32_t*>(smem);
    packed_tables_at(a, smem + pair_post_bytes(a.n), m);
    return m;
}

/* Bytes of a layer's row state per lane (8 for the short int8 form, else 16 per uint4 of it),
 * and of its region: z lanes rounded to 16 bytes, so that every region's uint4 stay aligned
 * (the plan sums the regions with the same function). */
__host__ __device__ constexpr uint32_t pair_row_bytes_of(uint32_t d, int sv, bool short_form, bool ep)
{
    return ep || (short_form && d <= (uint32_t)PAIR_SHORT_MAX_DEGREE) ? PAIR_SHORT_BYTES : 16u * (sv == 0 ? 1u : (uint32_t)sv);
}
template <class L, int SV, bool SHORT, bool EP = false> __device__ __forceinline__ uint32_t pair_row_bytes(uint32_t d)
{
    return pair_row_bytes_of(d, SV, pair_short<L, SHORT>(d), EP);
}
__host__ __device__ constexpr uint32_t pair_region_bytes(uint32_t row_bytes, uint32_t z) { return (row_bytes * z + 15u) & ~15u; }

/* With compiled entries (KZ, Z = 384): the byte offset of layer `layer`'s row-state region from
 * the group's state, the regions before it summed as pair_layers_build sums them for the layer
 * table (whose z is this plus the state's own offset): a constant of the code, so that a row's
 * state is at the lane's base plus an immediate, with no layer table read. */
template <class L, int SV, bool SHORT, int PROF> __host__ __device__ constexpr uint32_t kz_region_off(int layer)
{
    uint32_t o = 0;
    for (int k = 0; k < layer; k++) {
        const uint32_t d = layer_profile<PROF>::deg[k];
        o += pair_region_bytes(pair_row_bytes_of(d, SV, pair_short<L, SHORT>(d), false), NR_Z384);
    }
    return o;
}

/* Whether the compiled-entry kernels (KZ) also take each layer's row-state region at its
 * constant offset (kz_region_off) rather than from the layer table: at int8 and int8p16, not
 * float16 (not measured). Measured per kernel, not derived: the static count falls by 14 to 21
 * instructions per layer in every one, but the schedule ptxas (CUDA 13.0) makes of it differs.
 * H200, 2026-11-30, 8192 blocks, 10 iterations, A/B in one lease (docs/performance.md,
 * twenty-seventh pass): BG2 R = 0.4 int8p16 40.8 -> 42.3 Gb/s, int8 38.1 -> 39.2; BG1 R = 1/3
 * int8 27.0 -> 28.1; BG1 R = 0.79 unchanged; BG1 R = 1/3 int8p16 (lanes_h2w, the short state in
 * global memory) 30.8 -> 29.7 then, where ptxas sank the next layer's load a third of a long row
 * down, but 34.5-34.7 -> 35.2-35.3 once the rows lost their active test (thirty-third pass). */
template <class L> constexpr bool KZ_REGIONS = L::PREC == LDPC_PREC_I8;

/* An 8-byte row state (the short form, and edge pairs') at p, in a uint4's x and y */
__device__ __forceinline__ uint4 pair_short_get(const uint2* p)
{
    const uint2 w = *p;
    return make_uint4(w.x, w.y, 0u, 0u);
}

/* One lane's row state of a layer (region at byte offset o, degree d) into uint4 registers
 * (the short form in the first's x and y; pair_row_store writes it back). The regions are
 * [uint4 k][lane]. */
template <class L, int SV, bool SHORT, bool EP = false>
__device__ __forceinline__ void pair_state_get(const unsigned char* st, uint32_t o, uint32_t d, uint32_t lane, uint32_t z,
                                               uint4 (&r)[SV == 0 ? 1 : SV])
{
    if (EP || pair_short<L, SHORT>(d)) {
        r[0] = pair_short_get(reinterpret_cast<const uint2*>(st + o) + lane);
    } else {
#pragma unroll
        for (int k = 0; k < (SV == 0 ? 1 : SV); k++)
            r[k] = reinterpret_cast<const uint4*>(st + o)[k * z + lane];
    }
}

/* Row state in global memory (the many-group kernels of long codes): the lane's state two layers
 * ahead (region at byte offset o, degree d) fetched into L2, so that next layer's load of it
 * (pair_state_get, a layer ahead into registers) finds it there and not in DRAM. A layer of short
 * rows is shorter than a DRAM access under load (Nsight Compute: the wait on that load was the
 * kernel's long-scoreboard stall at rate 1/3), and a second layer ahead in registers would not
 * fit two groups per SM (80 of 85 registers used). float16 only (PAIR_PREFETCH): H200, BG1
 * R = 1/3, 8192 blocks, 10 iterations, float16 18.65 -> 21.5-21.6 Gb/s; int8, whose kernel is
 * bound by issue and whose layers are shorter, 23.65 -> 23.05 (the prefetch's eight or so
 * instructions per layer cost more than the wait they save), BG2 and R = 0.79 unchanged. */
template <class L> constexpr bool PAIR_PREFETCH = L::PREC == LDPC_PREC_F16;
template <class L, bool SHORT>
__device__ __forceinline__ void pair_state_prefetch(const unsigned char* st, uint32_t o, uint32_t d, uint32_t lane)
{
    lean_state_prefetch(st + o + (size_t)lane * (pair_short<L, SHORT>(d) ? PAIR_SHORT_BYTES : 16u));
}

/* A layer as the pair kernel walks it, built once per group: x its entries' byte offset in shared
 * memory, y its degree (low 8 bits), the magnitude table's byte offset in shared memory (bits 8
 * to 30) and, for edge pairs, whether it and the next layer run as a pair of rows per thread (bit 31:
 * pair_next, ep_two), z its row state's region (byte offset from st0: shared memory's start when the state is
 * on chip, else the group's state), w -4z (read from memory, so that an edge's wrap compiles to
 * one add-min, VIADDMNMX, not a multiply-add by the folded constant and a min). A layer's step
 * reads them in one uniform uint4 instead of deriving them from the arguments again (the loop's
 * overhead per row was about a quarter of the kernel's instructions at rate 0.79). */
__host__ __device__ inline size_t pair_desc_bytes(uint32_t layers) { return (size_t)layers * 16; }

template <class L, int SV, bool SHORT, bool EP, bool TAB = false>
__device__ __forceinline__ void pair_layers_build(const qc_args& a, const packed_mem& m, const unsigned char* smem,
                                                  uint32_t st0, uint4* desc, uint32_t tid, uint32_t nt)
{
    const uint32_t* ep = m.ent_ptr;
    for (uint32_t l = tid; l < a.layers; l += nt) {
        uint32_t o = st0, t = a.edge_offs;
        for (uint32_t k = 0; k < l; k++) {
            o += pair_region_bytes(pair_row_bytes<L, SV, SHORT, EP>(ep[k + 1] - ep[k]), a.z);
            t += edge_table_bytes(ep[k + 1] - ep[k], a.z);
        }
        const uint32_t two = EP_TWO<L, EP> && a.pair_next && a.pair_next[l] ? 0x80000000u : 0u; /* it and the next: ep_two */
        desc[l] = make_uint4(TAB ? t : (uint32_t)(reinterpret_cast<const unsigned char*>(m.ents + ep[l]) - smem),
                             (ep[l + 1] - ep[l]) | (uint32_t)(m.tab - smem) << 8 | two, o, 0u - a.z * (EP ? 2u : 4u));
    }
}

/* Where edge pairs on a layer profile find a layer's pieces without the layer table: every
 * layer's row-state region has the same size (8 bytes a lane: pair_row_bytes_of), a layer's
 * entries (TAB: its rows' offsets, edge_units per row) follow the layers before it, whose degrees
 * are the profile's, and the magnitude table is the group's. The same sizes and units as
 * pair_layers_build's, summed at compile time over the profile's degrees, which the plan has
 * checked equal the code's (layer_profile_match). Built once per block, so that a
 * step's loads wait on no load of the table and its addresses are the lane's plus a layer's
 * constant times a uniform size (about 7 instructions fewer per layer). H200, each kernel's own
 * duration (ncu), int8p16: one BG1 R = 1/3 block 183.7 -> 178.0 us, R = 0.79 45.6 -> 44.9, BG2
 * 128.9 -> 125.6; int8 R = 0.79 47.9 -> 46.1 (docs/performance.md, thirty-fifth pass). */
struct ep_prof_at {
    unsigned char* state;      /* layer 0's region */
    const unsigned char* ents; /* TAB: layer 0's offsets; else the entries in bytes (m.ents) */
    const uint8_t* tab;        /* the magnitude table */
    uint32_t rs;               /* a region's bytes, as pair_layers_build sums them */
    uint32_t ez8;              /* TAB: a unit's bytes over a layer's rows (edge_unit_bytes) */
    uint32_t nz2;              /* -2z, read from the layer table once (as pair_layers_build writes it) */
};

/* Edge units of profile PROF's layers before `layer` (TAB: where its offsets start, in units of 8z) */
template <int PROF> __host__ __device__ constexpr uint32_t ep_prof_units(int layer)
{
    uint32_t u = 0;
    for (int k = 0; k < layer; k++)
        u += edge_units(layer_profile<PROF>::deg[k]);
    return u;
}

/* Layer l's row state for this lane (l at run time: the step after the last is the first) */
__device__ __forceinline__ uint4 ep_prof_state(const ep_prof_at& p, uint32_t l, uint32_t lane)
{
    return pair_short_get(reinterpret_cast<const uint2*>(p.state + l * p.rs) + lane);
}

/* Layer LAYER's side of a step (ep_side), its state st already loaded */
template <int PROF, bool TAB, int LAYER> __device__ __forceinline__ ep_side ep_prof_side(const ep_prof_at& p, const uint4* st)
{
    const unsigned char* ents = TAB ? p.ents + ep_prof_units<PROF>(LAYER) * p.ez8
                                    : p.ents + (size_t)layer_profile_first_edge<PROF>(LAYER) * sizeof(uint2);
    return {reinterpret_cast<const uint2*>(ents), p.tab, st, p.state + LAYER * p.rs};
}

/* One iteration of edge pairs at int8 on a layer profile (qc_layer_profile.cuh), from layer LAYER
 * to its straight window's end (layer_profile_end) or the code's: each layer's code compiled for
 * its degree and pairing, no search and no loop, and its pieces where ep_prof_at says. next: the
 * layer's row state, prefetched (and left holding the following layer's: the loop's, or the next
 * iteration's first). */
template <class L, bool TAB, int PROF, int LAYER>
__device__ __forceinline__ void prof_steps(const qc_args& a, unsigned char* base, const ep_prof_at& p, uint32_t tid,
                                           uint32_t lane4, bool active, uint4 (&next)[1])
{
    using P = layer_profile<PROF>;
    if constexpr (LAYER < layer_profile_end<PROF>()) {
        if (LAYER >= a.layers)
            return;
        constexpr bool PAIR = P::pair(LAYER); /* (no pair cut: the plan by a.layers, layer_profile_end) */
        constexpr int D0 = P::deg[LAYER];
        if constexpr (PAIR) {
            constexpr int D1 = P::deg[LAYER + 1];
            if (active) {
                uint4 c1[1];
                const uint4 c0 = next[0];
                c1[0] = ep_prof_state(p, LAYER + 1, tid);
                next[0] = ep_prof_state(p, LAYER + 2 < a.layers ? LAYER + 2 : 0, tid);
                const ep_side s0 = ep_prof_side<PROF, TAB, LAYER>(p, &c0), s1 = ep_prof_side<PROF, TAB, LAYER + 1>(p, c1);
                ep_two<L, TAB, D0, D1>(a, base, s0, s1, lane4, p.nz2, tid);
            }
        } else {
            if (active) {
                const uint4 c0 = next[0];
                next[0] = ep_prof_state(p, LAYER + 1 < a.layers ? LAYER + 1 : 0, tid);
                const ep_side s = ep_prof_side<PROF, TAB, LAYER>(p, &c0);
                ep_row<L, D0, TAB>(a, base, s.tab, s.ents, lane4, p.nz2, s.st, s.region, tid);
            }
        }
        __syncthreads();
        prof_steps<L, TAB, PROF, PAIR ? LAYER + 2 : LAYER + 1>(a, base, p, tid, lane4, active, next);
    }
}

/* Layers l0 to l1 - 1 of edge pairs at int8, in the loop: a step is one layer, or two orthogonal
 * ones as a pair of rows per thread (desc bit 31, ep_two; no pair crosses l1). next: layer l0's
 * row state on entry, the following layer's (l1, or the first) on exit (edge pairs keep a row's
 * state in the compact form: SV 0, not SHORT). */
template <class L, bool TAB, int DMAX>
__device__ __forceinline__ void ep_two_steps(const qc_args& a, unsigned char* base, unsigned char* smem, const uint4* desc,
                                             unsigned char* st0, uint32_t tid, uint32_t lane4, bool active, uint32_t live,
                                             uint32_t l0, uint32_t l1, uint4 (&next)[1])
{
    uint4 dc = desc[l0];
    for (uint32_t l = l0; l < l1;) {
        uint4 dn = desc[l + 1 < a.layers ? l + 1 : 0];
        if ((dc.y >> 31) && l + 1 < a.layers && ep_two_fits(dc.y & 0xffu, dn.y & 0xffu)) {
            const uint4 d1 = dn;
            dn = desc[l + 2 < a.layers ? l + 2 : 0];
            if (active) {
                uint4 c1[1];
                const uint4 c0 = next[0];
                pair_state_get<L, 0, false, true>(st0, d1.z, d1.y & 0xffu, tid, a.z, c1);
                pair_state_get<L, 0, false, true>(st0, dn.z, dn.y & 0xffu, tid, a.z, next);
                const ep_side s0 = ep_side_at(smem, st0, dc, &c0), s1 = ep_side_at(smem, st0, d1, c1);
                ep_two_any<L, TAB, (int)EP_TWO_MIN_DEGREE, (int)EP_TWO_MAX_DEGREE, (int)EP_TWO_MIN_DEGREE,
                           (int)EP_TWO_MAX_DEGREE>(a, base, s0, s1, dc.y & 0xffu, d1.y & 0xffu, lane4, dc.w, tid);
            }
            l += 2;
        } else {
            if (active) {
                const uint4 c0 = next[0];
                pair_state_get<L, 0, false, true>(st0, dn.z, dn.y & 0xffu, tid, a.z, next);
                const ep_side s = ep_side_at(smem, st0, dc, &c0);
                lean_pair_row_any<L, 0, false, true, TAB, 1, DMAX>(a, base, s.tab, s.ents, dc.y & 0xffu, lane4, dc.w, live,
                                                                  s.st, s.region, tid);
            }
            l++;
        }
        dc = dn;
        __syncthreads();
    }
}

/* Layers l0 to a.layers - 1 of a layer profile's pair rows after its window, where those layers
 * are all in the short form (pair_short; degrees DMIN to DMAX) and the first layer, which follows
 * the last, has degree D0. Short regions all have the same size, so a step walks the state by a
 * pointer to this lane's state in its layer's region, advanced by that size (a constant at KZ,
 * Z = 384: the next layer's load then takes it as the load's immediate offset), and reads only
 * the layer's entries and degree from the layer table. The next layer's state is one 8-byte load
 * with no test of its form, and the first layer's, whose form D0 gives, loads after the loop
 * (pair_steps had both forms' loads under predicates and two 64-bit address computations per
 * step: H200, 8192 BG1 R = 1/3 blocks, int8p16 30.7 -> 31.8 Gb/s, int8 28.0 -> 30.5;
 * docs/performance.md, thirtieth pass). Walking by pointer instead of by the table's regions and
 * next entry (a step's 64-bit addresses rebuilt, the entry rotated through registers): about 30
 * instructions before the row's code and 5 after it became 12 and 4 (with KZ's rows run without
 * the active test; H200, 8192 BG1 R = 1/3 blocks, int8p16 31.8 -> 34.6 Gb/s; thirty-third
 * pass). KZ: -4z is a constant too. */
template <class L, int SV, bool SHORT, bool KZ, int DMIN, int DMAX, int D0>
__device__ __forceinline__ void pair_short_steps(const qc_args& a, unsigned char* base, unsigned char* smem,
                                                 const uint4* desc, unsigned char* st0, uint32_t tid, uint32_t lane4,
                                                 bool active, uint32_t live, uint32_t l0,
                                                 uint4 (&next)[SV == 0 ? 1 : SV])
{
    static_assert(pair_short<L, SHORT>((uint32_t)DMAX), "the loop's rows all short (a short row's code is the same for every SV)");
    const uint32_t rs = pair_region_bytes(PAIR_SHORT_BYTES, KZ ? NR_Z384 : a.z); /* a short layer's region */
    unsigned char* sp = st0 + desc[l0].z + (size_t)tid * PAIR_SHORT_BYTES; /* this lane's state in layer l's region */
    const uint32_t nz4 = KZ ? 0u - 4u * NR_Z384 : desc[0].w;
    for (uint32_t l = l0; l < a.layers; l++) {
        const uint2 dc = *reinterpret_cast<const uint2*>(desc + l); /* its entries and degree */
        if (active) {
            const uint4 cur = next[0];
            if (l + 1 < a.layers)
                next[0] = pair_short_get(reinterpret_cast<const uint2*>(sp + rs));
            lean_pair_row_any<L, SV, SHORT, false, false, DMIN, DMAX, KZ>(a, base, smem + (dc.y >> 8),
                                                                    reinterpret_cast<const uint2*>(smem + dc.x),
                                                                    dc.y & 0xffu, lane4, nz4, live, &cur, sp, 0u);
        }
        sp += rs;
        __syncthreads();
    }
    if (active) /* the first layer's state, for the next iteration */
        pair_state_get<L, SV, SHORT>(st0, desc[0].z, (uint32_t)D0, tid, a.z, next);
}

/* Layers l0 to l1 - 1 of the pair rows (not edge pairs' two-row steps) in the loop, each row's
 * code found by its degree (lean_pair_row_any). next: layer l0's row state on entry, the
 * following layer's (l1, or the first) on exit. */
template <class L, int SV, bool SHORT, bool EP, bool SSMEM, bool TAB, int DMAX, bool MA = false>
__device__ __forceinline__ void pair_steps(const qc_args& a, unsigned char* base, unsigned char* smem, const uint4* desc,
                                           unsigned char* st0, uint32_t tid, uint32_t lane4, bool active, uint32_t live,
                                           uint32_t l0, uint32_t l1, uint4 (&next)[SV == 0 ? 1 : SV])
{
    constexpr int SW = SV == 0 ? 1 : SV;
    uint4 dc = desc[l0];
    for (uint32_t l = l0; l < l1; l++) {
        const uint4 dn = desc[l + 1 < a.layers ? l + 1 : 0];
        if (active) {
            uint4 cur[SW];
#pragma unroll
            for (int k = 0; k < SW; k++)
                cur[k] = next[k];
            pair_state_get<L, SV, SHORT, EP>(st0, dn.z, dn.y & 0xffu, tid, a.z, next);
            if constexpr (!SSMEM && SV == 0 && PAIR_PREFETCH<L>) { /* (l + 2 wraps to 0 or 1) */
                const uint32_t l2 = l + 2 < a.layers ? l + 2 : l + 2 - a.layers;
                const uint4 d2 = desc[l2];
                pair_state_prefetch<L, SHORT>(st0, d2.z, d2.y & 0xffu, tid);
            }
            lean_pair_row_any<L, SV, SHORT, EP, TAB, 1, DMAX, MA>(a, base, smem + (dc.y >> 8),
                                                              reinterpret_cast<const uint2*>(smem + dc.x), dc.y & 0xffu,
                                                              lane4, dc.w, live, cur, st0 + dc.z, tid);
        }
        dc = dn;
        __syncthreads();
    }
}

/* One iteration of the pair rows on a layer profile, from layer LAYER to the window's end
 * (row_profile_end) or the code's: each layer's row code, and the form of the next layer's
 * state, compiled for its degree; no search and no loop (at rate 0.79 the loop's search and
 * table walk were about a tenth of a row's instructions). next as in pair_steps. */
template <class L, int SV, bool SHORT, bool SSMEM, bool TAB, int PROF, int LAYER, bool KZ>
__device__ __forceinline__ void pair_prof_steps(const qc_args& a, unsigned char* base, unsigned char* smem,
                                                const uint4* desc, unsigned char* st0, unsigned char* state,
                                                uint32_t tid, uint32_t lane4, bool active, uint32_t live,
                                                uint4 (&next)[SV == 0 ? 1 : SV])
{
    using P = layer_profile<PROF>;
    constexpr int SW = SV == 0 ? 1 : SV;
    if constexpr (LAYER < row_profile_end<PROF>()) {
        /* R: the regions at their constant offsets from the group's state (KZ_REGIONS), so no
         * layer table read (the entries and -4z are constants too; the magnitudes need no table:
         * row_magnitudes with MA, lanes_f16's own); else the layer table's */
        constexpr bool R = KZ && KZ_REGIONS<L>;
        if (LAYER >= a.layers)
            return;
        constexpr int D = P::deg[LAYER];
        const bool last = LAYER + 1 >= a.layers; /* the next layer is the first */
        uint4 dc = {}, dn = {};
        if constexpr (!R) {
            dc = desc[LAYER];
            dn = desc[last ? 0 : LAYER + 1];
        }
        if (active) {
            uint4 cur[SW];
#pragma unroll
            for (int k = 0; k < SW; k++)
                cur[k] = next[k];
            constexpr uint32_t DN = LAYER + 1 < P::layers ? P::deg[LAYER + 1] : P::deg[0], D0 = P::deg[0];
            const unsigned char* sb = R ? state : st0;
            const uint32_t zz = R ? NR_Z384 : a.z;
            if (!last)
                pair_state_get<L, SV, SHORT>(sb, R ? kz_region_off<L, SV, SHORT, PROF>(LAYER + 1) : dn.z, DN, tid, zz, next);
            else
                pair_state_get<L, SV, SHORT>(sb, R ? 0u : dn.z, D0, tid, zz, next);
            if constexpr (!SSMEM && SV == 0 && PAIR_PREFETCH<L>) {
                const uint32_t l2 = LAYER + 2 < a.layers ? LAYER + 2 : LAYER + 2 - a.layers;
                const uint4 d2 = desc[l2];
                pair_state_prefetch<L, SHORT>(st0, d2.z, d2.y & 0xffu, tid);
            }
            if constexpr (R)
                lean_pair_row<L, SV, SHORT, D, TAB, PROF, layer_profile_first_edge<PROF>(LAYER)>(
                    a, base, nullptr, nullptr, lane4, 0u, live, cur, state + kz_region_off<L, SV, SHORT, PROF>(LAYER), tid);
            else
                lean_pair_row<L, SV, SHORT, D, TAB, KZ ? PROF : 0, layer_profile_first_edge<PROF>(LAYER)>(
                    a, base, smem + (dc.y >> 8), reinterpret_cast<const uint2*>(smem + dc.x), lane4, dc.w, live, cur,
                    st0 + dc.z, tid);
        }
        __syncthreads();
        pair_prof_steps<L, SV, SHORT, SSMEM, TAB, PROF, LAYER + 1, KZ>(a, base, smem, desc, st0, state, tid, lane4, active,
                                                                       live, next);
    }
}

/* One group of L::FR frames per block, one thread per row of a layer; the row state (SV uint4 per
 * row, 0: one in the compact form; SHORT: 8 bytes for int8 rows of at most 11 edges) on chip
 * (SSMEM, where two groups per SM still fit) or in global memory (a.pair_state_bytes per group),
 * the next layer's loaded before this layer's barrier. MINB: blocks per SM the registers must
 * allow (2; 1 for chunks of one group per SM at most). At least two layers (the plan).
 * EP (the latency plan at int8 and float16): one frame per block, a row's edges two by two in
 * a thread's lanes (ep_row), the posteriors one binary16 per position (one_at), the row state
 * on chip in 8 bytes. SRC: the soft bits' source compiled in (with_soft; the edge pairs' builds,
 * one per source), or 0: the chunk's, chosen as it loads. */
template <class L, int SV, bool GPOST, bool SSMEM, bool SHORT, int MINB, bool EP = false, bool TAB = false, int PROF = 0,
          bool KZ = false, int SRC = 0>
__global__ void __launch_bounds__(PACKED_MAX_THREADS, MINB) k_qc_lean_pair(qc_args a)
{
    static_assert(!PROF || (EP ? EP_TWO<L, EP> && SV == 0 && !SHORT : L::FR == 2),
                  "layer profiles: edge pairs at int8, or the pair rows");
    static_assert(!EP || (L::FR == 2 && SSMEM && !GPOST && SV == 0 && !SHORT),
                  "a frame's edges in 16-bit lanes, its state on chip in the compact form");
    static_assert(!TAB || (SSMEM && !GPOST), "edge offsets after the layer table, the posteriors on chip");
    static_assert(!(GPOST && SSMEM), "row state on chip follows the posteriors on chip");
    static_assert(!SRC || EP, "a source compiled in: the edge pairs' builds");
    static_assert(!KZ || (PROF && !EP && !TAB && !GPOST), "entries compiled (Z = 384): the pair rows on a profile, "
                                                         "posteriors on chip, no edge offsets");
    extern __shared__ __align__(16) unsigned char smem[];
    __shared__ uint32_t s_flags[3];
    const uint32_t g = blockIdx.x, tid = threadIdx.x, nt = blockDim.x;
    constexpr int SW = SV == 0 ? 1 : SV; /* uint4 per row */
    const packed_mem m = KZ ? pair_layout_app_first(a, smem) : packed_layout<GPOST>(a, smem, g);
    unsigned char* state = !SSMEM ? reinterpret_cast<unsigned char*>(a.gstate) + (size_t)g * a.pair_state_bytes
                           : KZ   ? m.tab + PACKED_TABLE_BYTES
                                  : reinterpret_cast<unsigned char*>(m.app) + pair_post_bytes(EP ? (a.n + 1) / 2 : a.n);
    unsigned char* st0 = SSMEM ? smem : state; /* what the layer table's regions count from */
    uint4* desc = reinterpret_cast<uint4*>(smem + a.pair_desc);
    if constexpr (TAB) /* the rows' edge offsets, in the background */
        for (uint32_t i = tid; i < a.edge_tab_chunks; i += nt)
            copy16_async(smem + a.edge_offs + 16u * i, a.edge_tab + i);
    const uint32_t f0 = EP ? g : g * L::FR, nf = EP ? 1u : min(L::FR, a.nframes - f0);
    const uint32_t has_info = packed_group_load<L, EP, EP || MINB == 1, SRC>(a, m, reinterpret_cast<uint4*>(state), a.pair_state_bytes / 16u,
                                                       f0, nf, s_flags, tid, nt);
    /* The entries in bytes from base (one multiply and add per edge fewer): column blocks with
     * the posteriors' offset, shifts times 4 (EP: 2, a position's bytes; below 2^16, plan:
     * z < 2^14, so no skip bits). */
    constexpr uint32_t UNIT = EP ? 2u : 4u;
    const uint32_t app_off = (uint32_t)(reinterpret_cast<unsigned char*>(m.app) - m.base);
    for (uint32_t t = tid; t < a.entries; t += nt) {
        const uint2 e = m.ents[t];
        m.ents[t] = make_uint2(app_off + e.x * UNIT, e.y * UNIT);
    }
    pair_layers_build<L, SV, SHORT, EP, TAB>(a, m, smem, (uint32_t)(state - st0), desc, tid, nt);
    if constexpr (TAB) /* the edge offsets, copied while the channel loaded */
        copy_async_wait();
    __syncthreads(); /* (the edge offsets count from m.base, as the entries in bytes do) */
    /* KZ: one thread per row, Z = 384 of them (the plan: qc_pair_kz), so no test and no branch
     * around each layer's row */
    const bool active = KZ || tid < a.z;
    /* the longest row one sign word per lane holds, or LEAN_MAX_DEGREE with more */
    constexpr int DMAX = EP || SV != 1 || (int)L::BITS >= LEAN_MAX_DEGREE ? LEAN_MAX_DEGREE : (int)L::BITS;
    static_assert(!EP || DMAX <= EP_MAX_DEGREE, "EP rows");
    const uint32_t lane4 = tid * UNIT;
    uint32_t live = EP ? 0xffffffffu : packed_frames_mask<L>(nf), ok = 0, sflag = 1;

    uint4 next[SW];
    if (active) {
        const uint4 d0 = desc[0];
        pair_state_get<L, SV, SHORT, EP>(st0, d0.z, d0.y & 0xffu, tid, a.z, next);
    }
    int it = 0, iters[L::FR] = {};
    while (it < a.max_iterations) {
        if constexpr (EP && PROF != 0) {
            constexpr uint32_t H = (uint32_t)layer_profile_head<PROF>(), E = (uint32_t)layer_profile_end<PROF>();
            if constexpr (H > 0) /* the layers before the straight window */
                ep_two_steps<L, TAB, DMAX>(a, m.base, smem, desc, st0, tid, lane4, active, live, 0u,
                                                          min(H, a.layers), next);
            const ep_prof_at pa = {state, TAB ? smem + a.edge_offs : reinterpret_cast<const unsigned char*>(m.ents), m.tab,
                                   pair_region_bytes(pair_row_bytes_of(0u, 0, false, true), a.z), edge_unit_bytes(a.z),
                                   desc[0].w};
            prof_steps<L, TAB, PROF, (int)H>(a, m.base, pa, tid, lane4, active, next);
            /* ... and after it, compiled only where the window ends before the profile does (at
             * LAYER_PROFILE_MAX_EDGES 320 both profiles are whole, and the plan takes a profile
             * for a prefix of the code's layers, so no code has layers past E) */
            if constexpr (E < (uint32_t)layer_profile<PROF>::layers)
                if (__builtin_expect(a.layers > E, 0)) /* out of line: the code after the window stays
                                                          in the instruction cache */
                    ep_two_steps<L, TAB, DMAX>(a, m.base, smem, desc, st0, tid, lane4, active, live, E,
                                                              a.layers, next);
        } else if constexpr (EP_TWO<L, EP>) {
            ep_two_steps<L, TAB, DMAX>(a, m.base, smem, desc, st0, tid, lane4, active, live, 0u, a.layers,
                                                      next);
        } else if constexpr (PROF != 0) { /* the pair rows on a profile: its window straight, the rest in the loop */
            constexpr uint32_t E = (uint32_t)row_profile_end<PROF>();
            pair_prof_steps<L, SV, SHORT, SSMEM, TAB, PROF, 0, KZ>(a, m.base, smem, desc, st0, state, tid, lane4, active,
                                                                   live, next);
            /* the loop's degrees: the profile's after the window (the plan took the profile for a
             * prefix of it), all in the short form where they are at most PAIR_SHORT_MAX_DEGREE */
            constexpr int LO = row_profile_loop_degree<PROF>(false), HI = row_profile_loop_degree<PROF>(true);
            constexpr bool LOOP_SHORT = HI > 0 && pair_short<L, SHORT>((uint32_t)HI);
            static_assert(!LOOP_SHORT || HI <= DMAX, "a short row within the rows' degree limit");
            if (__builtin_expect(a.layers > E, 0)) {
                if constexpr (LOOP_SHORT)
                    pair_short_steps<L, SV, SHORT, KZ, LO, HI, layer_profile<PROF>::deg[0]>(
                        a, m.base, smem, desc, st0, tid, lane4, active, live, E, next);
                else
                    pair_steps<L, SV, SHORT, EP, SSMEM, TAB, DMAX, KZ>(a, m.base, smem, desc, st0, tid, lane4, active, live,
                                                                   E, a.layers, next);
            }
        } else {
            pair_steps<L, SV, SHORT, EP, SSMEM, TAB, DMAX>(a, m.base, smem, desc, st0, tid, lane4, active, live, 0u,
                                                           a.layers, next);
        }
        if (qc_check_due(a, ++it)) {
            const uint32_t all = EP ? 0x8000u : live & L::SIGN;
            constexpr bool SETTLE = EP || MINB == 1; /* registers to spare (first_layer_first) */
            const uint32_t bad = first_layer_first<L, SETTLE>(all, a.layers, [&](uint32_t l0, uint32_t l1) -> uint32_t {
                if (!active)
                    return 0u;
                return TAB ? edge_syndrome_bad<EP>(m.base, smem, desc, l0, l1, tid, all)
                           : pair_syndrome_bad<EP>(m.base, smem, desc, l0, l1, lane4, all);
            });
            if (packed_group_settle<L, EP, SETTLE>(a, it, bad, &live, &ok, iters, s_flags, &sflag, tid))
                break;
        }
    }
    packed_group_store<L, EP>(a, m, f0, nf, ok, has_info, iters, tid, nt);
}

} // namespace

#endif
