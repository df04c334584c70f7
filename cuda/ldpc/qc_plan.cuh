/* The QC layered decoder as its kernel families share it: the launch arguments (qc_args), the
 * plan (qc_plan, built and launched by qc_plan.cu) and each family's kernel picker. Each family
 * is its own translation unit (qc_kernels_*.cu), so that they compile side by side: the QC
 * kernels are most of the build. */
#ifndef GPUFEC_QC_PLAN_CUH
#define GPUFEC_QC_PLAN_CUH

#include "graph_dev.cuh"
#include "ldpc_plans.cuh"

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
    uint32_t out_run, out0;  /* out_run: out_int[t] = out0 + t for every t (no table to load) */
    uint32_t z, layers, n, n_tx, n_fill, n_out, n_rep, entries;
    uint32_t slice; /* > 0: colours are slices of this many lanes (ldpc_code.h, qv_slice); no table */
    const float* in;
    /* the caller's int8 soft bits, read in place (soft_i8, qc_common.cuh) where the engine skipped its widening
     * pass (qc_reads_raw); NULL: `in`, the widened floats */
    const int8_t* in8;
    float in8_scale;
    uint8_t* out;
    uint32_t pack;   /* out packed eight bits per byte (engine_chunk.pack, frame_out): */
    uint32_t pack_len;        /* ... the first pack_len of the n_out bits */
    const uint32_t* crc_tab;  /* ... and, where not NULL, the CRC checked on all n_out (engine_chunk.crc_tab) */
    int32_t* iters;
    uint8_t* conv;
    uint32_t* gstate; /* global message state (when not in shared memory) */
    uint32_t pair_state_bytes; /* the lean pair kernel's row state per group (a multiple of 16) */
    uint32_t pair_desc;        /* ... and the byte offset of its layer table (pair_layers_build) in shared memory */
    uint32_t edge_offs;        /* pair kernel: the byte offset of the rows' edge offsets in shared memory, */
    uint32_t edge_tab_chunks;  /* ... their size in 16-byte chunks */
    const uint4* edge_tab;     /* ... and where the plan built them (edge_units; TAB kernels only) */
    const uint8_t* pair_next;  /* edge pairs, per layer: 1 where it and the next share no column and run two
                                  rows per thread (ep_two); NULL: one layer per step */
    uint32_t* gpost;  /* packed int8: posteriors in global memory (GPOST), n words per group */
    const uint8_t* mag_tab; /* packed int8: ms_magnitude of 0..127 */
    uint32_t nframes; /* frames in the launch (packed int8: the last group may be partial) */
    int max_iterations, early, interval, mode;
    float scale, offset, inv_step;
    /* float16 lanes: ms_magnitude in half2 arithmetic where that is exact (f16_mag_exact),
     * with the factor and the offset as binary16 in both halves */
    uint32_t f16_mag, f16_scale2, f16_offset2;
    /* int8 half2 lanes: ms_magnitude of an integer m in [0, 63] as relu(fma(m, S, B) - 1024) in
     * half2 arithmetic where the plan found that exact for every m (ldpc_i8_mag_arith); S and B as
     * binary16 in both halves */
    uint32_t i8_mag, i8_mag_s2, i8_mag_b2;
};

