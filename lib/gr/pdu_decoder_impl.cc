#include "c_handles.h"
#include "harq_store.h"
#include <gnuradio/gpufec/pdu_decoder.h>
#include <gnuradio/io_signature.h>

#include <atomic>
#include <cmath>
#include <cstdio>
#include <algorithm>
#include <memory>
#include <vector>

namespace gr {
namespace gpufec {

/* The message decoder: one C decoder context, fed one PDU at a time from the message handler
 * (GNU Radio runs a block's handlers one at a time, so the context serves one thread). */
class pdu_decoder_impl : public pdu_decoder
{
    code_ptr d_code;
    decoder_ptr d_dec;
    gpufec_decoder_opts d_float_opts, d_i8_opts;
    decoder_ptr d_dec_i8; // made on the first s8vector PDU
    std::string d_i8_refused; // why s8vector PDUs cannot be decoded (checked at construction)
    uint32_t d_n = 0, d_out = 0;
    int d_sign;
    float d_scale;
    std::atomic<uint64_t> d_frames{ 0 }, d_failed{ 0 };
    std::vector<float> d_soft;
    std::vector<int8_t> d_soft8;
    std::vector<uint8_t> d_bits, d_ok;
    std::vector<int32_t> d_iters;
    // HARQ (PDUs with harq_process in their metadata; 5G NR rate-matched codes).
    std::string d_code_name;
    std::unique_ptr<harq_store> d_harq;
    static constexpr size_t max_harq_processes = 64;

    static const pmt::pmt_t port() { return pmt::mp("pdus"); }

    decoder_ptr make_decoder(const gpufec_decoder_opts& o)
    {
        gpufec_decoder* dec = nullptr;
        gpufec_diag diag = { 0, "" };
        throw_on_error(gpufec_decoder_opts_check(&o, d_code.get(), &diag), "options", &diag);
        throw_on_error(gpufec_decoder_create(&dec, d_code.get(), &o), "decoder");
        return decoder_ptr(dec);
    }

    void reply(pmt::pmt_t meta, const std::string& error)
    {
        meta = pmt::dict_add(meta, pmt::mp("gpufec_error"), pmt::mp(error));
        message_port_pub(port(), pmt::cons(meta, pmt::make_u8vector(0, 0)));
    }

    /* A float PDU's soft bits as LLRs (the block's sign convention and scale), in d_soft. */
    const float* scaled_soft(const pmt::pmt_t& data)
    {
        size_t len = 0;
        const float* x = pmt::f32vector_elements(data, len);
        d_soft.resize(len);
        const float mul = (float)d_sign * d_scale;
        for (size_t i = 0; i < len; i++)
            d_soft[i] = x[i] * mul;
        return d_soft.data();
    }

    /* The reply to a decoded PDU: the bits of d_bits, the frames' flags and iterations in the
     * metadata; returns the failed frames. */
    long publish(pmt::pmt_t meta, size_t frames)
    {
        long failed = 0;
        for (size_t f = 0; f < frames; f++)
            failed += d_ok[f] ? 0 : 1;
        d_frames += frames;
        d_failed += (uint64_t)failed;
        meta = pmt::dict_add(meta, pmt::mp("gpufec_frames"), pmt::from_long((long)frames));
        meta = pmt::dict_add(meta, pmt::mp("gpufec_failed"), pmt::from_long(failed));
        meta = pmt::dict_add(meta, pmt::mp("gpufec_ok"), pmt::init_u8vector(frames, d_ok.data()));
        meta = pmt::dict_add(meta, pmt::mp("gpufec_iterations"), pmt::init_s32vector(frames, d_iters.data()));
        message_port_pub(port(), pmt::cons(meta, pmt::init_u8vector(d_bits.size(), d_bits.data())));
        return failed;
    }

