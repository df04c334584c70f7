/* Decoder context and the record every implementation fills in. */
#ifndef GPUFEC_DECODER_INTERNAL_H
#define GPUFEC_DECODER_INTERNAL_H

#include <gpufec/decoder.h>

#include "code_internal.h"
#include "family.h"

/* What an implementation is created for; it lives in the front object, which it never sees.
 * The front may change opts.max_iterations between decode calls (read it at decode time). */
typedef struct decoder_config {
    const gpufec_code* code;
    gpufec_decoder_opts opts; /* checked; AUTO choices resolved by the family */
    /* Output of one frame: out_len bits, bit t from mother position out_pos[t] (information or
     * transmitted positions of the code); out_pos NULL: the whole mother codeword. */
    const uint32_t* out_pos;
    uint32_t out_len;
    /* What the caller gets per frame (the front's work, unless the implementation sets
     * caps.finishes_output and does it itself, on the device where its results are): user_len
     * bits from mother positions user_pos (NULL: all) of the codeword the implementation wrote,
     * the code's CRC checked on it (check_crc: a frame fails unless it holds), packed eight per
     * byte, first bit in the most significant (pack). opts.output is the unpacked form. */
    const uint32_t* user_pos;
    uint32_t user_len;
    int check_crc;
    int pack;
    /* With check_crc and the information bits asked for: out_pos are the bits the CRC covers
     * (the information bits, then the CRC's; user_len = the first of them), so an implementation
     * that gathers writes those instead of the whole mother codeword. */
    int crc_word;
} decoder_config;

/* What an implementation tells the front at creation. */
typedef struct impl_caps {
    size_t preferred_batch; /* frames it likes per call (0: no preference) */
    int writes_output;      /* it gathers through out_pos itself; else it writes whole mother
                               codewords and the front gathers */
    int finishes_output;    /* it writes what the caller gets (cfg user_pos, user_len,
                               check_crc, pack) and clears converged where the CRC fails */
    gpufec_schedule schedule; /* set when it runs another schedule than configured (a code too
                                 long for the layered kernels): what gpufec_decoder_schedule says */
    char variant[680];        /* the variant it runs ("scalar", "AVX2 int16", a CUDA plan's
                                 description, ...); "" if one */
    int asymmetric;           /* its arithmetic saturates asymmetrically (two's complement fixed
                                 point: LDPC int8, turbo int16 and int8), so that a soft value and
                                 its negation are not treated alike; 0: symmetric */
    float erasure_inv_step;   /* the erased-frame rule at its storage step (host implementations):
                                 a soft value says nothing when rintf(v * this) is 0 (LDPC int8:
                                 1 / quant_step); 0: when it is an erasure (0, -0, NaN) */
} impl_caps;

/* One decoder implementation. lib/core/registry.c lists them in preference order. */
typedef struct backend_ops {
    const char* name;
    gpufec_family family;
    gpufec_backend backend;
    /* 0 (host implementations): decode() gets float32 LLRs, the front widening narrow input
     * types, and the front applies the erased-frame rule to its results. 1 (device
     * implementations): it reads the caller's soft values of opts.input_type (on the device,
     * where the buffer may be) and applies the rule there itself. */
    int raw_input;
    /* 1 when it can decode this configuration; else 0 and why (one clause). */
    int (*accepts)(const decoder_config* cfg, char* why, size_t why_len);
    gpufec_status (*create)(const decoder_config* cfg, void** state, impl_caps* caps);
    void (*destroy)(void* state);
    /* soft: n_frames * n transmitted values, float32 (raw_input 0) or of type opts.input_type
     * (soft_input.h); out:
     * n_frames * n_full mother bits, or n_frames * out_len bits when caps.writes_output, or
     * what the caller gets when caps.finishes_output. */
    gpufec_status (*decode)(void* state, const void* soft, size_t n_frames, uint8_t* out, int32_t* iterations,
                            uint8_t* converged);
    /* Optional: enqueue on a caller's stream without waiting, and wait later. */
    gpufec_status (*decode_async)(void* state, const void* soft, size_t n_frames, uint8_t* out,
                                  int32_t* iterations, uint8_t* converged, void* stream);
    gpufec_status (*synchronize)(void* state);
    /* Optional: seconds the device kernels of the last decode call ran. */
    double (*kernel_seconds)(const void* state);
    /* Optional (randomised decoders): the number of the next frame (gpufec_decoder_set_frame_index). */
    void (*set_frame_index)(void* state, uint64_t next);
} backend_ops;

struct gpufec_decoder {
    decoder_config cfg;
    gpufec_backend backend; /* resolved: CPU or CUDA */
    const backend_ops* ops;
    void* state;            /* the implementation's */
    impl_caps caps;
    uint8_t* hard;          /* mother codewords of one chunk, gathered by the front */
    size_t hard_frames;
    float* wide;            /* one chunk of narrow soft input widened for a host implementation */
    size_t wide_frames;
    /* What the caller gets per frame: out_len bits from mother positions out_pos (NULL: all),
     * out_bytes bytes (cfg.pack: packed). Usually cfg's own; with a CRC the implementation
     * writes whole mother codewords instead, and the front checks the CRC and gathers these,
     * unless the implementation finishes the output itself. */
    const uint32_t* out_pos;
    uint32_t out_len, out_bytes;
    int out_run;            /* out_pos is one run of consecutive positions: copied whole */
};

/* The implementations in preference order, NULL-terminated: AUTO takes the first that accepts
 * and creates; each family's CPU reference comes after its GPU entries. */
extern const backend_ops* const decoder_registry[];

#ifdef GPUFEC_HAVE_CUDA
int cuda_backend_probe(int device, char* why, size_t why_len);
int cuda_util_host_alloc(void** p, size_t bytes);
int cuda_util_host_free(void* p);
int cuda_util_bandwidth(int device, double* d2d_gbps, double* h2d_gbps);
#endif

void decoder_log(const decoder_config* cfg, gpufec_log_level level, const char* fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;

#endif
