/* gr-gpufec public C API: batch LDPC decoder contexts.
 *
 * Soft-bit convention of this API: llr[i] = ln( P(bit i = 0) / P(bit i = 1) ), so a positive
 * value means "0" and the magnitude is the confidence. For BPSK (0 -> +1, 1 -> -1) over AWGN with
 * noise variance sigma^2 per real dimension, llr = 2 y / sigma^2. NaN inputs are read as 0 (an
 * erasure) and +-Inf as +-GPUFEC_LLR_MAX; decoding still succeeds. A frame whose every soft value
 * is an erasure (0, -0 or NaN: a dead or squelched receiver) carries no information: it decodes
 * to the all-zero word, which meets every check only trivially, and is reported as not converged
 * on every backend and algorithm. */
#ifndef GPUFEC_DECODER_H
#define GPUFEC_DECODER_H

#include "code.h"
#include "common.h"

#ifdef __cplusplus
extern "C" {
#endif

#define GPUFEC_LLR_MAX 1.0e4f

typedef enum {
    GPUFEC_BACKEND_AUTO = 0, /* CUDA when built with it and a GPU is usable, else CPU (logged);
                                a GPU that fails while decoding (device fault, out of memory)
                                hands the context to the CPU, which decodes the call again
                                (logged). A backend named explicitly reports such errors. */
    GPUFEC_BACKEND_CPU = 1,
    GPUFEC_BACKEND_CUDA = 2
} gpufec_backend;

typedef enum {
    GPUFEC_SCHEDULE_AUTO = 0,     /* layered for SPA/MS/NMS/OMS where the backend has it, else flooding */
    GPUFEC_SCHEDULE_FLOODING = 1, /* all checks, then all variables */
    GPUFEC_SCHEDULE_LAYERED = 2   /* row-layered: each check row updates the posteriors at once */
} gpufec_schedule;

/* Type of the soft bits a decode call reads (gpufec_decoder_decode_soft): the same LLR
 * convention in every type. Narrower types cut the bytes copied to the GPU (by 2 or 4); the
 * conversion runs on the device there, on the host for the CPU backend, with identical values. */
typedef enum {
    GPUFEC_INPUT_FLOAT32 = 0, /* float, as gpufec_decoder_decode takes */
    GPUFEC_INPUT_FLOAT16 = 1, /* IEEE binary16 (uint16_t bit patterns), widened exactly */
    GPUFEC_INPUT_INT8 = 2     /* int8_t; LLR = value * input_scale (default 0.25, the default
                                 int8 quant_step: -128..127 covers +-32) */
} gpufec_input_type;

/* What a decode call writes per frame (gpufec_decoder_frame_sizes gives the length). */
typedef enum {
    GPUFEC_OUTPUT_INFO = 0,         /* k information bits, in gpufec_code_info_positions order */
    GPUFEC_OUTPUT_CODEWORD = 1,     /* the n transmitted bits, in the order the encoder emits
                                       them (punctured and filler positions left out): what a
                                       receiver chain re-encoding or re-modulating expects */
    GPUFEC_OUTPUT_FULL_CODEWORD = 2, /* the n_full bits of the mother codeword (what H checks),
                                       punctured and filler positions included */
    /* The same bits packed eight per byte, the first bit in the most significant bit (GNU
     * Radio's packed bytes, GR_MSB_FIRST), ceil(bits / 8) bytes per frame, the last byte's
     * unused low bits 0: an eighth of the bytes to copy back from a GPU. */
    GPUFEC_OUTPUT_INFO_PACKED = 3,
    GPUFEC_OUTPUT_CODEWORD_PACKED = 4,
    GPUFEC_OUTPUT_FULL_CODEWORD_PACKED = 5
} gpufec_output;

typedef struct {
    gpufec_backend backend;    /* default AUTO */
    int device;                /* CUDA device index, default 0 */
    gpufec_schedule schedule;  /* message schedule of the graph decoders (the LDPC families);
                                  default AUTO */
    int max_iterations;        /* default 20; range: gpufec_decoder_param_info */
    int early_termination;     /* stop a frame once it is decoded; default 1 */
    gpufec_output output;      /* default INFO */
    uint32_t max_batch;        /* frames per internal batch; 0: backend's choice */
    gpufec_log_fn log_fn;      /* optional */
    void* log_user;
    gpufec_input_type input_type; /* soft-bit type of gpufec_decoder_decode_soft; default
                                  FLOAT32 (gpufec_decoder_decode needs FLOAT32) */
    float input_scale;         /* INT8 input: LLR of one integer unit, default 0.25; > 0 */
    uint32_t cuda_tuning;      /* CUDA kernel choices forced for measurements (the flags of
                                  lib/core/cuda_tuning.h, OR-ed; not a stable API); default 0:
                                  the backend chooses */
    int kernel_timing;         /* 1: time each call's GPU kernels with CUDA events, for
                                  gpufec_decoder_kernel_seconds (on an H200 the events add about
                                  5 us to a call); default 0 */
    /* Each family's own options (binary LDPC's algorithm, norm, precision, ...: gpufec-info
       --params lists every family's with its family), set and read
       by name only (gpufec_decoder_opts_set / _get / _set_text) and filled by
       gpufec_decoder_opts_default: adding a family changes no public struct. */
    uint64_t family_options[16];
} gpufec_decoder_opts;

typedef struct gpufec_decoder gpufec_decoder;

GPUFEC_API gpufec_status gpufec_decoder_opts_default(gpufec_decoder_opts* opts);

/* Checks opts (against code when not NULL) as gpufec_decoder_create does, without creating
 * anything: GPUFEC_ERR_INVALID_ARGUMENT for a value out of range, GPUFEC_ERR_UNSUPPORTED for a
 * combination no backend decodes; diag (may be NULL) names the parameter and the reason, e.g.
 * "max_iterations=0: must be 1..10000". gpufec_decoder_create reports the same sentence through
 * the log callback. */
GPUFEC_API gpufec_status gpufec_decoder_opts_check(const gpufec_decoder_opts* opts, const gpufec_code* code,
                                                   gpufec_diag* diag);

/* Creates a decoder for `code` (which must outlive the decoder). Fails with
 * GPUFEC_ERR_NO_DEVICE when backend CUDA is asked for and cannot be had; AUTO never does. */
GPUFEC_API gpufec_status gpufec_decoder_create(gpufec_decoder** out, const gpufec_code* code,
                                               const gpufec_decoder_opts* opts);
GPUFEC_API gpufec_status gpufec_decoder_destroy(gpufec_decoder* dec);

/* Decodes n_frames frames. llr: n_frames * n soft bits (convention above). bits: n_frames * k
 * (OUTPUT_INFO), n_frames * n (OUTPUT_CODEWORD) or n_frames * n_full (OUTPUT_FULL_CODEWORD)
 * bytes of 0/1, or an eighth of that rounded up per frame (the _PACKED outputs);
 * gpufec_decoder_frame_sizes says how many. iterations (n_frames entries)
 * and converged (n_frames entries: 1 when the output is a codeword) may be NULL. A context
 * serves one thread at a time. */
GPUFEC_API gpufec_status gpufec_decoder_decode(gpufec_decoder* dec, const float* llr,
                                               size_t n_frames, uint8_t* bits,
                                               int32_t* iterations, uint8_t* converged);

/* The same for soft bits of opts.input_type: soft holds n_frames * n values of that type
 * (float, uint16_t binary16 bit patterns, or int8_t). */
GPUFEC_API gpufec_status gpufec_decoder_decode_soft(gpufec_decoder* dec, const void* soft, size_t n_frames,
                                                    uint8_t* bits, int32_t* iterations, uint8_t* converged);

/* Asynchronous form (CUDA backend): enqueues the decode after the work already queued on
 * `cuda_stream` (a cudaStream_t; NULL: the legacy default stream), returns without waiting for
 * the GPU, and makes `cuda_stream` wait for the results. llr must stay valid and bits,
 * iterations, converged must not be read until gpufec_decoder_synchronize() returns or the
 * stream has passed this point. Use pinned (gpufec_host_alloc) or device memory for full
 * overlap. With kernel_timing=1 a call of more than two internal chunks waits on the host for
 * all but the last two (to read their events).
 * On the CPU backend it decodes synchronously. One call in flight per context. */
GPUFEC_API gpufec_status gpufec_decoder_decode_async(gpufec_decoder* dec, const float* llr,
                                                     size_t n_frames, uint8_t* bits,
                                                     int32_t* iterations, uint8_t* converged,
                                                     void* cuda_stream);
GPUFEC_API gpufec_status gpufec_decoder_decode_soft_async(gpufec_decoder* dec, const void* soft,
                                                          size_t n_frames, uint8_t* bits, int32_t* iterations,
                                                          uint8_t* converged, void* cuda_stream);
/* Waits for the context's asynchronous work; returns its first error. */
GPUFEC_API gpufec_status gpufec_decoder_synchronize(gpufec_decoder* dec);

/* Sizes of one frame in and out: soft bits (n), and bytes written (k, n or n_full bits by the
 * output, one per byte, or packed eight per byte). */
GPUFEC_API gpufec_status gpufec_decoder_frame_sizes(const gpufec_decoder* dec, uint32_t* llr_len,
                                                    uint32_t* out_len);

/* Frames per decode call that keep the implementation busiest (the CUDA backend: two chunks,
 * each a whole number of waves of its thread blocks; the CPU vector paths: whole groups); 0 when
 * it has no preference. Calls of any size work. */
GPUFEC_API gpufec_status gpufec_decoder_preferred_batch(const gpufec_decoder* dec, size_t* frames);

/* The backend actually in use (AUTO resolved). */
GPUFEC_API gpufec_status gpufec_decoder_backend(const gpufec_decoder* dec, gpufec_backend* backend);

/* Which implementation and variant decodes (VOLK's habit): the registry entry's name, then the
 * variant it chose, e.g. "cpu AVX-512BW int8, 64 lanes", "cpu scalar", "cpu-simd AVX2 int16",
 * "cuda". Tests use it to tell a comparison of two variants from one of a variant with itself.
 * name receives at most length bytes, NUL-terminated. */
GPUFEC_API gpufec_status gpufec_decoder_variant(const gpufec_decoder* dec, char* name, size_t length);

/* Numbers the first frame of the next decode call (the frames after it follow). A randomised
 * decoder (PGaB) draws its perturbations from (seed, frame number), so a caller that hands frames
 * out in any order, such as a simulator's threads, gets the same decisions for the same frame on
 * any context, CPU or GPU. Without it, frames are numbered from 0 in the order the context decodes
 * them. Decoders without randomness ignore it. */
GPUFEC_API gpufec_status gpufec_decoder_set_frame_index(gpufec_decoder* dec, uint64_t next);

/* Changes the iteration limit between decode calls. */
GPUFEC_API gpufec_status gpufec_decoder_set_max_iterations(gpufec_decoder* dec, int max_iterations);

/* The schedule in use (AUTO resolved). */
GPUFEC_API gpufec_status gpufec_decoder_schedule(const gpufec_decoder* dec, gpufec_schedule* schedule);

/* Whether the implementation in use treats a soft value and its negation alike (1): float
 * arithmetic, and fixed point that saturates symmetrically (LDPC int8p16, at +-2047). Then the
 * all-zero codeword stands for every codeword on a symmetric channel, as a simulator may assume.
 * 0 where two's complement saturation is not symmetric (LDPC int8, [-128, 127]; the turbo
 * decoder's int16 and int8 vector paths, which arithmetic=auto may choose on the CPU). */
GPUFEC_API gpufec_status gpufec_decoder_symmetric(const gpufec_decoder* dec, int* symmetric);

/* Options by name. The library lists every option (the common ones, then each family's) with
 * its type, range, choices and default; the tools (--param NAME=VALUE, gpufec-info --params) and the GRC drop-downs are
 * generated from it. Enum options take their names ("nms", "layered", "int8", ...). */
typedef struct {
    const char* name;                 /* e.g. "norm" */
    const char* type;                 /* "enum", "int", "float", "uint32", "uint64" */
    double min, max;                  /* numeric range, inclusive (not for enums) */
    const char* const* choices;       /* enum: the accepted names, index = enum value */
    const char* const* choice_labels; /* enum: human labels (GRC), same order */
    size_t n_choices;
    const char* help;
    char default_value[32];           /* gpufec_decoder_opts_default's value, as text */
    const char* family;               /* "" for the options every family has, else the family
                                         ("ldpc") whose decoders read it */
    const char* applies;              /* "" when it always matters, else the settings it matters
                                         under: "option=value[|value...]" terms joined by '&',
                                         e.g. "algorithm=nms" (the GRC blocks hide it otherwise) */
} gpufec_param_info;

GPUFEC_API size_t gpufec_decoder_param_count(void);
GPUFEC_API gpufec_status gpufec_decoder_param_info(size_t index, gpufec_param_info* info);
/* Whether option `name` means anything for decoders of `code`: GPUFEC_OK for the common options
 * and the code's family's (and those it shares with another family, such as `schedule`);
 * GPUFEC_ERR_INVALID_ARGUMENT, with diag naming the option, its family and the code's, for
 * another family's option (precision on a code of another family) or an unknown name. Tools and blocks that
 * take options by name refuse such settings instead of ignoring them. */
GPUFEC_API gpufec_status gpufec_decoder_param_check_family(const char* name, const gpufec_code* code,
                                                           gpufec_diag* diag);
/* Sets option `name` from text; GPUFEC_ERR_INVALID_ARGUMENT with diag naming the option and the
 * accepted values for an unknown name or a bad value. opts keeps its other fields. */
GPUFEC_API gpufec_status gpufec_decoder_opts_set(gpufec_decoder_opts* opts, const char* name, const char* value,
                                                 gpufec_diag* diag);
/* Sets every option of `text`: "name=value" words separated by spaces or commas, e.g.
 * "backend=cuda max_iterations=10"; code (may be NULL) also refuses another family's options
 * (gpufec_decoder_param_check_family). Stops at the first bad word, which diag names. */
GPUFEC_API gpufec_status gpufec_decoder_opts_set_text(gpufec_decoder_opts* opts, const char* text,
                                                      const gpufec_code* code, gpufec_diag* diag);
/* The current value of option `name` as text (enum names, numbers). */
GPUFEC_API gpufec_status gpufec_decoder_opts_get(const gpufec_decoder_opts* opts, const char* name, char* value,
                                                 size_t length);

/* The names the tools and blocks use for each enum value (the option table's choices, listed by
 * gpufec_decoder_param_info and `gpufec-info --params`). The parsers return
 * GPUFEC_ERR_INVALID_ARGUMENT for unknown names. */
GPUFEC_API const char* gpufec_schedule_name(gpufec_schedule schedule);
GPUFEC_API gpufec_status gpufec_schedule_from_name(const char* name, gpufec_schedule* schedule);
GPUFEC_API const char* gpufec_backend_name(gpufec_backend backend);
GPUFEC_API gpufec_status gpufec_backend_from_name(const char* name, gpufec_backend* backend);
/* "info", "codeword", "full-codeword". */
GPUFEC_API const char* gpufec_output_name(gpufec_output output);
GPUFEC_API gpufec_status gpufec_output_from_name(const char* name, gpufec_output* output);
/* "float32", "float16", "int8". */
GPUFEC_API const char* gpufec_input_type_name(gpufec_input_type type);
GPUFEC_API gpufec_status gpufec_input_type_from_name(const char* name, gpufec_input_type* type);

/* Seconds the GPU kernels of the last decode call ran (sum over its chunks, copies excluded);
 * 0 for the CPU backend. The CUDA backend times its kernels only when the decoder was created
 * with kernel_timing=1; without it this returns GPUFEC_ERR_UNSUPPORTED and 0. */
GPUFEC_API gpufec_status gpufec_decoder_kernel_seconds(const gpufec_decoder* dec, double* seconds);

/* Page-locked host memory when the CUDA backend is available (copies from it are asynchronous
 * and reach the PCIe ceiling), plain malloc otherwise. Free with gpufec_host_free. */
GPUFEC_API gpufec_status gpufec_host_alloc(void** ptr, size_t bytes);
GPUFEC_API gpufec_status gpufec_host_free(void* ptr);

/* Measures the device's copy ceilings: device-to-device copy (bytes read + written per second)
 * and host-to-device from pinned memory, in GB/s. GPUFEC_ERR_NO_DEVICE without CUDA. */
GPUFEC_API gpufec_status gpufec_cuda_bandwidth(int device, double* d2d_gbps, double* h2d_gbps);

/* 1 when this library was built with CUDA and at least one GPU is usable now, else 0. */
GPUFEC_API int gpufec_cuda_available(void);

#ifdef __cplusplus
}
#endif

#endif
