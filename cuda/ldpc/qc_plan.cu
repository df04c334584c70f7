/* The QC layered plan: layered min-sum (and SPA) for codes with a QC layer view
 * (code_internal.h): 5G NR, WiMAX, Wi-Fi, QC files and DVB-S2. It chooses among the kernel
 * families (qc_plan.cuh) by code, precision and chunk size, builds their tables and launches
 * them. Every kernel keeps each row's check messages compressed (two magnitudes, the position of
 * the first, the signs) and derives each edge's variable from the layer's (block column, shift)
 * entries; storage precision float32, float16 or int8 (gpufec_precision); results equal the
 * CPU's layered decoder at the same precision. */
#include "cuda_tuning.h"
#include "ldpc_i8_mag.h"
#include "pos_run.h"
#include "qc_lean_pair_kernel.cuh"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

namespace {

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

/* The packed kernels' magnitude tables: ms_magnitude of 0..127 at int8 in a byte, then as
 * binary16 bits (the rule's own function) */
void packed_mag_table(const ldpc_opts* lo, uint8_t* tab)
{
    const float off = ldpc_rule_offset(lo);
    for (uint32_t m = 0; m < 128; m++) {
        const uint32_t q = (uint32_t)ms_magnitude((float)m, ldpc_rule_mode(lo), lo->normalization, off, LDPC_PREC_I8);
        const uint16_t hb = (uint16_t)lanes_h2::half_bits(q);
        tab[m] = (uint8_t)q;
        memcpy(tab + 128 + 2 * m, &hb, 2);
    }
}

/* Words per row for a precision and a maximum row degree (int8 in 1 word: degree <= 14;
 * float16 in 2 words: degree <= 27). */
int state_words(int prec, uint32_t maxd)
{
    return prec == LDPC_PREC_I8 ? (maxd <= 14 ? 1 : 2) : prec == LDPC_PREC_F16 ? (maxd <= 27 ? 2 : 4) : 4;
}

/* The pair kernel's row state per group: the layers' regions, each of z rows in the kernel's
 * own row bytes (pair_row_bytes_of). */
size_t pair_state_sum(const ldpc_code* c, uint32_t z, int sv, bool short_form, bool ep)
{
    size_t bytes = 0;
    for (uint32_t l = 0; l < c->qv_layers; l++)
        bytes += pair_region_bytes(pair_row_bytes_of(c->qv_ent_ptr[l + 1] - c->qv_ent_ptr[l], sv, short_form, ep), z);
    return bytes;
}

/* The pair kernel on the plan's layer profile, by its precision, or NULL */
qc_kernel_fn pick_pair_prof_of(const qc_plan* p, bool one)
{
    return p->prec == LDPC_PREC_F16 ? qc_pick_pair_f16_prof(p, one)
           : p->i8p16               ? qc_pick_pair_h2w_prof(p, one)
                                    : qc_pick_pair_h2_prof(p, one);
}

/* The pair kernel of the plan's lane policy. */
qc_kernel_fn pick_pair(const qc_plan* p, qc_pair_use use)
{
    if (use != QC_PAIR_EDGES && p->pair_prof)
        if (qc_kernel_fn k = pick_pair_prof_of(p, use == QC_PAIR_ONE_WAVE))
            return k;
    return p->prec == LDPC_PREC_F16 ? qc_pick_pair_f16(p, use)
           : p->i8p16               ? qc_pick_pair_h2w(p, use)
           : p->packed == 2         ? qc_pick_pair_h2(p, use)
                                    : qc_pick_pair_b4(p);
}

qc_kernel_fn pick_kernel(const qc_plan* p)
{
    if (p->lean_tp)
        return qc_pick_lean(p, 2, 1, p->ssmem != 0);
    if (p->packed)
        return p->lean_pair ? pick_pair(p, QC_PAIR_MANY) : qc_pick_packed(p);
    return qc_pick_one_frame(p, 1, p->wide ? 20 : 8, p->ssmem != 0);
}

qc_kernel_fn pick_latency(const qc_plan* p)
{
    if (p->lat_lean)
        return qc_pick_lean(p, 1, p->lat_split, p->lat_ssmem != 0);
    return qc_pick_one_frame(p, p->lat_split, 20, p->lat_ssmem != 0);
}

template <typename T> cudaError_t upload(void** slot, const T* src, size_t count)
{
    cudaError_t e = cudaMalloc(slot, (count ? count : 1) * sizeof(T));
    if (e == cudaSuccess && count)
        e = cudaMemcpy(*slot, src, count * sizeof(T), cudaMemcpyHostToDevice);
    return e;
}

/* The pair kernel's rows' edge offsets (edge_units; the kernel copies them to shared memory):
 * layer by layer, lane by lane, word k of a row holding its edges 2k and 2k + 1 as byte offsets
 * of their posteriors in shared memory (position p at base + unit * p: base where the posteriors
 * start, unit 2 for edge pairs' binary16, 4 for two frames per word), 0 where a row has no such
 * edge. Uploaded to *slot; the bytes (a multiple of 16) in *bytes. Where they would not fit in
 * `room` bytes, or an offset in 16 bits, *bytes is 0. */
cudaError_t edge_table_make(const ldpc_code* c, const uint2* ents, uint32_t z, uint32_t base, uint32_t unit, size_t room,
                            void** slot, size_t* bytes)
{
    size_t tb = 0;
    for (uint32_t l = 0; l < c->qv_layers; l++)
        tb += edge_table_bytes(c->qv_ent_ptr[l + 1] - c->qv_ent_ptr[l], z);
    tb = (tb + 15) & ~(size_t)15;
    *bytes = 0;
    if (tb > room || base + (size_t)c->n * unit > 0xffff)
        return cudaSuccess;
    uint32_t* host = (uint32_t*)calloc(tb / 4, 4);
    if (!host)
        return cudaErrorMemoryAllocation;
    uint32_t* out = host;
    for (uint32_t l = 0; l < c->qv_layers; l++) {
        const uint32_t e0 = c->qv_ent_ptr[l], d = c->qv_ent_ptr[l + 1] - e0, words = 2u * edge_units(d);
        for (uint32_t r = 0; r < z; r++, out += words)
            for (uint32_t k = 0; k < words; k++)
                for (uint32_t h = 0; h < 2u && 2u * k + h < d; h++) {
                    const uint2 e = ents[e0 + 2u * k + h];
                    out[k] |= (base + unit * (e.x + (r + (e.y & 0xffffu)) % z)) << (16u * h);
                }
    }
    const cudaError_t err = upload(slot, (const uint4*)host, tb / 16);
    free(host);
    if (err == cudaSuccess)
        *bytes = tb;
    return err;
}

/* Pairs of layers that edge pairs run two rows per thread (pair_next, ep_two): consecutive
 * layers that share no column, neither already in a pair, both of degrees ep_two compiles. Neither
 * row reads what the other writes, so one step for both gives the layered rule's result, bit for
 * bit. 5G NR's later rows are orthogonal in pairs: BG1 14 pairs of its 46 layers, BG2 13 of 42
 * (docs/performance.md, ninth and tenth passes). *pairs: how many. */
cudaError_t pair_next_make(const ldpc_code* c, void** slot, uint32_t* pairs, uint8_t* host)
{
    uint8_t* next = (uint8_t*)calloc(c->qv_layers ? c->qv_layers : 1, 1);
    uint8_t* used = (uint8_t*)calloc(c->n ? c->n : 1, 1); /* the columns of the layer before */
    *pairs = 0;
    if (!next || !used) {
        free(next);
        free(used);
        return cudaErrorMemoryAllocation;
    }
    for (uint32_t l = 0; l + 1 < c->qv_layers; l++) {
        const uint32_t* ep = c->qv_ent_ptr;
        if (!ep_two_fits(ep[l + 1] - ep[l], ep[l + 2] - ep[l + 1]))
            continue;
        int clash = 0;
        for (uint32_t e = ep[l]; e < ep[l + 1]; e++)
            used[c->qv_col[e]] = 1;
        for (uint32_t e = ep[l + 1]; e < ep[l + 2]; e++)
            clash |= used[c->qv_col[e]];
        for (uint32_t e = ep[l]; e < ep[l + 1]; e++)
            used[c->qv_col[e]] = 0;
        if (!clash) {
            next[l++] = 1; /* (the next layer is this pair's second) */
            (*pairs)++;
        }
    }
    const cudaError_t err = upload(slot, next, c->qv_layers);
    if (host) /* (qv_layers bytes) */
        memcpy(host, next, c->qv_layers);
    free(next);
    free(used);
    return err;
}

/* Appends to the plan's description (cut at its size, always terminated). */
void describe_add(qc_plan* p, const char* fmt, ...)
{
    const size_t len = strlen(p->describe);
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(p->describe + len, sizeof p->describe - len, fmt, ap);
    va_end(ap);
}

/* The layer profile (qc_layer_profile.cuh) whose compiled code fits the code's layers and pairs
 * (pair: pair_next's flags, NULL for none), or 0 */
int layer_profile_of(const ldpc_code* c, const uint8_t* pair, bool rows_only = false)
{
    uint32_t* deg = (uint32_t*)malloc((c->qv_layers ? c->qv_layers : 1) * sizeof *deg);
    int prof = 0;
    if (!deg)
        return 0;
    for (uint32_t l = 0; l < c->qv_layers; l++)
        deg[l] = c->qv_ent_ptr[l + 1] - c->qv_ent_ptr[l];
    static_assert(LAYER_PROFILES == 2, "each profile tried");
    if (layer_profile_match<1>(c->qv_layers, deg, pair, rows_only))
        prof = 1;
    else if (layer_profile_match<2>(c->qv_layers, deg, pair, rows_only))
        prof = 2;
    free(deg);
    return prof;
}

/* Whether the code's entries in profile P's window of the pair rows (row_profile_end) are the base
 * graph's at Z = 384 as qc_nr_z384.cuh compiles them: column, shift and no skipped lane, entry
 * for entry (the kernel then reads none of them) */
template <int P> bool z384_entries_match(const ldpc_code* c)
{
    using E = nr_z384_entries<P>;
    const uint32_t end = c->qv_layers < (uint32_t)row_profile_end<P>() ? c->qv_layers : (uint32_t)row_profile_end<P>();
    const uint32_t e1 = c->qv_ent_ptr[end]; /* (the layers' degrees are the profile's: pair_prof) */
    if (c->qv_z != NR_Z384 || e1 > sizeof E::col / sizeof E::col[0])
        return false;
    for (uint32_t t = 0; t < e1; t++)
        if (c->qv_col[t] != E::col[t] || c->qv_shift[t] != E::shift[t] || c->qv_skip[t] != -1)
            return false;
    return true;
}

/* Profile prof's straight window (its head and end layers) and its base graph's name, as the
 * describe reports them; rows: the pair and lean rows' window (row_profile_end), else edge pairs' */
struct profile_window {
    int head, end;
    const char* name;
};
profile_window layer_profile_window(int prof, bool rows = false)
{
    static_assert(LAYER_PROFILES == 2, "each profile named");
    if (rows)
        return prof == 1 ? profile_window{0, row_profile_end<1>(), "5G NR BG1"}
                         : profile_window{0, row_profile_end<2>(), "5G NR BG2"};
    return prof == 1 ? profile_window{layer_profile_head<1>(), layer_profile_end<1>(), "5G NR BG1"}
                     : profile_window{layer_profile_head<2>(), layer_profile_end<2>(), "5G NR BG2"};
}

/* The describe's words for a profile's window on a code of `layers` layers (rows: the pair or
 * lean rows', worded apart from edge pairs', which the tests tell apart) */
void describe_profile(qc_plan* p, const char* lead, int prof, bool rows, uint32_t layers)
{
    const profile_window w = layer_profile_window(prof, rows);
    const uint32_t h = (uint32_t)w.head, e = (uint32_t)w.end;
    if (h == 0 && layers <= e)
        describe_add(p, rows ? "%slayers compiled for %s" : "%seach layer compiled (%s)", lead, w.name);
    else if (h < layers)
        describe_add(p, rows ? "%slayers %u-%u compiled for %s, the others in the loop"
                             : "%slayers %u-%u compiled (%s), the others in the loop",
                     lead, h + 1, layers < e ? layers : e, w.name);
}

/* A kernel's rows' edge offsets (edge_table_make, uploaded to *slot) after its *smem bytes of
 * shared memory, where they fit in `optin` bytes: then *a gains their place, *smem their bytes
 * and *on is 1; else nothing changes. */
cudaError_t edge_table_attach(const ldpc_code* c, const uint2* ents, uint32_t z, uint32_t base, uint32_t unit,
                              size_t optin, void** slot, qc_args* a, size_t* smem, int* on)
{
    const size_t offs = (*smem + 15) & ~(size_t)15;
    size_t tb = 0;
    if (offs >= optin)
        return cudaSuccess;
    const cudaError_t err = edge_table_make(c, ents, z, base, unit, optin - offs, slot, &tb);
    if (err == cudaSuccess && tb) {
        a->edge_offs = (uint32_t)offs;
        a->edge_tab = (const uint4*)*slot;
        a->edge_tab_chunks = (uint32_t)(tb / 16);
        *smem = offs + tb;
        *on = 1;
    }
    return err;
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

/* The kernel a chunk of nf frames runs. */
enum qc_use { EDGES, LATENCY, LEAN, ONE_WAVE, MANY };
qc_use qc_use_of(const qc_plan* p, uint32_t nf, bool head)
{
    if (!head && nf <= p->lat_frames) /* a split call's head: groups of two frames (qc_head_frames) */
        return p->ep ? EDGES : LATENCY;
    if (!head && nf < p->lean_small_frames)
        return LEAN;
    return qc_units(p, nf) <= p->pair_one_wave ? ONE_WAVE : MANY;
}

cudaError_t qc_launch(const void* plan, const engine_chunk* ch, cudaStream_t stream)
{
    const qc_plan* p = (const qc_plan*)plan;
    const qc_use use = qc_use_of(p, ch->nf, ch->head);
    qc_args a = use == EDGES ? p->ep_args : use == ONE_WAVE ? p->ow_args : p->args;
    a.in = ch->in;
    a.in8 = (const int8_t*)ch->raw; /* qc_reads_raw: int8 only */
    a.in8_scale = p->cfg->opts.input_scale;
    a.out = ch->out;
    a.pack = ch->pack;
    a.pack_len = ch->pack_len;
    a.crc_tab = ch->crc_tab; /* (only where the chunk packs) */
    a.iters = ch->iterations;
    a.conv = ch->converged;
    a.gstate = (uint32_t*)ch->state;
    a.gpost = (uint32_t*)((unsigned char*)ch->state + p->gstate_bytes * qc_units(p, ch->B));
    a.nframes = ch->nf;
    a.max_iterations = p->cfg->opts.max_iterations; /* may change between calls */
    switch (use) {
    case EDGES:
        pick_pair(p, QC_PAIR_EDGES)<<<ch->nf, p->threads, p->ep_smem, stream>>>(a);
        break;
    case LATENCY:
        pick_latency(p)<<<ch->nf, p->lat_threads, p->lat_smem, stream>>>(a);
        break;
    case LEAN:
        qc_pick_lean(p, 2, 1, p->ssmem != 0)<<<ch->nf, p->threads, p->lean_smem, stream>>>(a);
        break;
    case ONE_WAVE:
        pick_pair(p, QC_PAIR_ONE_WAVE)<<<qc_units(p, ch->nf), p->threads, p->ow_smem, stream>>>(a);
        break;
    case MANY:
        pick_kernel(p)<<<qc_units(p, ch->nf), p->threads, p->smem, stream>>>(a);
        break;
    }
    return cudaGetLastError();
}

/* Whether a call of more frames than SMs and fewer than two per SM splits (qc_head_frames): its
 * first frames as groups of two (the one-wave or many groups' build), the rest one frame per
 * block on edge pairs, on the SMs that the groups leave (head + 2 x rest = 2 x SMs). The rest's
 * copy in runs beside the groups' kernel, and edge pairs decode a frame sooner than a group
 * decodes two (H200, a slot of 152 5G NR R = 0.79 blocks: 46 against 59 us), so the call ends
 * about when the copy in ends plus edge pairs' time, where one chunk ends at the copy in's end
 * plus a group's. Measured (docs/performance.md, fortieth pass): it pays where the groups keep
 * their row state on chip and the code has at least 6 layers (5G NR BG1 at rate 0.79: 12-17 us
 * a call; at Z = 208 4-8 us; BG2 with 6 layers or more within the noise); with the row state in
 * DRAM the two kernels beside each other took 6-30 us more, and with 5 layers (BG2 at rate 0.8)
 * edge pairs are no faster than the groups. */
#define QC_SPLIT_MIN_LAYERS 6u

/* Bytes of each QC kernel's per-block limit kept for its static __shared__ words: 16 today
 * (s_flags[3] and block_xor_zero's word). cuobjdump --dump-resource-usage (sm_90) lists 1040 for
 * the QC kernels: these plus 1024 that it lists for every kernel using shared memory, k_layered
 * (no static words) too, and that plans sized to the opt-in limit have always launched with. */
#define QC_STATIC_SHARED 64
bool qc_splits(const qc_plan* p)
{
    return p->packed == 2 && p->ep && p->lean_pair && p->pair_ssmem && p->lat_frames < UINT32_MAX / 2 &&
           ldpc_of(p->cfg->code)->qv_layers >= QC_SPLIT_MIN_LAYERS;
}

/* The head of such a call: the rest as large as the SMs allow, so that the groups' copy in is
 * the shortest. */
uint32_t qc_head_frames(const void* plan, uint32_t n)
{
    const qc_plan* p = (const qc_plan*)plan;
    const uint32_t sms = p->lat_frames;
    if (!qc_splits(p) || n <= sms || n >= 2 * sms)
        return 0;
    return 2 * (n - sms); /* even: whole groups */
}

/* Every QC kernel loads its soft bits through qc_frame_load or packed_group_load, which read int8
 * as given (with_soft, soft_i8), so the engine's widening pass and its float buffer go. */
bool qc_reads_raw(const void* plan, gpufec_input_type type)
{
    return type == GPUFEC_INPUT_INT8 && !(((const qc_plan*)plan)->cfg->opts.cuda_tuning & GPUFEC_CUDA_WIDEN_INPUT);
}

/* Every QC kernel writes its output through output_frame (qc_common.cuh), which can pack; the
 * kernels of one frame per block and of many groups do. Measured with transfers (H200, 5G NR BG1
 * R = 0.79, docs/performance.md, forty-first pass): one frame per block 2-4 us a call sooner than
 * with the finishing kernel after them, many groups 0.5-1.5% more throughput (one round). One
 * group per SM (a slot's 76 groups) measured 4-8 us a call later, but the same gap showed between
 * the two settings with the same device work on both sides, so the packing's share is unknown:
 * those chunks keep the engine's finishing kernel, as before. */
bool qc_writes_packed(const void* plan, uint32_t nf, bool head)
{
    return qc_use_of((const qc_plan*)plan, nf, head) != ONE_WAVE;
}

} // namespace

const engine_plan_ops qc_plan_ops = {qc_describe, qc_state_bytes,  qc_launch,       qc_destroy,
                                     qc_reads_raw, qc_head_frames, qc_writes_packed};

size_t qc_state_bytes_per_frame(const void* plan)
{
    const qc_plan* p = (const qc_plan*)plan;
    return p->packed ? (qc_state_bytes(plan, 4096) + 4095) / 4096 : 0;
}

uint32_t qc_wave_frames(const void* plan)
{
    const qc_plan* p = (const qc_plan*)plan;
    const int sms = engine_device_limits(p->cfg).sms;
    const int blocks = engine_blocks_per_sm(p->cfg, (const void*)pick_kernel(p), (int)p->threads, p->smem);
    if (blocks < 1 || sms < 1)
        return 0;
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
    const device_limits lim = engine_device_limits(cfg);
    int optin = lim.optin;
    /* the kernels' static shared words (loaded frames, syndrome flags, block_xor_zero's CRC word)
     * come out of the same per-block limit as the dynamic bytes sized below */
    optin = optin > QC_STATIC_SHARED ? optin - QC_STATIC_SHARED : 0;
    qc_plan* p = (qc_plan*)calloc(1, sizeof *p);
    if (!p) {
        *st = GPUFEC_ERR_OUT_OF_MEMORY;
        return NULL;
    }
    p->cfg = cfg;
    p->i8p16 = lo.precision == GPUFEC_PRECISION_INT8_P16;
    p->prec = p->i8p16 ? LDPC_PREC_I8 : (int)lo.precision;
    /* int8p16 runs the half2 kernels without the posterior clamp, which columns of more than
     * QC_I8P16_MAX_DEGREE edges would need (ldpc_rules.h, LDPC_I8P16_MAX) */
    if (p->i8p16 && c->max_var_degree > QC_I8P16_MAX_DEGREE) {
        snprintf(why, why_len, "a column of %u edges (the int8p16 kernels take at most %u)",
                 c->max_var_degree, QC_I8P16_MAX_DEGREE);
        free(p);
        return NULL;
    }
    /* int8's magnitudes in two half2 instructions where that is exact (ldpc_i8_mag.h) */
    uint8_t mag_tab[PACKED_TABLE_BYTES];
    packed_mag_table(&lo, mag_tab);
    {
        uint16_t sb, bb;
        if (p->prec == LDPC_PREC_I8 && !(o->cuda_tuning & GPUFEC_CUDA_I8_MAG_TABLE) &&
            ldpc_i8_mag_arith(ldpc_rule_mode(&lo), lo.normalization, ldpc_rule_offset(&lo), &sb, &bb)) {
            p->args.i8_mag = 1;
            p->args.i8_mag_s2 = sb * 0x00010001u;
            p->args.i8_mag_b2 = bb * 0x00010001u;
        }
    }
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
    const int per_sm = lim.per_sm, sms = lim.sms;
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
    p->lean_tp = lean_ok && !p->i8p16 && (p->prec == LDPC_PREC_F32 || (o->cuda_tuning & GPUFEC_CUDA_LEAN_THROUGHPUT) ||
                             (p->prec == LDPC_PREC_F16 && (o->cuda_tuning & GPUFEC_CUDA_NO_PACKED_I8)));
    /* float32 lean rows: each layer's code compiled for its degree where the code's layers follow
     * a 5G NR base graph's (qc_pick_lean_prof has the builds) */
    if (lean_ok && p->prec == LDPC_PREC_F32 && !p->half_post && p->words == 4 &&
        !(o->cuda_tuning & GPUFEC_CUDA_NO_LAYER_PROFILE))
        p->lean_prof = layer_profile_of(c, NULL, true);
    /* ... except BG2 beyond the window (H200, 8192 whole BG2 blocks: 11.35 against 11.10 Gb/s
     * without; BG1's whole code gains 2.3% with it, docs/performance.md) */
    if (p->lean_prof == 2 && c->qv_layers > (uint32_t)layer_profile_window(2, true).end)
        p->lean_prof = 0;
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
        /* int8 groups whose words do not fit on chip but whose bytes do (DVB-S2 normal frames): two
         * frames per word with the posteriors in a byte per frame (lanes_h2b), one group per SM,
         * rather than four per word in global memory, where its rows have at most
         * PACKED_BYTE_POST_DMAX edges (kept in registers). H200, docs/performance.md: DVB-S2
         * normal 1/2 1.07x four per word (both on rows of exactly d edges), 3/5 to 9/10 (10 to 30
         * edges, which four per word take through the long-row path) 1.2x to 1.4x. */
        const int bpost = (gpost || (o->cuda_tuning & GPUFEC_CUDA_BYTE_POST)) && !lean_ok && p->prec == LDPC_PREC_I8 && !p->i8p16 &&
                          c->qv_max_entries <= PACKED_BYTE_POST_DMAX &&
                          tables + PACKED_TABLE_BYTES + byte_post_bytes(c->n) <= (size_t)optin &&
                          !(o->cuda_tuning & (GPUFEC_CUDA_PACKED_BYTES | GPUFEC_CUDA_PACKED_HALF2));
        p->packed = p->prec == LDPC_PREC_F16 || p->i8p16         ? 2
                    : o->cuda_tuning & GPUFEC_CUDA_PACKED_BYTES   ? 4
                    : o->cuda_tuning & GPUFEC_CUDA_PACKED_HALF2 ? 2
                    : ((c->qv_max_entries <= 16 || lean_ok) && !gpost) || bpost ? 2
                                                                                : 4;
        p->packed_bpost = bpost;
        p->packed_sv = packed_state_vec(packed_sign_words(32 / p->packed, c->qv_max_entries));
        p->packed_dmax = c->qv_max_entries;
        p->packed_gpost = gpost && !bpost;
        /* whole layers: the lean kernel's rows, two (or four) frames per word; its entries in
         * bytes keep a shift times 4 in 16 bits */
        p->lean_pair = lean_ok && z < (1u << 14) && c->qv_layers >= 2; /* a layer ahead is another layer */
        /* one uint4 instead of two where the rows need two sign words (H100, docs/performance.md:
         * 8192 BG1 blocks at rate 1/3 1.2x to 1.3x; one word already: Wi-Fi 1944 0.9x) */
        p->pair_compact = p->lean_pair && p->packed == 2 && p->packed_sv > 1;
        p->packed_row_bytes = (p->pair_compact ? 1 : p->packed_sv) * 16;
        const int pair_sv = p->pair_compact ? 0 : p->packed_sv; /* the pair kernel's SV */
        p->smem = tables + PACKED_TABLE_BYTES + (p->packed_gpost ? 0 : bpost ? byte_post_bytes(c->n) : (size_t)c->n * 4);
        p->gstate_bytes = (size_t)c->m * p->packed_row_bytes;
        if (p->lean_pair)
            p->gstate_bytes = p->pair_state_bytes = pair_state_sum(c, z, pair_sv, false, false);
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
            p->gstate_bytes = p->pair_state_bytes = pair_state_sum(c, z, pair_sv, true, false);
        /* each layer's row code compiled for its degree where the code's layers follow a 5G NR
         * base graph's (int8 and float16 pairs; pick_pair_prof has the builds) */
        if (p->lean_pair && p->packed == 2 && !p->packed_gpost && !(o->cuda_tuning & GPUFEC_CUDA_NO_LAYER_PROFILE))
            p->pair_prof = layer_profile_of(c, NULL, true);
        /* ... at float16 only where the whole code is in the window (H200, 8192 blocks: BG1 whole
         * 21.2 against 21.7 Gb/s in the loop, BG2 whole 11.7 against 18.0; BG1 at rate 0.79 37.5
         * against 35.2, docs/performance.md) */
        if (p->prec == LDPC_PREC_F16 && p->pair_prof && c->qv_layers > (uint32_t)layer_profile_window(p->pair_prof, true).end)
            p->pair_prof = 0;
        /* ... and its window's entries, where they are the base graph's at Z = 384: each edge's
         * address then an add and an add-min, no entry read (H200, 2026-11-29, docs/performance.md) */
        static_assert(LAYER_PROFILES == 2, "each profile's entries");
        if (p->pair_prof && !(o->cuda_tuning & GPUFEC_CUDA_NO_CONST_ENTRIES)) /* (run where qc_pair_kz) */
            p->pair_z384 = p->threads == NR_Z384 && /* (its kernels run every thread's row) */
                           (p->pair_prof == 1 ? z384_entries_match<1>(c) : z384_entries_match<2>(c));
        p->gpost_bytes = p->packed_gpost ? (((size_t)c->n * 4 + 255) & ~(size_t)255) : 0;
    }
    if (p->i8p16 && !p->packed) {
        snprintf(why, why_len, "it needs the two-frames-per-word kernels (rows of at most %u edges, at most %u lanes%s)",
                 PACKED_MAX_DEGREE, PACKED_MAX_THREADS,
                 o->cuda_tuning & GPUFEC_CUDA_NO_PACKED_I8 ? ", not disabled by cuda_tuning" : "");
        free(p);
        return NULL;
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
    /* the outgoing magnitudes by the rule's own function: int8, binary16 */
    if (p->packed && (err = upload(&p->dev[8], mag_tab, PACKED_TABLE_BYTES)) != cudaSuccess)
        goto done;
    {
        qc_args& a = p->args;
        a.ents = (const uint2*)p->dev[0];
        a.ent_ptr = (const uint32_t*)p->dev[1];
        a.ncolor = (const uint8_t*)p->dev[2];
        a.color = (const uint8_t*)p->dev[3];
        a.tx_int = (const int32_t*)p->dev[4];
        a.fill_int = (const uint32_t*)p->dev[5];
        a.out_int = (const uint32_t*)p->dev[6];
        a.out0 = n_out ? out_int[0] : 0u;
        a.out_run = pos_run_start(out_int, n_out) >= 0;
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
    err = cuda_allow_shared((const void*)pick_kernel(p), p->smem);
    /* A chunk of at most one group per SM, two frames per word on lean rows: the many groups'
     * build where its layers and the base graph's entries are compiled (qc_pair_kz, Z = 384), at
     * int8p16 and at int8 on BG2, where it measured faster than the one-wave build (H200, 152 and
     * 264 blocks: int8p16 1.03x to 1.23x against the one-wave build's loop over layers, 1.04x to
     * 1.16x against its compiled layers with the edge offsets on chip; int8 on BG2 1.2x; int8 on
     * BG1 0.96x to 1.03x, and below Z = 384, entries read from memory, int8p16 0.85x to 1.0x;
     * float16 keeps its own; docs/performance.md, twenty-eighth and thirty-ninth passes). Else the
     * one-wave build: one block per SM, its registers uncapped (H100: a slot of 152 5G NR blocks). */
    if (err == cudaSuccess && p->lean_pair && p->packed == 2 && !p->packed_gpost) {
        const bool many_wins = qc_pair_kz(p) && (p->i8p16 || (p->prec == LDPC_PREC_I8 && p->pair_prof == 2));
        if (many_wins && !(o->cuda_tuning & GPUFEC_CUDA_ONE_WAVE_BUILD) && pick_pair_prof_of(p, false)) {
            p->ow_many = 1;
        } else {
            p->pair_one_wave = (uint32_t)sms;
            /* with the rows' edge offsets after the layer table, where the row state is on chip
             * and one group's all fit (a slot of 152 5G NR blocks at rate 0.79: 90 KiB of them) */
            p->ow_args = p->args;
            p->ow_smem = p->smem;
            if (p->pair_ssmem && !(o->cuda_tuning & GPUFEC_CUDA_NO_EDGE_TABLE) &&
                (err = edge_table_attach(c, ents, z, (uint32_t)(tables + PACKED_TABLE_BYTES), 4, (size_t)optin,
                                         &p->dev[10], &p->ow_args, &p->ow_smem, &p->ow_tab)) != cudaSuccess)
                goto done;
            err = cuda_allow_shared((const void*)pick_pair(p, QC_PAIR_ONE_WAVE), p->ow_smem);
        }
    }
    /* A few frames at int8 and float16 on the lean rows: a row's edges two by two in 16-bit lanes
     * (ep_row), one binary16 per position, the row state on chip in 8 bytes per row. */
    if (err == cudaSuccess && p->lat_frames && p->lean_pair && p->packed == 2 && !p->packed_gpost &&
        c->qv_max_entries <= EP_MAX_DEGREE &&
        !(o->cuda_tuning & (GPUFEC_CUDA_NO_EDGE_PAIRS | GPUFEC_CUDA_LATENCY_PLAN | GPUFEC_CUDA_LEAN_SPLIT))) {
        const size_t ep_st = pair_state_sum(c, z, 0, false, true);
        const size_t at = (tables + PACKED_TABLE_BYTES + pair_post_bytes((c->n + 1) / 2) + ep_st + 15) & ~(size_t)15;
        if (at + pair_desc_bytes(c->qv_layers) <= (size_t)optin) {
            p->ep = 1;
            p->ep_src = qc_reads_raw(p, o->input_type) ? 2 : 1;
            p->ep_args = p->args;
            p->ep_args.pair_state_bytes = (uint32_t)ep_st;
            p->ep_args.pair_desc = (uint32_t)at;
            p->ep_smem = at + pair_desc_bytes(c->qv_layers);
            /* orthogonal layers two rows per thread (int8: EP_TWO) */
            uint8_t* pairs = NULL;
            if (p->prec == LDPC_PREC_I8 && !c->qv_slice) {
                if (!(pairs = (uint8_t*)calloc(c->qv_layers ? c->qv_layers : 1, 1))) {
                    err = cudaErrorMemoryAllocation;
                    goto done;
                }
                if (!(o->cuda_tuning & GPUFEC_CUDA_NO_LAYER_MERGE) &&
                    (err = pair_next_make(c, &p->dev[11], &p->ep_pairs, pairs)) != cudaSuccess) {
                    free(pairs);
                    goto done;
                }
                if (p->ep_pairs)
                    p->ep_args.pair_next = (const uint8_t*)p->dev[11];
                /* each layer's code compiled for its degree, where a profile fits */
                if (!(o->cuda_tuning & GPUFEC_CUDA_NO_LAYER_PROFILE))
                    p->ep_prof = layer_profile_of(c, p->ep_pairs ? pairs : NULL);
                free(pairs);
            }
            /* the rows' edge offsets after it where they fit */
            if (!(o->cuda_tuning & GPUFEC_CUDA_NO_EDGE_TABLE) &&
                (err = edge_table_attach(c, ents, z, (uint32_t)(tables + PACKED_TABLE_BYTES), 2, (size_t)optin,
                                         &p->dev[9], &p->ep_args, &p->ep_smem, &p->ep_tab)) != cudaSuccess)
                goto done;
            err = cuda_allow_shared((const void*)pick_pair(p, QC_PAIR_EDGES), p->ep_smem);
        }
    }
    /* int8p16: the latency plan only as edge pairs (lanes_h2w); otherwise few frames take the
     * two-frames-per-word kernel too */
    if (p->i8p16 && !p->ep)
        p->lat_frames = 0;
    /* edge pairs replace the latency kernel where they run */
    if (err == cudaSuccess && p->lat_frames && !p->ep)
        err = cuda_allow_shared((const void*)pick_latency(p), p->lat_smem);
    /* Four frames per word below one wave (a slot of 152 5G NR blocks is 38 groups of four on 132
     * SMs): the lean kernel, which fills the SMs with one frame per block (H100,
     * docs/performance.md). Two per word on the lean rows stay (the same slot at int8: 144 us
     * in pairs against 190 us one frame per block). */
    if (err == cudaSuccess && p->packed == 4 && lean_ok && !(o->cuda_tuning & GPUFEC_CUDA_PACKED_ALWAYS)) {
        p->lean_smem = tables + post + (p->ssmem ? state : 0);
        p->lean_gstate = p->ssmem ? 0 : state;
        err = cuda_allow_shared((const void*)qc_pick_lean(p, 2, 1, p->ssmem != 0), p->lean_smem);
        if (err == cudaSuccess)
            p->lean_small_frames = qc_wave_frames(p);
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
                 "QC layered (%s), %s%s rule, %d frames per word (%s), posteriors in %s memory%s, "
                 "%d-byte row state per row%s in %s memory%s",
                 layers, p->lean_pair ? "lean rows, " : "",
                 p->prec == LDPC_PREC_F16 ? "float16" : p->i8p16 ? "int8p16" : "int8", p->packed,
                 p->packed == 2 ? "half2" : "bytes", p->packed_gpost ? "global" : "shared",
                 p->packed_bpost ? " (a byte per frame)" : "",
                 p->packed_row_bytes, p->pair_short ? " (8 with at most 11 edges)" : "", p->pair_ssmem ? "shared" : "global",
                 p->packed == 2 && p->prec == LDPC_PREC_I8 ? (p->args.i8_mag ? ", magnitudes in half2" : ", magnitudes by table") : "");
    else if (p->spa)
        snprintf(p->describe, sizeof p->describe, "QC layered SPA, fast instructions (%s), %s posteriors, a message per edge in %s memory",
                 layers, p->half_post ? "fp16" : "fp32", p->ssmem ? "shared" : "global");
    else
        snprintf(p->describe, sizeof p->describe,
                 "QC layered (%s), %s posteriors, %d-byte row state in %s memory%s", layers,
                 p->prec == LDPC_PREC_I8 ? "int8" : p->prec == LDPC_PREC_F16 || p->half_post ? "fp16" : "fp32",
                 W * 4, p->ssmem ? "shared" : "global", p->wide ? ", rows of up to 20 edges in registers" : "");
    if (p->lean_prof) {
        const bool many = p->lean_tp, few = p->lat_frames && p->lat_lean && p->lat_split == 1 && !p->ep;
        if (many || few)
            describe_profile(p, many && few ? "; lean rows: " : many ? "; many frames: " : "; few frames: ", p->lean_prof,
                             true, c->qv_layers);
    }
    if (p->pair_prof) {
        const bool many = pick_pair_prof_of(p, false) != nullptr, one = pick_pair_prof_of(p, true) != nullptr;
        if (many || one)
            describe_profile(p, many && one ? "; groups: " : many ? "; many groups: " : "; one group per SM: ", p->pair_prof,
                             true, c->qv_layers);
        if (many && qc_pair_kz(p))
            describe_add(p, "; many groups: entries compiled for Z=384");
    }
    if (p->ow_tab) {
        describe_add(p, "; one group per SM: edge offsets on chip");
    }
    if (p->ow_many)
        describe_add(p, "; one group per SM: the many groups' build");
    if (p->lean_small_frames) {
        describe_add(p, "; below %u frames: lean rows, one frame per block", p->lean_small_frames);
    }
    if (p->lat_frames) {
        describe_add(p, "; up to %u frames: one per block, %s", p->lat_frames,
                     p->ep_tab     ? "lean rows, a row's edges two by two in half2, their offsets on chip"
                     : p->ep       ? "lean rows, a row's edges two by two in half2"
                     : p->lat_lean ? (p->lat_split == 2 ? "lean rows, 2 threads per row" : "lean rows, 1 thread per row")
                     : p->lat_split == 2 ? "2 threads per row" : "1 thread per row");
        if (p->ep_pairs) {
            describe_add(p, ", %u pairs of orthogonal layers two rows per thread", p->ep_pairs);
        }
        if (p->ep_prof)
            describe_profile(p, ", ", p->ep_prof, false, c->qv_layers);
        if (p->ep && p->prec == LDPC_PREC_I8) /* (one lookup for both lanes: magnitude_both) */
            describe_add(p, ", magnitudes by table");
        if (qc_splits(p))
            describe_add(p, "; %u to %u frames from the host: the first in groups of two, the rest one per block",
                         p->lat_frames + 1, 2 * p->lat_frames - 1);
    }
    if (engine_packs_in_kernel(p->cfg))
        describe_add(p, "%s%s", p->cfg->check_crc ? "; packed, CRC checked, by the kernel" : "; packed by the kernel",
                     p->ow_many ? "" : " but at one group per SM"); /* qc_writes_packed: the many groups'
                                                                       build packs at one per SM too */
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
