#include "batch_decoder_base.h"
#include <gnuradio/block_detail.h>
#include <gnuradio/buffer.h>
#include <gnuradio/buffer_reader.h>
#include <volk/volk.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstring>

namespace gr {
namespace gpufec {

batch_decoder_base::batch_decoder_base(int max_batch, int stats_interval, bool drop_failed)
    : d_max_batch(max_batch),
      d_stats_interval(stats_interval),
      d_drop_failed(drop_failed),
      d_next_stats((uint64_t)std::max(stats_interval, 0))
{
    if (max_batch < 0)
        throw std::invalid_argument("gpufec: max_batch must be >= 0 (0: backend's choice)");
    if (stats_interval < 0)
        throw std::invalid_argument("gpufec: stats_interval must be >= 0");
}

void batch_decoder_base::setup(code_ptr code, const gpufec_decoder_opts& opts, int sign, float scale)
{
    if (!(scale > 0.0f) || !std::isfinite(scale))
        throw std::invalid_argument("gpufec: llr_scale must be a positive number");
    d_code = std::move(code);
    d_opts = opts;
    d_sign = sign < 0 ? -1 : 1;
    d_scale = scale;
    if (d_opts.input_type == GPUFEC_INPUT_INT8)
        d_opts.input_scale = scale; // narrow soft bits go to the library unscaled
    d_opts.max_batch = (uint32_t)d_max_batch; // 0: the backend chooses
    d_opts.log_fn = &batch_decoder_base::log_callback;
    d_opts.log_user = this;
    d_max_iterations.store(d_opts.max_iterations);
    create_decoder(d_opts.backend);

    gpufec_code_get_info(d_code.get(), &d_info);
    gpufec_decoder_frame_sizes(d_dec.get(), &d_llr_len, &d_out_len);
    set_output_multiple((int)d_out_len);
    set_relative_rate((uint64_t)d_out_len, (uint64_t)d_llr_len);
    set_tag_propagation_policy(TPP_DONT); // move_tags() maps them frame by frame
    if (on_gpu()) // room for a GPU-sized batch on our side of the stream
        set_min_output_buffer((long)d_out_len * gpu_batch_hint);
    message_port_register_out(pmt::mp("stats"));
}

bool batch_decoder_base::start()
{
    // GNU Radio sizes the buffer feeding a decimating block at about two frames. On the GPU that
    // means one or two frames per call and the per-call latency dominates; say how to fix it.
    auto in = detail() ? detail()->input(0) : nullptr;
    if (in && on_gpu()) {
        const long frames = (long)in->buffer()->bufsize() / (long)d_llr_len;
        if (frames < gpu_batch_hint / 4)
            d_logger->warn("input buffer holds {} frame(s): for GPU throughput set the upstream "
                           "block's min output buffer to {} items ({} frames)",
                           frames,
                           (long)d_llr_len * gpu_batch_hint,
                           gpu_batch_hint);
    }
    return block::start();
}

void batch_decoder_base::log_callback(void* user, gpufec_log_level level, const char* message)
{
    auto* self = static_cast<batch_decoder_base*>(user);
    switch (level) {
    case GPUFEC_LOG_DEBUG:
        self->d_logger->debug("{}", message);
        break;
    case GPUFEC_LOG_INFO:
        self->d_logger->info("{}", message);
        break;
    case GPUFEC_LOG_WARNING:
        self->d_logger->warn("{}", message);
        break;
    default:
        self->d_logger->error("{}", message);
        break;
    }
}

void batch_decoder_base::create_decoder(gpufec_backend backend)
{
    d_opts.backend = backend;
    d_opts.max_iterations = d_max_iterations.load();
    gpufec_decoder* dec = nullptr;
    gpufec_diag diag = { 0, "" }; // names the parameter and the reason
    throw_on_error(gpufec_decoder_opts_check(&d_opts, d_code.get(), &diag), "decoder", &diag);
    throw_on_error(gpufec_decoder_create(&dec, d_code.get(), &d_opts), "decoder");
    d_dec.reset(dec);
}

void batch_decoder_base::enable_harq(const std::string& code_name, int max_processes)
{
    if (max_processes < 0 || max_processes > 1024)
        throw std::invalid_argument("gpufec: harq_processes must be 0..1024 (0: no HARQ combining)");
    if (max_processes == 0)
        return;
    char mother[96];
    uint32_t len = 0;
    if (gpufec_code_harq_info(d_code.get(), &len, mother, sizeof mother) != GPUFEC_OK)
        throw std::invalid_argument("gpufec: harq_processes needs a 5G NR rate-matched code (e=, rv=): " + code_name +
                                    " has no soft buffer");
    if (d_opts.output != GPUFEC_OUTPUT_INFO && d_opts.output != GPUFEC_OUTPUT_CODEWORD)
        throw std::invalid_argument("gpufec: harq_processes needs output=info or output=codeword (unpacked)");
    d_harq = std::make_unique<harq_store>(code_name, d_code.get(), d_opts, (size_t)max_processes);
}

/* The HARQ frames of this call: a harq_process tag on a frame's first soft bit (an integer),
 * with rv and harq_new tags at the same item. A tag elsewhere is not a frame's: said once. */
bool batch_decoder_base::find_harq_frames(int frames)
{
    if (!d_harq)
        return false;
    static const pmt::pmt_t k_process = pmt::mp("harq_process"), k_rv = pmt::mp("rv"), k_new = pmt::mp("harq_new");
    const uint64_t r0 = nitems_read(0), end = r0 + (uint64_t)frames * d_llr_len;
    std::vector<gr::tag_t> tags;
    get_tags_in_range(tags, 0, r0, end, k_process);
    d_harq_frames.assign((size_t)frames, harq_frame());
    bool any = false;
    for (const gr::tag_t& t : tags) {
        const uint64_t rel = t.offset - r0;
        if (rel % d_llr_len || !pmt::is_integer(t.value) || pmt::to_long(t.value) < 0) {
            if (!d_warned_harq)
                d_logger->warn("harq_process tag at item {} ({}) is not a non-negative integer on a frame's first "
                               "soft bit: that frame is decoded on its own",
                               t.offset, pmt::write_string(t.value));
            d_warned_harq = true;
            continue;
        }
        harq_frame& h = d_harq_frames[(size_t)(rel / d_llr_len)];
        h.process = pmt::to_long(t.value);
        std::vector<gr::tag_t> at;
        get_tags_in_range(at, 0, t.offset, t.offset + 1);
        for (const gr::tag_t& a : at) {
            if (pmt::eq(a.key, k_rv))
                h.rv = pmt::is_integer(a.value) ? pmt::to_long(a.value) : 99; // 99: refused below
            else if (pmt::eq(a.key, k_new))
                h.fresh = pmt::is_true(a.value);
        }
        any = true;
    }
    return any;
}

/* The tagged frames of this call through their processes' buffers: each is combined in stream
 * order, and the buffers are decoded together in one call (a GPU batch, or the CPU's vector
 * lanes), split only where a process comes back within the call (its second transmission must
 * see the first's result). What cannot be combined (a bad rv, too many processes) is said once
 * and the frame left to be decoded on its own, as an untagged frame. */
void batch_decoder_base::decode_harq_frames(const char* in, uint8_t* out, int frames, size_t item)
{
    std::vector<int64_t> batch;
    std::vector<long> processes;
    d_harq_soft.resize(d_llr_len);
    const float mul = (float)d_sign * d_scale;
    for (int f = 0; f < frames; f++) {
        harq_frame& h = d_harq_frames[(size_t)f];
        if (h.process < 0)
            continue;
        if (std::find(processes.begin(), processes.end(), h.process) != processes.end())
            finish_harq_batch(batch, processes, out);
        const char* x = in + (size_t)f * d_llr_len * item;
        if (d_opts.input_type == GPUFEC_INPUT_INT8) // llr_scale is the LLR of one unit
            for (uint32_t i = 0; i < d_llr_len; i++)
                d_harq_soft[i] = (float)reinterpret_cast<const int8_t*>(x)[i] * mul;
        else
            for (uint32_t i = 0; i < d_llr_len; i++)
                d_harq_soft[i] = reinterpret_cast<const float*>(x)[i] * mul;
        const harq_store::result r = d_harq->combine(h.process, h.rv, h.fresh, d_harq_soft.data(), 1);
        if (!r.error.empty()) {
            if (!d_warned_harq)
                d_logger->warn("HARQ process {}: {}; such frames are decoded on their own", h.process, r.error);
            d_warned_harq = true;
            h.process = -1;
            continue;
        }
        h.transmissions = r.transmissions;
        batch.push_back(f);
        processes.push_back(h.process);
    }
    finish_harq_batch(batch, processes, out);
}

void batch_decoder_base::finish_harq_batch(std::vector<int64_t>& batch, std::vector<long>& processes, uint8_t* out)
{
    const size_t n = batch.size();
    if (!n)
        return;
    d_harq_bits.resize(n * d_harq->info_len());
    d_harq_iters.resize(n);
    d_harq_ok.resize(n);
    gpufec_decoder_set_max_iterations(d_dec.get(), d_max_iterations.load());
    const auto t0 = std::chrono::steady_clock::now();
    d_harq->decode(processes.data(), n, d_harq_bits.data(), d_harq_iters.data(), d_harq_ok.data());
    const std::chrono::duration<double> dt = std::chrono::steady_clock::now() - t0;
    d_decode_seconds.store(d_decode_seconds.load() + dt.count());
    const uint32_t info = d_harq->info_len();
    for (size_t i = 0; i < n; i++) {
        const int64_t f = batch[i];
        const uint8_t* bits = d_harq_bits.data() + i * info;
        uint8_t* o = out + (size_t)f * d_out_len;
        if (d_opts.output == GPUFEC_OUTPUT_CODEWORD) { // the transmitted codeword of the decided bits
            const long rv = d_harq_frames[(size_t)f].rv;
            throw_on_error(gpufec_code_encode(d_harq->code_for(rv < 0 ? -1 : rv), bits, 1, o), "HARQ re-encode");
        } else {
            std::copy(bits, bits + d_out_len, o);
        }
        d_iters[(size_t)f] = d_harq_iters[i];
        d_converged[(size_t)f] = d_harq_ok[i];
    }
    count_frames((int)n, d_harq_iters.data(), d_harq_ok.data());
    batch.clear();
    processes.clear();
}

void batch_decoder_base::set_iteration_limit(int max_iterations)
{
    gpufec_decoder_opts o = d_opts; // the range is the library's option table's
    gpufec_diag diag = { 0, "" };
    throw_on_error(gpufec_decoder_opts_set(&o, "max_iterations", std::to_string(max_iterations).c_str(), &diag),
                   "set_max_iterations", &diag);
    d_max_iterations.store(max_iterations); // applied by work() before its next batch
}

/* A run of frames that all failed usually means the stream is not what the block expects rather
 * than a bad channel: said once, then at most once a minute. */
void batch_decoder_base::warn_all_failed()
{
    const auto now = std::chrono::steady_clock::now();
    if (d_warned_failed_run && now - d_last_failed_warning < std::chrono::seconds(60))
        return;
    d_warned_failed_run = true;
    d_last_failed_warning = now;
    d_logger->warn("the last {} frames all failed to decode (frame {}): check the soft-bit sign (sign_convention: "
                   "GNU Radio's soft demodulators want positive_one, LLRs ln P0/P1 positive_zero), the frame "
                   "alignment (frames start at the stream's first item, or at packet_len tags), that the code is "
                   "the transmitter's, and the SNR and llr_scale",
                   failed_run_warning, d_frames.load());
}

/* What a user watching the console wants when a flowgraph ends: how many frames failed (the
 * frame error rate the decoder itself can see: frames whose output is not a codeword, or whose
 * CRC failed), at what iteration count and speed, on which implementation. */
bool batch_decoder_base::stop()
{
    const uint64_t frames = d_frames.load();
    if (frames)
        d_logger->info("{} frames decoded, {} failed (FER {:.3g}), {:.2f} iterations per frame, decoder {:.1f} Mb/s "
                       "of information bits, on {}",
                       frames, d_failed.load(), (double)d_failed.load() / (double)frames, iterations_per_frame(),
                       decoder_mbps(), variant_in_use());
    return true;
}

double batch_decoder_base::iterations_per_frame() const
{
    uint64_t f = d_frames.load();
    return f ? (double)d_iterations.load() / (double)f : 0.0;
}

double batch_decoder_base::decoder_mbps() const
{
    const double s = d_decode_seconds.load();
    return s > 0.0 ? (double)d_frames.load() * d_info.k / s / 1e6 : 0.0;
}

bool batch_decoder_base::on_gpu() const
{
    gpufec_backend b = GPUFEC_BACKEND_CPU;
    gpufec_decoder_backend(d_dec.get(), &b);
    return b == GPUFEC_BACKEND_CUDA;
}

std::string batch_decoder_base::backend_in_use() const
{
    gpufec_backend b = GPUFEC_BACKEND_CPU;
    gpufec_decoder_backend(d_dec.get(), &b);
    return gpufec_backend_name(b);
}

std::string batch_decoder_base::variant_in_use() const
{
    char name[96] = "";
    gpufec_decoder_variant(d_dec.get(), name, sizeof name);
    return name;
}

std::string batch_decoder_base::schedule_in_use() const
{
    gpufec_schedule s = GPUFEC_SCHEDULE_AUTO;
    gpufec_decoder_schedule(d_dec.get(), &s);
    return gpufec_schedule_name(s);
}

void batch_decoder_base::forecast(int noutput_items, gr_vector_int& ninput_items_required)
{
    ninput_items_required[0] = (noutput_items / (int)d_out_len) * (int)d_llr_len;
}

/* Decodes `frames` frames into out; their iterations and flags land at [first_frame, ...) of
 * the work call's arrays. */
void batch_decoder_base::decode_chunk(const void* in, int frames, uint8_t* out, int64_t first_frame)
{
    const size_t count = (size_t)frames * d_llr_len;
    const void* soft = nullptr;
    if (d_opts.input_type == GPUFEC_INPUT_INT8) {
        int8_t* y = d_i8.get(count);
        const int8_t* x = static_cast<const int8_t*>(in);
        if (d_sign < 0) // positive means 1: negate, saturating (-128 has no positive twin)
            for (size_t i = 0; i < count; i++)
                y[i] = x[i] == -128 ? (int8_t)127 : (int8_t)-x[i];
        else
            std::copy(x, x + count, y);
        soft = y;
    } else {
        float* y = d_llr.get(count);
        volk_32f_s32f_multiply_32f(y, static_cast<const float*>(in), (float)d_sign * d_scale, (unsigned int)count);
        soft = y;
    }
    int32_t* iters = d_iters.data() + first_frame;
    uint8_t* converged = d_converged.data() + first_frame;
    gpufec_decoder_set_max_iterations(d_dec.get(), d_max_iterations.load());
    const auto t0 = std::chrono::steady_clock::now();
    gpufec_status st = gpufec_decoder_decode_soft(d_dec.get(), soft, (size_t)frames, out, iters, converged);
    // A GPU fault under backend auto is the library's to handle (it continues on the CPU, logged).
    throw_on_error(st, "decode");
    const std::chrono::duration<double> dt = std::chrono::steady_clock::now() - t0;
    d_decode_seconds.store(d_decode_seconds.load() + dt.count());
    count_frames(frames, iters, converged);
}

void batch_decoder_base::count_frames(int frames, const int32_t* iters, const uint8_t* converged)
{
    // Frame by frame, so that the stats port posts exactly once per stats_interval frames, with
    // the counts up to that frame, whatever the batch size.
    for (int f = 0; f < frames; f++) {
        d_failed += converged[f] ? 0 : 1;
        d_failed_run = converged[f] ? 0 : d_failed_run + 1;
        if (d_failed_run == failed_run_warning)
            warn_all_failed();
        d_iterations += (uint64_t)iters[f];
        d_frames += 1;
        if (d_stats_interval > 0 && d_frames.load() >= d_next_stats) {
            post_stats();
            d_next_stats += (uint64_t)d_stats_interval;
        }
    }
}

bool batch_decoder_base::packet_length(const gr::tag_t& t, int64_t* len)
{
    if (pmt::is_integer(t.value)) {
        *len = std::max<int64_t>(0, pmt::to_long(t.value));
        return true;
    }
    if (pmt::is_uint64(t.value)) {
        *len = (int64_t)std::min<uint64_t>(pmt::to_uint64(t.value), (uint64_t)INT64_MAX);
        return true;
    }
    if (!d_warned_bad_len) {
        d_warned_bad_len = true;
        d_logger->warn("packet_len tag at item {} is not an integer ({}): ignored, and not passed on",
                       t.offset,
                       pmt::write_string(t.value));
    }
    return false;
}

/* With drop_failed a packet is decoded in one call, so that its packet_len can count the frames
 * that survive; that needs room for the whole packet in the input and output buffers. */
bool batch_decoder_base::packet_fits(int64_t frames) const
{
    auto d = detail();
    if (!d || !d->input(0) || !d->output(0))
        return false;
    const int64_t in = (int64_t)d->input(0)->buffer()->bufsize(), out = (int64_t)d->output(0)->bufsize();
    return frames * (int64_t)d_llr_len <= in / 2 && frames * (int64_t)d_out_len <= out / 2;
}

void batch_decoder_base::move_tags(uint64_t consumed)
{
    // A tag on soft bit i of frame f goes to the output bit at the same fraction of frame f's
    // output (tags of dropped frames go with them). packet_len tags count soft bits; they are
    // rewritten to the output bits of the frames they cover, so downstream blocks see lengths
    // of the stream they read: with drop_failed, the frames of the packet that survive (the
    // whole packet is in this call), the tag on the first of them, none if none survives.
    static const pmt::pmt_t length_key = pmt::mp("packet_len");
    std::vector<gr::tag_t> tags;
    const uint64_t r0 = nitems_read(0), w0 = nitems_written(0);
    const uint64_t frames = consumed / d_llr_len;
    get_tags_in_range(tags, 0, r0, r0 + consumed);
    for (gr::tag_t t : tags) {
        const uint64_t rel = t.offset - r0, frame = rel / d_llr_len, within = rel % d_llr_len;
        if (pmt::eq(t.key, length_key)) {
            int64_t len;
            if (!packet_length(t, &len))
                continue;
            const uint64_t whole = (uint64_t)len / d_llr_len;
            if (d_drop_failed && !d_keep_packet) {
                uint64_t kept = 0;
                int64_t first = -1;
                for (uint64_t f = frame; f < std::min(frames, frame + whole); f++)
                    if (d_out_frame[f] >= 0) {
                        first = first < 0 ? d_out_frame[f] : first;
                        kept++;
                    }
                if (!kept)
                    continue; // the packet disappears whole
                t.offset = w0 + (uint64_t)first * d_out_len;
                t.value = pmt::from_long((long)(kept * d_out_len));
            } else {
                const int64_t slot = d_out_frame[frame];
                if (slot < 0)
                    continue;
                t.offset = w0 + (uint64_t)slot * d_out_len + within * d_out_len / d_llr_len;
                t.value = pmt::from_long((long)(whole * d_out_len));
            }
            add_item_tag(0, t);
            continue;
        }
        const int64_t slot = d_out_frame[frame];
        if (slot < 0)
            continue;
        t.offset = w0 + (uint64_t)slot * d_out_len + within * d_out_len / d_llr_len;
        add_item_tag(0, t);
    }
}

/* On the first output bit of every emitted frame: its number since the block started (counting
 * dropped ones), its iterations, and whether it decoded (CRC or parity checks hold). */
void batch_decoder_base::tag_frames(int frames)
{
    static const pmt::pmt_t k_frame = pmt::mp("gpufec_frame"), k_iter = pmt::mp("gpufec_iterations"),
                            k_ok = pmt::mp("gpufec_ok"), k_harq = pmt::mp("gpufec_harq_transmissions");
    const uint64_t w0 = nitems_written(0), first = d_frames.load() - (uint64_t)frames;
    for (int f = 0; f < frames; f++) {
        const int64_t slot = d_out_frame[(size_t)f];
        if (slot < 0)
            continue;
        const uint64_t at = w0 + (uint64_t)slot * d_out_len;
        add_item_tag(0, at, k_frame, pmt::from_uint64(first + (uint64_t)f));
        add_item_tag(0, at, k_iter, pmt::from_long(d_iters[(size_t)f]));
        add_item_tag(0, at, k_ok, pmt::from_bool(d_converged[(size_t)f] != 0));
        if (d_harq && (size_t)f < d_harq_frames.size() && d_harq_frames[(size_t)f].transmissions > 0)
            add_item_tag(0, at, k_harq, pmt::from_long(d_harq_frames[(size_t)f].transmissions));
    }
}

void batch_decoder_base::post_stats()
{
    pmt::pmt_t d = pmt::make_dict();
    d = pmt::dict_add(d, pmt::mp("frames"), pmt::from_uint64(decoded_frames()));
    d = pmt::dict_add(d, pmt::mp("failed_frames"), pmt::from_uint64(failed_frame_count()));
    d = pmt::dict_add(d, pmt::mp("mean_iterations"), pmt::from_double(iterations_per_frame()));
    d = pmt::dict_add(d, pmt::mp("backend"), pmt::mp(backend_in_use()));
    message_port_pub(pmt::mp("stats"), d);
}

/* Where frames start. Without packet_len tags: every n soft bits from the stream's first sample
 * (a frame-aligned stream). A packet_len tag (a tagged stream, as correlate_access_code_ff_ts
 * makes) starts a packet: frames start at the tag and every n soft bits after it within the
 * packet; what is left of a packet that cannot fill a frame, and anything between packets, is
 * skipped (consumed here, counted in d_skipped). Returns the frames to decode now (0: none; the
 * input may have been partly consumed). */
int batch_decoder_base::frames_to_decode(int ninput, int noutput)
{
    static const pmt::pmt_t length_key = pmt::mp("packet_len");
    const int64_t n = d_llr_len;
    const uint64_t r0 = nitems_read(0);
    std::vector<gr::tag_t> tags;
    get_tags_in_range(tags, 0, r0, r0 + (uint64_t)ninput, length_key);
    uint64_t next = r0 + (uint64_t)ninput; // the next packet start after r0, else the input's end
    bool packet_start = false, next_is_packet = false;
    for (const gr::tag_t& t : tags) {
        int64_t len;
        if (!packet_length(t, &len))
            continue;
        if (t.offset == r0) {
            d_packet_left = len;
            packet_start = true;
        } else if (t.offset > r0 && t.offset < next) {
            next = t.offset;
            next_is_packet = true;
        }
    }
    if (packet_start && d_drop_failed) {
        // The whole packet in one call (its packet_len then counts the survivors), or, if the
        // buffers cannot hold it, its failed frames passed on, tagged, and said once.
        // A packet cut short by the next one has only the frames before it.
        const int64_t whole = next_is_packet ? std::min(d_packet_left, (int64_t)(next - r0)) / n : d_packet_left / n;
        d_keep_packet = whole > 0 && !packet_fits(whole);
        if (d_keep_packet && !d_warned_big_packet) {
            d_warned_big_packet = true;
            d_logger->warn("drop_failed: a packet of {} frames does not fit the buffers; the failed frames "
                           "of such packets are passed on (gpufec_ok = False) so that packet_len stays true",
                           whole);
        }
        if (!d_keep_packet && whole > 0 &&
            (std::min<int64_t>(next - r0, d_packet_left) / n < whole || noutput / (int)d_out_len < whole))
            return 0; // wait for the rest of the packet (or room for it)
    }
    const int64_t span = (int64_t)(next - r0); // items before the next packet starts
    int64_t limit = span, skip = 0;
    if (d_packet_left == 0) // between packets
        skip = span;
    else if (d_packet_left > 0)
        limit = std::min(limit, d_packet_left);
    const int64_t frames = skip ? 0 : std::min<int64_t>(limit / n, noutput / (int)d_out_len);
    if (!skip && frames == 0) {
        if (d_packet_left > 0 && d_packet_left < n) // the packet's tail: no whole frame
            skip = std::min(d_packet_left, span);
        else if (next < r0 + (uint64_t)ninput && span < n) // a packet starts before a frame fills
            skip = span;
    }
    if (skip > 0) {
        consume_each((int)skip);
        d_skipped += (uint64_t)skip;
        if (d_packet_left > 0)
            d_packet_left -= std::min(d_packet_left, skip);
        return 0;
    }
    if (d_packet_left > 0)
        d_packet_left -= frames * n;
    return (int)frames;
}

int batch_decoder_base::general_work(int noutput_items,
                                     gr_vector_int& ninput_items,
                                     gr_vector_const_void_star& input_items,
                                     gr_vector_void_star& output_items)
{
    const int frames = frames_to_decode(ninput_items[0], noutput_items);
    if (frames <= 0)
        return 0;
    const char* in = static_cast<const char*>(input_items[0]);
    const size_t item = d_opts.input_type == GPUFEC_INPUT_INT8 ? sizeof(int8_t) : sizeof(float);
    uint8_t* out = static_cast<uint8_t*>(output_items[0]);
    const int chunk = d_max_batch > 0 ? d_max_batch : frames;
    d_iters.resize((size_t)frames);
    d_converged.resize((size_t)frames);
    const bool harq = find_harq_frames(frames);
    if (harq)
        decode_harq_frames(in, out, frames, item);
    for (int f = 0; f < frames;) {
        if (harq && d_harq_frames[(size_t)f].process >= 0) { // decoded above
            f++;
            continue;
        }
        int nf = std::min(chunk, frames - f); // a run of plain frames, up to the next HARQ one
        for (int g = 1; harq && g < nf; g++)
            if (d_harq_frames[(size_t)(f + g)].process >= 0)
                nf = g;
        decode_chunk(in + (size_t)f * d_llr_len * item, nf, out + (size_t)f * d_out_len, f);
        f += nf;
    }
    // Output slots: every frame in order, or with drop_failed only the decoded ones, moved up.
    d_out_frame.resize((size_t)frames);
    int64_t kept = 0;
    for (int f = 0; f < frames; f++) {
        if (d_drop_failed && !d_keep_packet && !d_converged[(size_t)f]) {
            d_out_frame[(size_t)f] = -1;
            continue;
        }
        if (kept != f)
            std::memmove(out + (size_t)kept * d_out_len, out + (size_t)f * d_out_len, d_out_len);
        d_out_frame[(size_t)f] = kept++;
    }
    move_tags((uint64_t)frames * d_llr_len);
    tag_frames(frames);
    consume_each(frames * (int)d_llr_len);
    return (int)kept * (int)d_out_len;
}

} // namespace gpufec
} // namespace gr
