/* Vectorised CPU decoders (several frames per SIMD register), chosen at run time. */
#ifndef GPUFEC_CPU_SIMD_H
#define GPUFEC_CPU_SIMD_H

#include "decoder_internal.h"
#include "ldpc_code.h"

typedef struct cpu_simd_state cpu_simd_state;

/* The rows as a pass visits them (layered: layer order; flooding: index order): row r's degree
 * in deg[r], and all rows' variables in one stream var[] (plus `pad` zero entries, so that a
 * prefetch may look ahead), both malloc'd (caller frees); 0 when out of memory. The vector paths
 * keep their messages in this order too, so a pass streams through memory instead of jumping
 * between rows. */
int cpu_simd_visit_order(const ldpc_code* c, uint32_t pad, int layered, uint32_t** deg, uint32_t** var);

/* 1 when this CPU can run the vector path (AVX2). */
int cpu_simd_available(void);
/* layered: the row-layered schedule, else flooding. */
cpu_simd_state* cpu_simd_create(const ldpc_code* c, int layered);
void cpu_simd_destroy(cpu_simd_state* s);
/* MS / NMS / OMS and SPA at float32, bit-exact with the scalar decoder. */
void cpu_simd_decode(const ldpc_code* c, const tx_map* map, const gpufec_decoder_opts* o, cpu_simd_state* s,
                     const float* llr, size_t n_frames, uint8_t* hard, int32_t* iterations,
                     uint8_t* converged);

/* The same at int8 precision (ldpc_rules.h's int8 storage): one frame per byte lane, 64 per
 * AVX-512BW register where the CPU has it and `wide` allows it, else 32 per AVX2 register;
 * bit-exact with the scalar int8 decoder. */
typedef struct cpu_simd_i8_state cpu_simd_i8_state;
cpu_simd_i8_state* cpu_simd_i8_create(const ldpc_code* c, int wide);
/* Frames per register of this state: 64 or 32. */
int cpu_simd_i8_lanes(const cpu_simd_i8_state* s);
void cpu_simd_i8_destroy(cpu_simd_i8_state* s);
void cpu_simd_i8_decode(const ldpc_code* c, const tx_map* map, const gpufec_decoder_opts* o, cpu_simd_i8_state* s,
                        const float* llr, size_t n_frames, uint8_t* hard, int32_t* iterations, uint8_t* converged);

#endif
