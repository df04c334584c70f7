/* Decoder contexts: option checking, backend selection (AUTO falls back to the CPU) and the
 * batch decode entry point shared by all backends. */
#include "decoder_internal.h"
#include "soft_input.h"
#include "text_reader.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

gpufec_status gpufec_decoder_opts_default(gpufec_decoder_opts* o)
{
    if (!o)
        return GPUFEC_ERR_INVALID_ARGUMENT;
    memset(o, 0, sizeof *o);
    o->backend = GPUFEC_BACKEND_AUTO;
    o->device = 0;
    o->algorithm = GPUFEC_ALG_NMS;
    o->max_iterations = 20;
    o->normalization = 0.75f;
    o->offset = 0.5f;
    o->early_termination = 1;
    o->output = GPUFEC_OUTPUT_INFO;
    o->max_batch = 0;
    o->schedule = GPUFEC_SCHEDULE_AUTO;
    o->pgab_p = 0.8f;
    o->pgab_start = 16;
    o->seed = 1;
    o->cpu_simd = 1;
    o->syndrome_interval = 1;
    o->precision = GPUFEC_PRECISION_FLOAT32;
    o->quant_step = 0.25f;
    o->input_type = GPUFEC_INPUT_FLOAT32;
    o->input_scale = 0.25f;
    return GPUFEC_OK;
}

