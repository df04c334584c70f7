/* Decoder contexts: option checking, backend selection (AUTO falls back to the CPU) and the
 * batch decode entry point shared by all backends. */
#include "bit_pack.h"
#include "crc24.h"
#include "cuda_tuning.h"
#include "decoder_internal.h"
#include "pos_run.h"
#include "soft_input.h"
#include "text_reader.h"

#include <math.h>
#include <stdarg.h>
#include <stdint.h>
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
    o->max_iterations = 20;
    o->early_termination = 1;
    o->output = GPUFEC_OUTPUT_INFO;
    o->max_batch = 0;
    o->input_type = GPUFEC_INPUT_FLOAT32;
    o->input_scale = 0.25f;
    for (const family_record* const* f = family_registry; *f; f++)
        (*f)->defaults(o);
    return GPUFEC_OK;
}

void decoder_log(const decoder_config* cfg, gpufec_log_level level, const char* fmt, ...)
{
    if (!cfg->opts.log_fn)
        return;
    char msg[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    cfg->opts.log_fn(cfg->opts.log_user, level, msg);
}

#define OPT_FAIL(st, ...) text_fail_as((st), diag, 0, __VA_ARGS__)

/* The options every family has, then the code's family's own (without a code, every family's:
 * each checks only its own fields). */
static gpufec_status check_opts(const gpufec_decoder_opts* o, const gpufec_code* code, gpufec_diag* diag)
{
    gpufec_status st = param_check_values(o, code, diag); /* every value against the table */
    if (st)
        return st;
    const gpufec_status bad = GPUFEC_ERR_INVALID_ARGUMENT;
    if ((o->cuda_tuning & ~(uint32_t)GPUFEC_CUDA_TUNING_ALL) ||
        (o->cuda_tuning & GPUFEC_CUDA_QC_STATE_GLOBAL && o->cuda_tuning & GPUFEC_CUDA_QC_STATE_SHARED) ||
        (o->cuda_tuning & GPUFEC_CUDA_PACKED_BYTES && o->cuda_tuning & GPUFEC_CUDA_PACKED_HALF2) ||
        (o->cuda_tuning & GPUFEC_CUDA_NO_LATENCY_PLAN && o->cuda_tuning & GPUFEC_CUDA_LATENCY_PLAN))
        return OPT_FAIL(bad, "cuda_tuning=0x%x: unknown flags, or contradicting ones (row state global and shared, "
                             "packed bytes and half2, latency plan off and on)",
                        o->cuda_tuning);
    if (code)
        return code->family->check_opts(o, code, diag);
    for (const family_record* const* f = family_registry; *f; f++) { /* each checks its own rules */
        st = (*f)->check_opts(o, NULL, diag);
        if (st)
            return st;
    }
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

gpufec_status gpufec_decoder_kernel_seconds(const gpufec_decoder* dec, double* seconds)
{
    if (!dec || !seconds)
        return GPUFEC_ERR_INVALID_ARGUMENT;
    *seconds = 0.0;
    if (!dec->ops->kernel_seconds)
        return GPUFEC_OK; /* a host implementation: no kernels */
    if (!dec->cfg.opts.kernel_timing)
        return GPUFEC_ERR_UNSUPPORTED; /* the events cost every call; asked for at creation */
    *seconds = dec->ops->kernel_seconds(dec->state);
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

/* Walks the registry in preference order, the code's family only, and keeps the first
 * implementation that accepts and creates. With a backend named, only its entries are tried;
 * with AUTO every entry, each decline and failed creation logged with its reason. */
static gpufec_status choose_implementation(gpufec_decoder* dec, gpufec_backend backend)
{
    decoder_config* cfg = &dec->cfg;
    const gpufec_code* code = cfg->code;
#ifdef GPUFEC_HAVE_CUDA
    char why[512] = "no GPU implementation of this family";
#else
    char why[512] = "this library was built without CUDA";
#endif
    gpufec_status st = backend == GPUFEC_BACKEND_CUDA ? GPUFEC_ERR_NO_DEVICE : GPUFEC_ERR_INTERNAL;
    int declined = 0;
    char last_reason[256] = "";
    for (const backend_ops* const* r = decoder_registry; *r; r++) {
        const backend_ops* impl = *r;
        if (impl->family != code->family->id || (backend != GPUFEC_BACKEND_AUTO && impl->backend != backend))
            continue;
        char reason[256];
        if (!impl->accepts(cfg, reason, sizeof reason)) {
            if (declined && strcmp(reason, last_reason) == 0) { /* said once (no GPU: every GPU entry) */
                declined++;
                continue;
            }
            snprintf(last_reason, sizeof last_reason, "%s", reason);
            if (backend == GPUFEC_BACKEND_AUTO)
                decoder_log(cfg, GPUFEC_LOG_INFO, "backend auto: %s declined (%s)", impl->name, reason);
            if (declined && backend != GPUFEC_BACKEND_AUTO) { /* every reason, for the error below */
                const size_t used = strlen(why);
                snprintf(why + used, sizeof why - used, "; %s", reason);
            } else {
                snprintf(why, sizeof why, "%s", reason);
            }
            declined++;
            continue;
        }
        memset(&dec->caps, 0, sizeof dec->caps);
        st = impl->create(cfg, &dec->state, &dec->caps);
        if (st == GPUFEC_OK) {
            dec->backend = impl->backend;
            dec->ops = impl;
            if (dec->caps.schedule != GPUFEC_SCHEDULE_AUTO)
                cfg->opts.schedule = dec->caps.schedule;
            if (backend == GPUFEC_BACKEND_AUTO && impl->backend == GPUFEC_BACKEND_CPU && !declined)
                decoder_log(cfg, GPUFEC_LOG_INFO, "backend auto: using the CPU (%s)", why); /* no GPU entry */
            return GPUFEC_OK;
        }
        if (backend != GPUFEC_BACKEND_AUTO)
            break;
        decoder_log(cfg, GPUFEC_LOG_WARNING, "backend auto: %s creation failed (%s); trying the next", impl->name,
                    gpufec_status_str(st));
        declined++;
    }
    if (st == GPUFEC_ERR_NO_DEVICE)
        decoder_log(cfg, GPUFEC_LOG_ERROR, "backend cuda unavailable: %s", why);
    if (st == GPUFEC_ERR_INTERNAL && declined) { /* every implementation declined: say why */
        decoder_log(cfg, GPUFEC_LOG_ERROR, "no implementation decodes these settings: %s", why);
        st = GPUFEC_ERR_UNSUPPORTED;
    }
    return st;
}

/* The fallback policy: with backend AUTO, a GPU that fails while decoding (a device fault, its
 * memory gone) hands the context to the CPU implementation, logged, and the call is decoded
 * again there; nothing is lost. A backend named explicitly reports the error instead. */
static int fall_back_to_cpu(gpufec_decoder* dec, gpufec_status failure)
{
    if (dec->cfg.opts.backend != GPUFEC_BACKEND_AUTO || dec->backend != GPUFEC_BACKEND_CUDA ||
        (failure != GPUFEC_ERR_DEVICE && failure != GPUFEC_ERR_DEVICE_OUT_OF_MEMORY))
        return 0;
    decoder_log(&dec->cfg, GPUFEC_LOG_ERROR, "%s decoding failed (%s); continuing on the CPU", dec->ops->name,
                gpufec_status_str(failure));
    if (dec->ops->synchronize)
        (void)dec->ops->synchronize(dec->state); /* no copy of the failed call may land later */
    dec->ops->destroy(dec->state);
    dec->state = NULL;
    dec->ops = NULL;
    return choose_implementation(dec, GPUFEC_BACKEND_CPU) == GPUFEC_OK;
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
    decoder_config* cfg = &dec->cfg;
    cfg->code = code;
    cfg->opts = o;
    code->family->resolve_opts(&cfg->opts, code);
    /* The packed outputs are the unpacked ones, packed at the end: implementations see the
     * unpacked form. */
    cfg->pack = o.output >= GPUFEC_OUTPUT_INFO_PACKED;
    if (cfg->pack)
        o.output = (gpufec_output)(o.output - GPUFEC_OUTPUT_INFO_PACKED);
    cfg->opts.output = o.output;
    switch (o.output) {
    case GPUFEC_OUTPUT_INFO:
        dec->out_pos = code->info_pos;
        dec->out_len = code->k;
        break;
    case GPUFEC_OUTPUT_CODEWORD:
        dec->out_pos = code->tx.tx_pos; /* NULL when every position is transmitted once, in order */
        dec->out_len = code->tx.n_tx;
        break;
    default:
        dec->out_pos = NULL;
        dec->out_len = code->n_full;
        break;
    }
    /* A CRC is checked on the whole decoded word, for every implementation alike (by the front,
     * or by an implementation that finishes the output). */
    cfg->check_crc = code->crc_poly != 0;
    cfg->crc_word = cfg->check_crc && o.output == GPUFEC_OUTPUT_INFO;
    cfg->out_pos = cfg->crc_word ? code->mother_info_pos : cfg->check_crc ? NULL : dec->out_pos;
    cfg->out_len = cfg->crc_word ? code->k + code->crc_len : cfg->check_crc ? code->n_full : dec->out_len;
    cfg->user_pos = dec->out_pos;
    cfg->user_len = dec->out_len;
    dec->out_bytes = cfg->pack ? packed_bytes(dec->out_len) : dec->out_len;
    /* Output positions in one run (systematic codes: the information bits first) are copied
     * whole when the front gathers them. */
    dec->out_run = dec->out_pos && dec->out_len > 0 && pos_run_start(dec->out_pos, dec->out_len) >= 0;

    st = choose_implementation(dec, o.backend);
    if (st != GPUFEC_OK) {
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
    dec->ops->destroy(dec->state);
    free(dec->hard);
    free(dec->wide);
    free(dec);
    return GPUFEC_OK;
}

gpufec_status gpufec_decoder_frame_sizes(const gpufec_decoder* dec, uint32_t* llr_len,
                                         uint32_t* out_len)
{
    if (!dec)
        return GPUFEC_ERR_INVALID_ARGUMENT;
    if (llr_len)
        *llr_len = dec->cfg.code->tx.n_tx;
    if (out_len)
        *out_len = dec->out_bytes;
    return GPUFEC_OK;
}

gpufec_status gpufec_decoder_preferred_batch(const gpufec_decoder* dec, size_t* frames)
{
    if (!dec || !frames)
        return GPUFEC_ERR_INVALID_ARGUMENT;
    *frames = dec->caps.preferred_batch;
    return GPUFEC_OK;
}

gpufec_status gpufec_decoder_backend(const gpufec_decoder* dec, gpufec_backend* backend)
{
    if (!dec || !backend)
        return GPUFEC_ERR_INVALID_ARGUMENT;
    *backend = dec->backend;
    return GPUFEC_OK;
}

gpufec_status gpufec_decoder_variant(const gpufec_decoder* dec, char* name, size_t length)
{
    if (!dec || !name || !length)
        return GPUFEC_ERR_INVALID_ARGUMENT;
    snprintf(name, length, "%s%s%s", dec->ops->name, dec->caps.variant[0] ? " " : "", dec->caps.variant);
    return GPUFEC_OK;
}

gpufec_status gpufec_decoder_set_frame_index(gpufec_decoder* dec, uint64_t next)
{
    if (!dec)
        return GPUFEC_ERR_INVALID_ARGUMENT;
    if (dec->ops->set_frame_index)
        dec->ops->set_frame_index(dec->state, next);
    return GPUFEC_OK;
}

gpufec_status gpufec_decoder_set_max_iterations(gpufec_decoder* dec, int max_iterations)
{
    double lo, hi;
    if (!dec || !param_in_range("max_iterations", max_iterations, &lo, &hi))
        return GPUFEC_ERR_INVALID_ARGUMENT;
    dec->cfg.opts.max_iterations = max_iterations;
    return GPUFEC_OK;
}

gpufec_status gpufec_decoder_decode(gpufec_decoder* dec, const float* llr, size_t n_frames,
                                    uint8_t* bits, int32_t* iterations, uint8_t* converged)
{
    if (dec && dec->cfg.opts.input_type != GPUFEC_INPUT_FLOAT32) {
        decoder_log(&dec->cfg, GPUFEC_LOG_ERROR, "input_type=%s: use gpufec_decoder_decode_soft",
                    gpufec_input_type_name(dec->cfg.opts.input_type));
        return GPUFEC_ERR_INVALID_ARGUMENT;
    }
    return gpufec_decoder_decode_soft(dec, llr, n_frames, bits, iterations, converged);
}

/* The CRC over a decoded mother word: the information bits and the crc_len after them. */
/* word: a mother codeword, or (pos NULL) the bits the CRC covers, in order */
static int crc_holds(const gpufec_code* c, const uint8_t* word, const uint32_t* pos)
{
    return crc_register_at(word, pos, c->k + c->crc_len, c->crc_poly, c->crc_len) == 0;
}

/* The erased-frame rule, once for every host implementation: a frame whose every transmitted
 * soft value tells the decoder nothing (an erasure after soft_sanitize, or at the decoder's
 * storage step, caps.erasure_inv_step, a value that rounds to zero steps) carries no
 * information and is never reported decoded, whatever the decoder converged on. */
static int frame_says_nothing(const float* x, uint32_t n, float inv_step)
{
    for (uint32_t j = 0; j < n; j++) {
        const float v = soft_sanitize(x[j]);
        if (inv_step != 0.0f ? rintf(v * inv_step) != 0.0f : v != 0.0f)
            return 0;
    }
    return 1;
}

/* The rule applied to nf frames of float32 LLRs a host implementation decoded. */
static void clear_erased(const gpufec_decoder* dec, const float* llr, size_t nf, uint8_t* ok)
{
    const uint32_t n_tx = dec->cfg.code->tx.n_tx;
    for (size_t f = 0; ok && f < nf; f++)
        if (ok[f] && frame_says_nothing(llr + f * n_tx, n_tx, dec->caps.erasure_inv_step))
            ok[f] = 0;
}

/* The context's buffers for a chunk of `frames`: mother codewords (gathering) and float32 soft
 * values (widening). */
static gpufec_status chunk_buffers(gpufec_decoder* dec, size_t frames, int gather, int widen)
{
    const decoder_config* cfg = &dec->cfg;
    if (gather && dec->hard_frames < frames) {
        const size_t len = cfg->out_len > cfg->code->n_full ? cfg->out_len : cfg->code->n_full;
        uint8_t* h = realloc(dec->hard, frames * len);
        if (!h)
            return GPUFEC_ERR_OUT_OF_MEMORY;
        dec->hard = h;
        dec->hard_frames = frames;
    }
    if (widen && dec->wide_frames < frames) {
        float* w = realloc(dec->wide, frames * cfg->code->tx.n_tx * sizeof *w);
        if (!w)
            return GPUFEC_ERR_OUT_OF_MEMORY;
        dec->wide = w;
        dec->wide_frames = frames;
    }
    return GPUFEC_OK;
}

/* Whether the front makes what the caller gets from what the implementation wrote: the CRC to
 * check, output positions to gather or bits to pack, which the implementation leaves. */
static int front_finishes(const gpufec_decoder* dec)
{
    return !dec->caps.finishes_output &&
           (dec->cfg.check_crc || (dec->cfg.out_pos && !dec->caps.writes_output) || dec->cfg.pack);
}

/* One call, the per-frame work around the implementation done here once: a host implementation
 * gets float32 LLRs (narrow types widened a chunk at a time, soft_input.h) and its frames judged
 * by the erased-frame rule; a device implementation (ops->raw_input) reads the caller's buffer,
 * which may be device memory, and applies the same rules in its load kernel. Then the CRC is
 * checked and the output positions gathered when the implementation writes whole codewords. */
static gpufec_status decode_once(gpufec_decoder* dec, const void* llr, size_t n_frames, uint8_t* bits,
                                 int32_t* iterations, uint8_t* converged)
{
    const decoder_config* cfg = &dec->cfg;
    const uint32_t n_tx = cfg->code->tx.n_tx, n_full = cfg->code->n_full;
    const int host = !dec->ops->raw_input, widen = host && cfg->opts.input_type != GPUFEC_INPUT_FLOAT32;
    const int gather = front_finishes(dec);
    /* what the implementation wrote per frame: cfg's output positions (the caller's, or the bits
     * the CRC covers, the caller's first), or whole mother codewords */
    const int gathered = dec->caps.writes_output && (!cfg->check_crc || cfg->crc_word);
    const size_t impl_len = dec->caps.writes_output ? cfg->out_len : n_full;
    if (!gather && !widen) {
        gpufec_status st = dec->ops->decode(dec->state, llr, n_frames, bits, iterations, converged);
        if (st == GPUFEC_OK && host)
            clear_erased(dec, llr, n_frames, converged);
        return st;
    }
    /* Chunks of the implementation's batch (or 256 frames); widened chunks of about 8 MiB at
     * most, in whole groups of 64 frames (the widest CPU vector group), unless its batch is
     * larger. */
    size_t chunk = dec->caps.preferred_batch ? dec->caps.preferred_batch : 256;
    size_t wide_cap = ((size_t)8 << 20) / ((size_t)n_tx * sizeof(float));
    wide_cap = wide_cap < 64 ? 64 : wide_cap / 64 * 64;
    if (widen && chunk > wide_cap)
        chunk = dec->caps.preferred_batch > wide_cap ? dec->caps.preferred_batch : wide_cap;
    gpufec_status st = chunk_buffers(dec, chunk, gather, widen);
    if (st)
        return st;
    const size_t width = soft_input_bytes(cfg->opts.input_type);
    for (size_t f = 0; f < n_frames; f += chunk) {
        const size_t nf = n_frames - f < chunk ? n_frames - f : chunk;
        const void* in = (const char*)llr + f * n_tx * width;
        if (widen) {
            for (size_t i = 0; i < nf * n_tx; i++)
                dec->wide[i] = soft_input_value(in, i, cfg->opts.input_type, cfg->opts.input_scale);
            in = dec->wide;
        }
        uint8_t* out = gather ? dec->hard : bits + f * dec->out_bytes;
        uint8_t* ok = converged ? converged + f : NULL;
        st = dec->ops->decode(dec->state, in, nf, out, iterations ? iterations + f : NULL, ok);
        if (st)
            return st;
        if (host)
            clear_erased(dec, in, nf, ok);
        for (size_t g = 0; gather && g < nf; g++) {
            uint8_t* dst = bits + (f + g) * dec->out_bytes;
            const uint8_t* src = dec->hard + g * impl_len;
            if (cfg->check_crc && ok && ok[g])
                ok[g] = crc_holds(cfg->code, src, gathered ? NULL : cfg->code->mother_info_pos);
            /* the caller's bit t is from[pos[t]] (pos NULL: from[t]) */
            const uint8_t* from = src;
            const uint32_t* pos = gathered || dec->out_run ? NULL : dec->out_pos;
            if (!gathered && dec->out_run)
                from = src + dec->out_pos[0];
            if (cfg->pack)
                for (uint32_t j = 0; j < dec->out_bytes; j++)
                    dst[j] = packed_byte(from, pos, dec->out_len, j);
            else if (pos)
                for (uint32_t t = 0; t < dec->out_len; t++)
                    dst[t] = from[pos[t]];
            else
                memcpy(dst, from, dec->out_len);
        }
    }
    return GPUFEC_OK;
}

/* Whether n_frames frames of input and output can be addressed at all: a count whose byte size
 * wraps around SIZE_MAX is refused (it addressed the wrong memory). */
static int frames_addressable(const gpufec_decoder* dec, size_t n_frames)
{
    const size_t in = (size_t)dec->cfg.code->tx.n_tx * soft_input_bytes(dec->cfg.opts.input_type);
    const size_t out = dec->out_len > dec->cfg.code->n_full ? dec->out_len : dec->cfg.code->n_full;
    if ((in && n_frames > SIZE_MAX / in) || (out && n_frames > SIZE_MAX / out) || n_frames > SIZE_MAX / 4) {
        decoder_log(&dec->cfg, GPUFEC_LOG_ERROR, "n_frames=%zu: more frames than memory can address", n_frames);
        return 0;
    }
    return 1;
}

gpufec_status gpufec_decoder_decode_soft(gpufec_decoder* dec, const void* llr, size_t n_frames,
                                         uint8_t* bits, int32_t* iterations, uint8_t* converged)
{
    if (!dec || (n_frames && (!llr || !bits)) || !frames_addressable(dec, n_frames))
        return GPUFEC_ERR_INVALID_ARGUMENT;
    if (n_frames == 0)
        return GPUFEC_OK;
    gpufec_status st = decode_once(dec, llr, n_frames, bits, iterations, converged);
    if (st != GPUFEC_OK && fall_back_to_cpu(dec, st))
        st = decode_once(dec, llr, n_frames, bits, iterations, converged);
    return st;
}

gpufec_status gpufec_decoder_decode_async(gpufec_decoder* dec, const float* llr, size_t n_frames,
                                          uint8_t* bits, int32_t* iterations, uint8_t* converged,
                                          void* cuda_stream)
{
    if (dec && dec->cfg.opts.input_type != GPUFEC_INPUT_FLOAT32) {
        decoder_log(&dec->cfg, GPUFEC_LOG_ERROR, "input_type=%s: use gpufec_decoder_decode_soft_async",
                    gpufec_input_type_name(dec->cfg.opts.input_type));
        return GPUFEC_ERR_INVALID_ARGUMENT;
    }
    return gpufec_decoder_decode_soft_async(dec, llr, n_frames, bits, iterations, converged, cuda_stream);
}

gpufec_status gpufec_decoder_decode_soft_async(gpufec_decoder* dec, const void* llr, size_t n_frames,
                                               uint8_t* bits, int32_t* iterations, uint8_t* converged,
                                               void* cuda_stream)
{
    if (!dec || (n_frames && (!llr || !bits)) || !frames_addressable(dec, n_frames))
        return GPUFEC_ERR_INVALID_ARGUMENT;
    if (n_frames == 0)
        return GPUFEC_OK;
    if (!dec->ops->decode_async || front_finishes(dec))
        return gpufec_decoder_decode_soft(dec, llr, n_frames, bits, iterations, converged);
    gpufec_status st = dec->ops->decode_async(dec->state, llr, n_frames, bits, iterations, converged, cuda_stream);
    if (st != GPUFEC_OK && fall_back_to_cpu(dec, st)) /* the CPU decodes synchronously */
        st = decode_once(dec, llr, n_frames, bits, iterations, converged);
    return st;
}

gpufec_status gpufec_decoder_synchronize(gpufec_decoder* dec)
{
    if (!dec)
        return GPUFEC_ERR_INVALID_ARGUMENT;
    return dec->ops->synchronize ? dec->ops->synchronize(dec->state) : GPUFEC_OK;
}

gpufec_status gpufec_decoder_symmetric(const gpufec_decoder* dec, int* symmetric)
{
    if (!dec || !symmetric)
        return GPUFEC_ERR_INVALID_ARGUMENT;
    *symmetric = !dec->caps.asymmetric;
    return GPUFEC_OK;
}

gpufec_status gpufec_decoder_schedule(const gpufec_decoder* dec, gpufec_schedule* s)
{
    if (!dec || !s)
        return GPUFEC_ERR_INVALID_ARGUMENT;
    *s = dec->cfg.opts.schedule;
    return GPUFEC_OK;
}
