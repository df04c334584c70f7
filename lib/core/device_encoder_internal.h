/* Device encoders behind gpufec_device_encoder_*: one record per family that has one (registry.c),
 * the way decoder implementations are records. */
#ifndef GPUFEC_DEVICE_ENCODER_INTERNAL_H
#define GPUFEC_DEVICE_ENCODER_INTERNAL_H

#include <gpufec/encoder.h>

typedef struct device_encoder_ops {
    const char* name; /* "cuda ldpc" */
    gpufec_family family;
    /* variant: what runs ("staircase"), at most variant_len bytes */
    gpufec_status (*create)(const gpufec_code* code, int device, void** state, char* variant, size_t variant_len,
                            gpufec_diag* diag);
    void (*destroy)(void* state);
    gpufec_status (*encode)(void* state, const uint8_t* info, size_t n_frames, uint8_t* out, void* stream);
    gpufec_status (*encode_host)(void* state, const uint8_t* info, size_t n_frames, uint8_t* out);
} device_encoder_ops;

/* NULL-terminated; empty without CUDA. */
extern const device_encoder_ops* const device_encoder_registry[];

#endif
