/* Measurement switches: cuda_tuning flags (gpufec_decoder_opts.cuda_tuning, or cuda_tuning=N by
 * name) that force one CUDA kernel choice, for benchmarks and the equivalence tests. Internal:
 * not part of the public API, and free to change with the kernels. They change speed only, never
 * results (the kernels agree bit for bit). */
#ifndef GPUFEC_CUDA_TUNING_H
#define GPUFEC_CUDA_TUNING_H

#define GPUFEC_CUDA_NO_QC_KERNEL 1u        /* generic kernels even where the QC kernel applies */
#define GPUFEC_CUDA_QC_STATE_GLOBAL 2u     /* QC kernel: row state in global memory */
#define GPUFEC_CUDA_QC_STATE_SHARED 4u     /* QC kernel: row state on chip, where it fits */
#define GPUFEC_CUDA_NO_COMPRESSED_MESSAGES 8u /* generic layered min-sum: messages per edge */
/* 16, 32, 64: another family's plan's own switches (defined in its cuda/<family>/ folder) */
#define GPUFEC_CUDA_NO_PACKED_I8 128u      /* QC kernel at int8 and float16: one frame per thread, not 2 per word */
#define GPUFEC_CUDA_PACKED_BYTES 256u      /* QC kernel at int8: 4 frames per word in bytes */
#define GPUFEC_CUDA_PACKED_HALF2 512u      /* QC kernel at int8 and float16: 2 frames per word in half2 (int8
                                              default: half2 for rows up to 16 edges whose group fits on chip,
                                              else bytes) */
#define GPUFEC_CUDA_NO_LATENCY_PLAN 1024u  /* QC kernel: the throughput plan even for a few frames (default:
                                              while frames fit one per SM, one frame per block, two threads
                                              per row where a frame has at most 128 lanes) */
#define GPUFEC_CUDA_LATENCY_PLAN 2048u     /* QC kernel: the latency plan with two threads per row, whatever
                                              the batch and the lifting */
#define GPUFEC_CUDA_WIDE_ROWS 4096u        /* QC kernel, one frame per thread: rows of up to 20 edges in
                                              registers in the throughput plan too (default: 8) */
#define GPUFEC_CUDA_NO_LEAN 8192u         /* QC kernel: never the lean kernel (default: where layers are whole and
                                              rows have at most 20 edges, for a few frames, and for many at
                                              float32 and float16) */
#define GPUFEC_CUDA_LEAN_THROUGHPUT 16384u /* QC kernel at int8: the lean kernel for many frames (one frame per
                                              block) instead of the packed plan */
#define GPUFEC_CUDA_LEAN_SPLIT 32768u      /* the lean kernel's latency plan with two threads per row (default: one;
                                              at int8 and float16 edge pairs, which this turns off) */
#define GPUFEC_CUDA_PACKED_ALWAYS 65536u   /* QC kernel: the plan with several frames per word even for chunks
                                              below one of its waves (default: the lean kernel there) */
#define GPUFEC_CUDA_PAIR_WIDE_STATE 131072u /* QC kernel, int8 pairs on lean rows with the row state in global
                                              memory: rows of at most 11 edges keep the 16-byte row state too
                                              (default: 8 bytes) */
#define GPUFEC_CUDA_F16_MAG_FLOAT 262144u  /* QC kernel at float16, two frames per word: each outgoing magnitude
                                              through float32 per frame (default: three half2 instructions for
                                              both frames where that is exact, f16_mag_exact) */
#define GPUFEC_CUDA_NO_EDGE_PAIRS 524288u  /* QC kernel at int8 and float16, a few frames: the lean kernel (one thread
                                              per row, one edge at a time) instead of a row's edges two by two in
                                              16-bit lanes (the default on the lean rows) */
#define GPUFEC_CUDA_NO_EDGE_TABLE 1048576u /* QC kernel, edge pairs: each row's edge addresses derived from the
                                              layer's entries (default: read from a table of 16-bit offsets built
                                              on chip once per block, where it fits) */
#define GPUFEC_CUDA_NO_LAYER_MERGE 2097152u /* QC kernel, edge pairs: one layer per step (default: two consecutive
                                              layers that share no column, e.g. 5G NR's later rows, as a pair of
                                              rows per thread) */
#define GPUFEC_CUDA_NO_LAYER_PROFILE 4194304u /* QC kernel at int8, edge pairs and two frames per word: the loop
                                              over layers (default: each layer's code compiled for its degree
                                              where the code's layers follow a 5G NR base graph's,
                                              qc_layer_profile.cuh) */
#define GPUFEC_CUDA_BYTE_POST 8388608u     /* QC kernel at int8, rows that are not whole layers: two frames per word
                                              with the posteriors on chip as a byte per frame wherever that fits
                                              (default: where four bytes per position do not fit on chip) */
#define GPUFEC_CUDA_NO_CONST_ENTRIES 16777216u /* QC kernel at int8 and float16, two frames per word, many groups of a
                                              5G NR code at Z = 384 on a layer profile: each edge's entry read from
                                              shared memory (default: the base graph's entries compiled in,
                                              qc_nr_z384.cuh) */
#define GPUFEC_CUDA_I8_MAG_TABLE 33554432u /* QC kernel at int8 and int8p16, two frames per word: each outgoing
                                              magnitude from the rule's table in shared memory (default: two half2
                                              instructions for both frames where the plan found them exact,
                                              ldpc_i8_mag_arith) */
#define GPUFEC_CUDA_ONE_WAVE_BUILD 67108864u /* QC kernel, two frames per word: a chunk of at most one group per SM
                                              on the one-wave build (its layers compiled where its edge offsets fit
                                              on chip, else the loop over layers; default at Z = 384, int8p16, and
                                              int8 on BG2: the many groups' build, its layers and entries compiled;
                                              was ONE_WAVE_LOOP) */
#define GPUFEC_CUDA_WIDEN_INPUT 134217728u /* QC kernel, int8 soft bits in: the engine's widening pass to float
                                              first (default: the kernels' loads read int8 as given) */
#define GPUFEC_CUDA_NO_SPLIT 268435456u     /* a call of at most one chunk's frames from the host stays one chunk
                                              (default: where the plan splits it, engine_plan_ops.head_frames, its
                                              second chunk's copy in runs beside the first's kernels) */
#define GPUFEC_CUDA_PACK_AFTER 536870912u   /* packed output (GPUFEC_OUTPUT_*_PACKED) without a CRC, or information
                                              output with one: the engine's finishing kernel packs the bits the
                                              decoder wrote a byte each and checks the CRC (default: where the plan
                                              says so for the chunk, the QC plan's kernels of one frame per block
                                              and of many groups write the packed bytes and check the CRC
                                              themselves, engine_plan_ops.writes_packed) */
#define GPUFEC_CUDA_SMALL_GPU 1073741824u   /* every plan sized as for a GeForce-class GPU (the smaller of the
                                              device's limits and an RTX 3060's: 99 KB of shared memory a block,
                                              100 KB and 1536 threads an SM, 28 SMs; engine_device_limits), so
                                              that a large GPU runs, and the tests compare, the kernels such a
                                              card takes. Not its speed: the device's own code and clocks run */
#define GPUFEC_CUDA_TUNING_ALL 2147483647u /* every switch defined */

#endif