    /* A message handler must never throw (GNU Radio would stop answering): whatever goes wrong
     * with one PDU is that PDU's gpufec_error reply. */
    void handle(const pmt::pmt_t& msg)
    {
        try {
            handle_pdu(msg);
        } catch (const std::exception& e) {
            pmt::pmt_t meta = pmt::is_pair(msg) && pmt::is_dict(pmt::car(msg)) ? pmt::car(msg) : pmt::make_dict();
            reply(meta, e.what());
        }
    }

    void handle_pdu(const pmt::pmt_t& msg)
    {
        if (!pmt::is_pair(msg))
            return reply(pmt::make_dict(), "not a PDU (metadata . vector)");
        pmt::pmt_t meta = pmt::car(msg), data = pmt::cdr(msg);
        if (!pmt::is_dict(meta))
            meta = pmt::make_dict();
        const bool f32 = pmt::is_f32vector(data), s8 = pmt::is_s8vector(data);
        if (!f32 && !s8)
            return reply(meta, "the vector must be f32vector or s8vector soft bits");
        const size_t len = pmt::length(data);
        if (len == 0 || len % d_n)
            return reply(meta, "length " + std::to_string(len) + " is not a whole number of frames of " +
                                   std::to_string(d_n) + " soft bits");
        const size_t frames = len / d_n;
        if (pmt::dict_has_key(meta, pmt::mp("harq_process")))
            return handle_harq(meta, data, frames);
        const void* soft;
        gpufec_decoder* dec = d_dec.get();
        if (f32) {
            soft = scaled_soft(data);
        } else {
            if (!d_i8_refused.empty())
                return reply(meta, d_i8_refused);
            if (!d_dec_i8)
                d_dec_i8 = make_decoder(d_i8_opts);
            dec = d_dec_i8.get();
            size_t got = 0;
            const int8_t* x = pmt::s8vector_elements(data, got);
            d_soft8.resize(len);
            for (size_t i = 0; i < len; i++) // positive means 1: negate, saturating
                d_soft8[i] = d_sign < 0 ? (x[i] == -128 ? (int8_t)127 : (int8_t)-x[i]) : x[i];
            soft = d_soft8.data();
        }
        d_bits.resize(frames * d_out);
        d_ok.resize(frames);
        d_iters.resize(frames);
        const gpufec_status st = gpufec_decoder_decode_soft(dec, soft, frames, d_bits.data(), d_iters.data(),
                                                            d_ok.data());
        if (st != GPUFEC_OK) // a message handler must not throw: the PDU says what went wrong
            return reply(meta, std::string("decoding failed: ") + gpufec_status_str(st));
        publish(meta, frames);
    }

