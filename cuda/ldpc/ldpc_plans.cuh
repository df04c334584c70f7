/* The binary LDPC kernel plans the engine runs (engine.cuh). Each create returns NULL and says
 * why (`why`, a clause for the log) when the code or options do not suit it; *st reports a CUDA
 * failure (then NULL too). */
#ifndef GPUFEC_LDPC_PLANS_CUH
#define GPUFEC_LDPC_PLANS_CUH

#include "engine.cuh"

/* QC layered min-sum (qc_plan.cu, its kernels qc_kernels_*.cu): codes with a QC layer view; every
 * precision. */
void* qc_plan_create(const decoder_config* cfg, char* why, size_t why_len, gpufec_status* st);
extern const engine_plan_ops qc_plan_ops;
/* Its workspace per frame (0: the estimate for the generic plans), and the frames one full wave
 * of its thread blocks decodes on the device. */
size_t qc_state_bytes_per_frame(const void* plan);
uint32_t qc_wave_frames(const void* plan);

/* Generic layered SPA / min-sum (layered_plan.cu): codes whose posteriors fit on chip. */
void* layered_plan_create(const decoder_config* cfg, char* why, size_t why_len, gpufec_status* st);
extern const engine_plan_ops layered_plan_ops;

/* Flooding SPA / min-sum for any H (flooding_plan.cu). */
void* flooding_plan_create(const decoder_config* cfg, char* why, size_t why_len, gpufec_status* st);
extern const engine_plan_ops flooding_plan_ops;

/* Gallager-A/B and PGaB, 32 frames per word (hard_plan.cu). */
void* hard_plan_create(const decoder_config* cfg, char* why, size_t why_len, gpufec_status* st);
extern const engine_plan_ops hard_plan_ops;

#endif
