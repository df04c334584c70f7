/* Layered min-sum for codes with a QC layer view (code_internal.h): 5G NR, WiMAX, Wi-Fi, QC
 * files and DVB-S2. One thread block per frame, one thread per lane of a layer; each edge's
 * variable is derived from the layer's (block column, shift) entries instead of being loaded,
 * and each row keeps its check messages compressed (two magnitudes, the position of the first,
 * the signs) in 4 to 16 bytes, on chip when the frame fits. Storage precision float32, float16
 * or int8 (gpufec_precision); results equal the CPU's layered decoder at the same precision. */
#ifndef GPUFEC_QC_LAYERED_H
#define GPUFEC_QC_LAYERED_H

#include <cuda_runtime.h>

extern "C" {
#include "decoder_internal.h"
}

struct qc_plan;

/* Returns NULL when the code or options are not for this kernel (why says which), else a plan
 * with its device tables; *st reports a CUDA failure (then NULL too). */
qc_plan* qc_plan_create(const gpufec_decoder* dec, char* why, size_t why_len, gpufec_status* st);
void qc_plan_destroy(qc_plan* p);
/* Bytes of global message state per frame (0 when it lives in shared memory). */
size_t qc_plan_global_state_bytes(const qc_plan* p);
/* Human-readable layout for the log line. */
const char* qc_plan_describe(const qc_plan* p);
/* Decodes nf frames: in (nf * n_tx floats, frame-major) -> out (nf * output length bytes). */
cudaError_t qc_plan_launch(const qc_plan* p, const float* in, void* state, uint8_t* out, int32_t* iters,
                           uint8_t* conv, uint32_t nf, cudaStream_t stream);

#endif