void decoder_log(const gpufec_decoder* dec, gpufec_log_level level, const char* fmt, ...)
{
    if (!dec->opts.log_fn)
        return;
    char msg[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    dec->opts.log_fn(dec->opts.log_user, level, msg);
}

#define OPT_FAIL(st, ...) text_fail_as((st), diag, 0, __VA_ARGS__)

/* Every option checked, with the parameter and the reason in diag. code may be NULL (then the
 * checks that depend on the code are skipped). */
static gpufec_status check_opts(const gpufec_decoder_opts* o, const gpufec_code* code, gpufec_diag* diag)
{
    const gpufec_status bad = GPUFEC_ERR_INVALID_ARGUMENT, unsupported = GPUFEC_ERR_UNSUPPORTED;
    if (o->backend < GPUFEC_BACKEND_AUTO || o->backend > GPUFEC_BACKEND_CUDA)
        return OPT_FAIL(bad, "backend=%d: not auto, cpu or cuda", (int)o->backend);
    if (o->algorithm < GPUFEC_ALG_SPA || o->algorithm > GPUFEC_ALG_PGAB)
        return OPT_FAIL(bad, "algorithm=%d: no such algorithm", (int)o->algorithm);
    if (o->schedule < GPUFEC_SCHEDULE_AUTO || o->schedule > GPUFEC_SCHEDULE_LAYERED)
        return OPT_FAIL(bad, "schedule=%d: not auto, flooding or layered", (int)o->schedule);
    if (!(o->pgab_p >= 0.0f && o->pgab_p <= 1.0f))
        return OPT_FAIL(bad, "pgab_p=%g: a probability, must be in [0, 1]", (double)o->pgab_p);
    if (o->pgab_start < 1)
        return OPT_FAIL(bad, "pgab_start=%d: the first perturbed iteration, must be >= 1", o->pgab_start);
    if (o->max_iterations < 1 || o->max_iterations > 10000)
        return OPT_FAIL(bad, "max_iterations=%d: must be 1..10000", o->max_iterations);
    if (!(o->normalization > 0.0f && o->normalization <= 1.0f))
        return OPT_FAIL(bad, "norm=%g: the NMS factor must be in (0, 1]", (double)o->normalization);
    if (!(o->offset >= 0.0f && o->offset < 1.0e3f))
        return OPT_FAIL(bad, "offset=%g: the OMS offset must be in [0, 1000)", (double)o->offset);
    if (o->output < GPUFEC_OUTPUT_INFO || o->output > GPUFEC_OUTPUT_FULL_CODEWORD)
        return OPT_FAIL(bad, "output=%d: not info, codeword or full codeword", (int)o->output);
    if (o->device < 0)
        return OPT_FAIL(bad, "device=%d: a CUDA device index, must be >= 0", o->device);
    if (o->syndrome_interval < 1)
        return OPT_FAIL(bad, "syndrome_interval=%d: must be >= 1", o->syndrome_interval);
    if (o->precision < GPUFEC_PRECISION_FLOAT32 || o->precision > GPUFEC_PRECISION_INT8)
        return OPT_FAIL(bad, "precision=%d: not float32, float16 or int8", (int)o->precision);
    if (!(o->quant_step >= 1.0e-3f && o->quant_step <= 1.0e3f))
        return OPT_FAIL(bad, "quant_step=%g: must be in [0.001, 1000]", (double)o->quant_step);
    if (o->input_type < GPUFEC_INPUT_FLOAT32 || o->input_type > GPUFEC_INPUT_INT8)
        return OPT_FAIL(bad, "input_type=%d: not float32, float16 or int8", (int)o->input_type);
    if (!(o->input_scale > 0.0f && o->input_scale <= 1.0e3f))
        return OPT_FAIL(bad, "input_scale=%g: the LLR of one int8 unit, must be in (0, 1000]",
                        (double)o->input_scale);
    const uint32_t known = GPUFEC_CUDA_NO_QC_KERNEL | GPUFEC_CUDA_QC_STATE_GLOBAL | GPUFEC_CUDA_QC_STATE_SHARED |
                           GPUFEC_CUDA_NO_COMPRESSED_MESSAGES;
    if ((o->cuda_tuning & ~known) ||
        (o->cuda_tuning & GPUFEC_CUDA_QC_STATE_GLOBAL && o->cuda_tuning & GPUFEC_CUDA_QC_STATE_SHARED))
        return OPT_FAIL(bad, "cuda_tuning=0x%x: unknown flags, or row state both global and shared",
                        o->cuda_tuning);
    const int hard = o->algorithm >= GPUFEC_ALG_GALLAGER_A;
    if (hard && o->schedule == GPUFEC_SCHEDULE_LAYERED)
        return OPT_FAIL(unsupported, "schedule=layered: %s runs the flooding schedule only",
                        gpufec_algorithm_name(o->algorithm));
    /* Reduced precision is defined for the min-sum family's layered state; the hard-decision
     * decoders keep no soft state and ignore it. */
    if (o->precision != GPUFEC_PRECISION_FLOAT32 && !hard &&
        (o->algorithm == GPUFEC_ALG_SPA || o->schedule == GPUFEC_SCHEDULE_FLOODING))
        return OPT_FAIL(unsupported, "precision=%s: needs ms, nms or oms with the layered schedule (here %s, %s)",
                        gpufec_precision_name(o->precision), gpufec_algorithm_name(o->algorithm),
                        gpufec_schedule_name(o->schedule));
    /* A punctured position has no channel bit, and the hard-decision rules have no way to say
     * "unknown": it would enter as a confident 0 and fail most frames. */
    if (hard && code && code->punctured)
        return OPT_FAIL(unsupported, "algorithm=%s: the code has %u punctured positions, which carry no "
                        "channel bit; hard-decision decoders need every position transmitted",
                        gpufec_algorithm_name(o->algorithm), code->punctured);
    return GPUFEC_OK;
}

gpufec_status gpufec_decoder_opts_check(const gpufec_decoder_opts* opts, const gpufec_code* code,
                                        gpufec_diag* diag)
{
    if (diag) {
        diag->line = 0;
        diag->message[0] = '\0';
    }
    if (!opts)
        return OPT_FAIL(GPUFEC_ERR_INVALID_ARGUMENT, "opts is NULL");
    return check_opts(opts, code, diag);
}

/* Hard-decision decoders are flooding only. AUTO picks layered where the backend has it: it
 * converges in about half the iterations of flooding. */
static gpufec_schedule resolve_schedule(const gpufec_decoder_opts* o, gpufec_backend b)
{
    if (o->algorithm >= GPUFEC_ALG_GALLAGER_A)
        return GPUFEC_SCHEDULE_FLOODING;
    if (o->schedule != GPUFEC_SCHEDULE_AUTO)
        return o->schedule;
    (void)b; /* both backends have layered for SPA and the min-sum family */
    return GPUFEC_SCHEDULE_LAYERED;
}

gpufec_status gpufec_decoder_kernel_seconds(const gpufec_decoder* dec, double* seconds)
{
    if (!dec || !seconds)
        return GPUFEC_ERR_INVALID_ARGUMENT;
    *seconds = dec->ops->kernel_seconds ? dec->ops->kernel_seconds(dec) : 0.0;
    return GPUFEC_OK;
}

gpufec_status gpufec_host_alloc(void** ptr, size_t bytes)
{
    if (!ptr)
        return GPUFEC_ERR_INVALID_ARGUMENT;
#ifdef GPUFEC_HAVE_CUDA
    char why[8];
    if (cuda_backend_probe(0, why, sizeof why) && cuda_util_host_alloc(ptr, bytes) == 0)
        return GPUFEC_OK;
#endif
    *ptr = malloc(bytes ? bytes : 1);
    return *ptr ? GPUFEC_OK : GPUFEC_ERR_OUT_OF_MEMORY;
}

gpufec_status gpufec_host_free(void* ptr)
{
#ifdef GPUFEC_HAVE_CUDA
    char why[8];
    if (ptr && cuda_backend_probe(0, why, sizeof why) && cuda_util_host_free(ptr) == 0)
        return GPUFEC_OK; /* it was page-locked; otherwise it came from malloc */
#endif
    free(ptr);
    return GPUFEC_OK;
}

gpufec_status gpufec_cuda_bandwidth(int device, double* d2d_gbps, double* h2d_gbps)
{
    if (!d2d_gbps || !h2d_gbps)
        return GPUFEC_ERR_INVALID_ARGUMENT;
#ifdef GPUFEC_HAVE_CUDA
    char why[8];
    if (!cuda_backend_probe(device, why, sizeof why))
        return GPUFEC_ERR_NO_DEVICE;
    return cuda_util_bandwidth(device, d2d_gbps, h2d_gbps) == 0 ? GPUFEC_OK : GPUFEC_ERR_DEVICE;
#else
    (void)device;
    return GPUFEC_ERR_NO_DEVICE;
#endif
}

int gpufec_cuda_available(void)
{
#ifdef GPUFEC_HAVE_CUDA
    char why[8];
    return cuda_backend_probe(0, why, sizeof why);
#else
    return 0;
#endif
}

gpufec_status gpufec_decoder_create(gpufec_decoder** out, const gpufec_code* code,
                                    const gpufec_decoder_opts* opts)
{
    if (!out || !code)
        return GPUFEC_ERR_INVALID_ARGUMENT;
    *out = NULL;
    gpufec_decoder_opts o;
    if (opts)
        o = *opts;
    else
        gpufec_decoder_opts_default(&o);
    gpufec_diag why_not;
    gpufec_status st = gpufec_decoder_opts_check(&o, code, &why_not);
    if (st) {
        if (o.log_fn)
            o.log_fn(o.log_user, GPUFEC_LOG_ERROR, why_not.message);
        return st;
    }
    gpufec_decoder* dec = calloc(1, sizeof *dec);
    if (!dec)
        return GPUFEC_ERR_OUT_OF_MEMORY;
    dec->code = code;
    dec->opts = o;
    switch (o.output) {
    case GPUFEC_OUTPUT_INFO:
        dec->out_pos = code->info_pos;
        dec->out_len = code->k;
        break;
    case GPUFEC_OUTPUT_CODEWORD:
        dec->out_pos = code->tx_pos; /* NULL when every position is transmitted */
        dec->out_len = code->n_tx;
        break;
    default:
        dec->out_pos = NULL;
        dec->out_len = code->n;
        break;
    }

    /* The registry in preference order. With a backend named, only its entries are tried; with
     * AUTO every entry, each decline and failed creation logged with its reason. */
    char why[256] = "this library was built without CUDA";
    st = o.backend == GPUFEC_BACKEND_CUDA ? GPUFEC_ERR_NO_DEVICE : GPUFEC_ERR_INTERNAL;
    int created = 0;
    for (const backend_ops* const* r = decoder_registry; *r && !created; r++) {
        const backend_ops* impl = *r;
        if (o.backend != GPUFEC_BACKEND_AUTO && impl->backend != o.backend)
            continue;
        char reason[256];
        if (!impl->accepts(code, &o, reason, sizeof reason)) {
            if (o.backend == GPUFEC_BACKEND_AUTO)
                decoder_log(dec, GPUFEC_LOG_INFO, "backend auto: %s declined (%s)", impl->name, reason);
            snprintf(why, sizeof why, "%s", reason);
            continue;
        }
        dec->backend = impl->backend;
        dec->ops = impl;
        dec->opts.schedule = resolve_schedule(&o, dec->backend);
        st = impl->create(dec);
        created = st == GPUFEC_OK;
        if (!created && o.backend == GPUFEC_BACKEND_AUTO) {
            decoder_log(dec, GPUFEC_LOG_WARNING, "backend auto: %s creation failed (%s); trying the next",
                        impl->name, gpufec_status_str(st));
            dec->preferred_batch = 0;
            dec->backend_writes_output = 0;
        } else if (!created) {
            break;
        }
    }
    if (created && o.backend == GPUFEC_BACKEND_AUTO && dec->backend == GPUFEC_BACKEND_CPU &&
        decoder_registry[0] == &cpu_backend_ops) /* no GPU entry to decline: say why */
        decoder_log(dec, GPUFEC_LOG_INFO, "backend auto: using the CPU (%s)", why);
    if (!created) {
        if (st == GPUFEC_ERR_NO_DEVICE)
            decoder_log(dec, GPUFEC_LOG_ERROR, "backend cuda unavailable: %s", why);
        free(dec);
        return st;
    }
    *out = dec;
    return GPUFEC_OK;
}

gpufec_status gpufec_decoder_destroy(gpufec_decoder* dec)
{
    if (!dec)
        return GPUFEC_OK;
    dec->ops->destroy(dec);
    free(dec->hard);
    free(dec);
    return GPUFEC_OK;
}

gpufec_status gpufec_decoder_frame_sizes(const gpufec_decoder* dec, uint32_t* llr_len,
                                         uint32_t* out_len)
{
    if (!dec)
        return GPUFEC_ERR_INVALID_ARGUMENT;
    if (llr_len)
        *llr_len = dec->code->n_tx;
    if (out_len)
        *out_len = dec->out_len;
    return GPUFEC_OK;
}

gpufec_status gpufec_decoder_backend(const gpufec_decoder* dec, gpufec_backend* backend)
{
    if (!dec || !backend)
        return GPUFEC_ERR_INVALID_ARGUMENT;
    *backend = dec->backend;
    return GPUFEC_OK;
}

gpufec_status gpufec_decoder_set_max_iterations(gpufec_decoder* dec, int max_iterations)
{
    if (!dec || max_iterations < 1 || max_iterations > 10000)
        return GPUFEC_ERR_INVALID_ARGUMENT;
    dec->opts.max_iterations = max_iterations;
    return GPUFEC_OK;
}

gpufec_status gpufec_decoder_decode(gpufec_decoder* dec, const float* llr, size_t n_frames,
                                    uint8_t* bits, int32_t* iterations, uint8_t* converged)
{
    if (dec && dec->opts.input_type != GPUFEC_INPUT_FLOAT32) {
        decoder_log(dec, GPUFEC_LOG_ERROR, "input_type=%s: use gpufec_decoder_decode_soft",
                    gpufec_input_type_name(dec->opts.input_type));
        return GPUFEC_ERR_INVALID_ARGUMENT;
    }
    return gpufec_decoder_decode_soft(dec, llr, n_frames, bits, iterations, converged);
}

gpufec_status gpufec_decoder_decode_soft(gpufec_decoder* dec, const void* llr, size_t n_frames,
                                         uint8_t* bits, int32_t* iterations, uint8_t* converged)
{
    if (!dec || (n_frames && (!llr || !bits)))
        return GPUFEC_ERR_INVALID_ARGUMENT;
    if (n_frames == 0)
        return GPUFEC_OK;
    const gpufec_code* c = dec->code;
    if (!dec->out_pos || dec->backend_writes_output)
        return dec->ops->decode(dec, llr, n_frames, bits, iterations, converged);
    /* Decode in chunks into the context's codeword buffer, then gather the output positions. */
    size_t chunk = dec->preferred_batch ? dec->preferred_batch : 256;
    if (dec->hard_frames < chunk) {
        uint8_t* h = realloc(dec->hard, chunk * c->n);
        if (!h)
            return GPUFEC_ERR_OUT_OF_MEMORY;
        dec->hard = h;
        dec->hard_frames = chunk;
    }
    for (size_t f = 0; f < n_frames; f += chunk) {
        size_t nf = n_frames - f < chunk ? n_frames - f : chunk;
        const char* in = (const char*)llr + f * c->n_tx * soft_input_bytes(dec->opts.input_type);
        gpufec_status st = dec->ops->decode(dec, in, nf, dec->hard,
                                            iterations ? iterations + f : NULL,
                                            converged ? converged + f : NULL);
        if (st)
            return st;
        for (size_t g = 0; g < nf; g++)
            for (uint32_t t = 0; t < dec->out_len; t++)
                bits[(f + g) * dec->out_len + t] = dec->hard[g * c->n + dec->out_pos[t]];
    }
    return GPUFEC_OK;
}

gpufec_status gpufec_decoder_decode_async(gpufec_decoder* dec, const float* llr, size_t n_frames,
                                          uint8_t* bits, int32_t* iterations, uint8_t* converged,
                                          void* cuda_stream)
{
    if (dec && dec->opts.input_type != GPUFEC_INPUT_FLOAT32) {
        decoder_log(dec, GPUFEC_LOG_ERROR, "input_type=%s: use gpufec_decoder_decode_soft_async",
                    gpufec_input_type_name(dec->opts.input_type));
        return GPUFEC_ERR_INVALID_ARGUMENT;
    }
    return gpufec_decoder_decode_soft_async(dec, llr, n_frames, bits, iterations, converged, cuda_stream);
}

gpufec_status gpufec_decoder_decode_soft_async(gpufec_decoder* dec, const void* llr, size_t n_frames,
                                               uint8_t* bits, int32_t* iterations, uint8_t* converged,
                                               void* cuda_stream)
{
    if (!dec || (n_frames && (!llr || !bits)))
        return GPUFEC_ERR_INVALID_ARGUMENT;
    if (n_frames == 0)
        return GPUFEC_OK;
    if (!dec->ops->decode_async)
        return gpufec_decoder_decode_soft(dec, llr, n_frames, bits, iterations, converged);
    return dec->ops->decode_async(dec, llr, n_frames, bits, iterations, converged, cuda_stream);
}

gpufec_status gpufec_decoder_synchronize(gpufec_decoder* dec)
{
    if (!dec)
        return GPUFEC_ERR_INVALID_ARGUMENT;
    return dec->ops->synchronize ? dec->ops->synchronize(dec) : GPUFEC_OK;
}

gpufec_status gpufec_decoder_schedule(const gpufec_decoder* dec, gpufec_schedule* s)
{
    if (!dec || !s)
        return GPUFEC_ERR_INVALID_ARGUMENT;
    *s = dec->opts.schedule;
    return GPUFEC_OK;
}
