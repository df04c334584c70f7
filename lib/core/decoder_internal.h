/* Decoder context and the interface every backend implements. */
#ifndef GPUFEC_DECODER_INTERNAL_H
#define GPUFEC_DECODER_INTERNAL_H

#include <gpufec/decoder.h>

#include "code_internal.h"

/* One decoder implementation. lib/core/registry.c lists them in preference order. */
typedef struct backend_ops {
    const char* name;
    gpufec_backend backend;
    /* 1 when it can decode this code with these options; else 0 and why (one clause). */
    int (*accepts)(const gpufec_code* code, const gpufec_decoder_opts* opts, char* why, size_t why_len);
    gpufec_status (*create)(gpufec_decoder* dec);
    void (*destroy)(gpufec_decoder* dec);
    /* soft: n_frames * n_tx transmitted values of type opts.input_type (soft_input.h); hard:
     * n_frames * n full codeword bits, or, when the backend sets backend_writes_output,
     * n_frames * out_len bits gathered through out_pos. */
    gpufec_status (*decode)(gpufec_decoder* dec, const void* soft, size_t n_frames, uint8_t* hard,
                            int32_t* iterations, uint8_t* converged);
    /* Optional: enqueue on a caller's stream without waiting, and wait later. */
    gpufec_status (*decode_async)(gpufec_decoder* dec, const void* soft, size_t n_frames,
                                  uint8_t* out, int32_t* iterations, uint8_t* converged, void* stream);
    gpufec_status (*synchronize)(gpufec_decoder* dec);
    /* Optional: seconds the device kernels of the last decode call ran; reads only its own
     * backend's state (each backend's impl is its own struct). */
    double (*kernel_seconds)(const gpufec_decoder* dec);
} backend_ops;

struct gpufec_decoder {
    const gpufec_code* code;
    gpufec_decoder_opts opts;
    gpufec_backend backend; /* resolved: CPU or CUDA */
    const backend_ops* ops;
    void* impl;             /* backend state */
    size_t preferred_batch; /* frames the backend likes per call (0: no preference) */
    /* Output of one frame: out_len bits, bit t taken from full codeword position out_pos[t]
     * (information or transmitted positions of the code); out_pos NULL: the whole codeword. */
    const uint32_t* out_pos;
    uint32_t out_len;
    int backend_writes_output; /* the backend gathers through out_pos itself */
    uint8_t* hard;          /* n * batch codeword bits, gathered by the front otherwise */
    size_t hard_frames;
};

/* The implementations in preference order, NULL-terminated: AUTO takes the first that accepts
 * and creates; the CPU reference is last and accepts everything. */
extern const backend_ops* const decoder_registry[];

extern const backend_ops cpu_backend_ops;
#ifdef GPUFEC_HAVE_CUDA
extern const backend_ops cuda_backend_ops;
extern const backend_ops cuda_hard_backend_ops; /* Gallager-A/B, PGaB */
int cuda_backend_probe(int device, char* why, size_t why_len);
int cuda_util_host_alloc(void** p, size_t bytes);
int cuda_util_host_free(void* p);
int cuda_util_bandwidth(int device, double* d2d_gbps, double* h2d_gbps);
#endif

/* Reduced-precision parameters shared by the backends: 1 / quant_step (int8), and the OMS offset
 * in the units the messages are stored in (steps for int8, LLRs otherwise). */
static inline float decoder_inv_step(const gpufec_decoder_opts* o) { return 1.0f / o->quant_step; }
static inline float decoder_offset_steps(const gpufec_decoder_opts* o)
{
    return o->precision == GPUFEC_PRECISION_INT8 ? o->offset * decoder_inv_step(o) : o->offset;
}

void decoder_log(const gpufec_decoder* dec, gpufec_log_level level, const char* fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;

#endif