struct qc_plan {
    const decoder_config* cfg;
    qc_args args; /* device tables filled; per-launch fields set by qc_launch */
    int prec, words, ssmem, half_post, spa, spa_split;
    int i8p16; /* int8p16: prec is LDPC_PREC_I8 (its messages' rule), the posteriors unclamped in
                  the half2 kernels (lanes_h2w); the plan takes nothing else */
    int packed, packed_sv, packed_gpost; /* int8, float16: frames per word (2 or 4, qc_packed_kernel.cuh) or 0 */
    int packed_bpost;                    /* int8 two per word: the posteriors on chip in a byte per frame (lanes_h2b) */
    int lean_pair;                       /* the packed plan on the lean kernel's rows (qc_lean_pair_kernel.cuh) */
    int pair_compact;                    /* ... with two frames' row state in one uint4 */
    int pair_ssmem;                      /* ... with the row state on chip */
    int pair_short;                      /* ... int8, with 8 bytes of it for rows of at most 11 edges */
    int pair_prof;                       /* ... the layer profile its rows are compiled for (0: none), */
    int pair_z384;                       /* ... and for many groups its window's entries too (Z = 384,
                                            the code's entries equal to qc_nr_z384.cuh's) */
    uint32_t pair_one_wave;              /* ... chunks of at most this many groups (one per SM, two frames
                                            per word): the kernel built for one block per SM, */
    int ow_tab;                          /* ... with the rows' edge offsets on chip; ow_args and ow_smem:
                                            its arguments and shared bytes, with or without them */
    int ow_many;                         /* ... or none: such chunks take the many groups' build (pair_one_wave 0) */
    qc_args ow_args;
    size_t ow_smem;
    size_t pair_state_bytes;             /* ... its bytes per group */
    size_t pair_desc;                    /* ... where its layer table starts in shared memory */
    int packed_row_bytes;                /* row state per row and group */
    uint32_t packed_dmax;                /* the longest row */
    int wide;                            /* throughput kernel with rows of up to 20 edges in registers */
    int lean_tp, lat_lean;               /* the lean kernel (qc_lean_kernel.cuh) for many frames, for few */
    int lean_prof;                       /* ... at float32, the layer profile its rows are compiled for (0: none) */
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
     * 16-bit lanes (k_qc_lean_pair EP), its row state and layer table on chip (ep_args:
     * args with their size and place), ep_smem bytes in all */
    int ep, ep_tab; /* ep_tab: with the rows' edge offsets on chip (edge_units) */
    qc_args ep_args;
    size_t ep_smem;
    uint32_t ep_pairs; /* ... pairs of orthogonal layers run two rows per thread (pair_next) */
    int ep_prof;       /* ... the layer profile its code is compiled for (qc_layer_profile.cuh), 0: none */
    int ep_src;        /* ... the soft bits its build reads (with_soft's SRC): 1 floats, 2 int8 as given */
    size_t smem, gstate_bytes, gpost_bytes; /* per frame, or per group of four when packed */
    uint32_t threads;
    char describe[656];
    void* dev[12];
    tx_map_dev map;
};

/* Whether the kernels with the window's entries compiled in (pair_z384) run: their int8 rows take
 * the magnitudes' arithmetic (row_magnitudes<L, true>) with no check, so at int8 only where the
 * plan found it exact (args.i8_mag); the one predicate for the pick and the description. */
inline bool qc_pair_kz(const qc_plan* p)
{
    return p->pair_z384 && (p->prec == LDPC_PREC_F16 || (p->prec == LDPC_PREC_I8 && p->args.i8_mag));
}

typedef void (*qc_kernel_fn)(qc_args);

/* k_qc_layered (qc_kernels_generic.cu): split threads per row (1, 2), dbmax the longest row part
 * kept in registers (8 for many frames, 20 for the latency plan), sm: row state on chip. */
qc_kernel_fn qc_pick_one_frame(const qc_plan* p, int split, int dbmax, bool sm);
/* k_qc_lean (qc_kernels_lean.cu): minb blocks per SM the registers allow (2 for many frames, 1
 * for the latency plan), split threads per row. */
qc_kernel_fn qc_pick_lean(const qc_plan* p, int minb, int split, bool sm);
/* ... at float32 on the plan's layer profile (lean_prof; qc_kernels_lean_prof.cu), one thread per
 * row; NULL where none is built */
qc_kernel_fn qc_pick_lean_prof(const qc_plan* p, int minb, bool sm);
/* k_qc_packed (qc_kernels_packed.cu): the packed plan on rows that are not the lean ones. */
qc_kernel_fn qc_pick_packed(const qc_plan* p);
qc_kernel_fn qc_pick_packed_h2w(const qc_plan* p); /* (qc_kernels_packed_h2w.cu) */
/* k_qc_lean_pair (qc_kernels_pair_*.cu), by the plan's lane policy: for many groups, for a chunk
 * of at most one group per SM, or the latency plan's edge pairs (16-bit lanes only). */
enum qc_pair_use { QC_PAIR_MANY, QC_PAIR_ONE_WAVE, QC_PAIR_EDGES };
qc_kernel_fn qc_pick_pair_h2(const qc_plan* p, qc_pair_use use);
qc_kernel_fn qc_pick_pair_h2w(const qc_plan* p, qc_pair_use use);
qc_kernel_fn qc_pick_pair_f16(const qc_plan* p, qc_pair_use use);
qc_kernel_fn qc_pick_pair_b4(const qc_plan* p);
/* ... at int8, int8p16 and float16 on the plan's layer profile (pair_prof) for many groups or one
 * per SM (qc_kernels_pair_{h2,h2w,f16}_prof.cu); NULL where none is built for its row state's place */
qc_kernel_fn qc_pick_pair_h2_prof(const qc_plan* p, bool one);
qc_kernel_fn qc_pick_pair_h2w_prof(const qc_plan* p, bool one);
qc_kernel_fn qc_pick_pair_f16_prof(const qc_plan* p, bool one);

#endif