    /* A transmission of HARQ process p (metadata harq_process, rv 0..3 (default the code's),
     * harq_new: true clears the process's buffer first): its soft values are added to the
     * process's buffer, which the mother code decodes; a process whose frames all decode is
     * done and its buffer freed. */
    void handle_harq(pmt::pmt_t meta, const pmt::pmt_t& data, size_t frames)
    {
        if (!pmt::is_f32vector(data))
            return reply(meta, "HARQ combining takes f32vector soft bits");
        const pmt::pmt_t pid = pmt::dict_ref(meta, pmt::mp("harq_process"), pmt::PMT_NIL);
        if (!pmt::is_integer(pid))
            return reply(meta, "harq_process must be an integer");
        const long process = pmt::to_long(pid);
        const pmt::pmt_t rvp = pmt::dict_ref(meta, pmt::mp("rv"), pmt::PMT_NIL);
        long rv = -1;
        if (rvp != pmt::PMT_NIL) {
            if (!pmt::is_integer(rvp) || pmt::to_long(rvp) < 0 || pmt::to_long(rvp) > 3)
                return reply(meta, "rv must be an integer 0..3");
            rv = pmt::to_long(rvp);
        }
        if (!d_harq)
            d_harq = std::make_unique<harq_store>(d_code_name, d_code.get(), d_float_opts, max_harq_processes);
        const bool fresh = pmt::is_true(pmt::dict_ref(meta, pmt::mp("harq_new"), pmt::PMT_F));
        const harq_store::result r = d_harq->combine(process, rv, fresh, scaled_soft(data), frames);
        if (!r.error.empty())
            return reply(meta, r.error);
        d_bits.resize(frames * d_harq->info_len());
        d_ok.resize(frames);
        d_iters.resize(frames);
        d_harq->decode(&process, 1, d_bits.data(), d_iters.data(), d_ok.data());
        if (d_float_opts.output == GPUFEC_OUTPUT_CODEWORD) { // as every other PDU: the transmitted words
            std::vector<uint8_t> words(frames * d_out);
            throw_on_error(gpufec_code_encode(d_harq->code_for(rv), d_bits.data(), frames, words.data()),
                           "HARQ re-encode");
            d_bits.swap(words);
        }
        meta = pmt::dict_add(meta, pmt::mp("gpufec_harq_transmissions"), pmt::from_long(r.transmissions));
        publish(meta, frames);
    }

public:
    pdu_decoder_impl(const std::string& code, const std::string& options, const std::string& sign_convention,
                     float llr_scale, bool output_all_bits)
        : gr::block("pdu_decoder", gr::io_signature::make(0, 0, 0), gr::io_signature::make(0, 0, 0)),
          d_code(open_code(code)),
          d_sign(sign_from_name(sign_convention)),
          d_scale(llr_scale),
          d_code_name(code)
    {
        if (!(llr_scale > 0.0f) || !std::isfinite(llr_scale))
            throw std::invalid_argument("gpufec: llr_scale must be a positive number");
        d_float_opts = opts_from_text(options, d_code.get());
        d_float_opts.output = output_all_bits ? GPUFEC_OUTPUT_CODEWORD : GPUFEC_OUTPUT_INFO;
        d_float_opts.input_type = GPUFEC_INPUT_FLOAT32;
        d_i8_opts = d_float_opts;
        d_i8_opts.input_type = GPUFEC_INPUT_INT8;
        d_i8_opts.input_scale = llr_scale;
        d_dec = make_decoder(d_float_opts);
        // Byte PDUs decode with input_scale = llr_scale: if the library refuses that, float PDUs
        // still work, and every byte PDU is answered with the reason.
        gpufec_diag diag = { 0, "" };
        if (gpufec_decoder_opts_check(&d_i8_opts, d_code.get(), &diag) != GPUFEC_OK) {
            char scale[32];
            snprintf(scale, sizeof scale, "%g", (double)llr_scale);
            d_i8_refused = std::string("s8vector soft bits cannot be decoded with llr_scale ") + scale + ": " +
                           diag.message;
            d_logger->warn("{}; f32vector PDUs are decoded", d_i8_refused);
        }
        gpufec_decoder_frame_sizes(d_dec.get(), &d_n, &d_out);
        message_port_register_in(port());
        message_port_register_out(port());
        set_msg_handler(port(), [this](const pmt::pmt_t& msg) { handle(msg); });
    }

    uint64_t frames() const override { return d_frames.load(); }
    uint64_t failed_frames() const override { return d_failed.load(); }
    std::string backend() const override
    {
        gpufec_backend b = GPUFEC_BACKEND_CPU;
        gpufec_decoder_backend(d_dec.get(), &b);
        return gpufec_backend_name(b);
    }
    int n() const override { return (int)d_n; }
    int k() const override
    {
        gpufec_code_info info;
        gpufec_code_get_info(d_code.get(), &info);
        return (int)info.k;
    }
};

pdu_decoder::sptr pdu_decoder::make(const std::string& code, const std::string& options,
                                    const std::string& sign_convention, float llr_scale, bool output_all_bits)
{
    return gnuradio::make_block_sptr<pdu_decoder_impl>(code, options, sign_convention, llr_scale, output_all_bits);
}

} // namespace gpufec
} // namespace gr
