#include "c_handles.h"
#include <gnuradio/gpufec/fec_decoder_def.h>

#include <cmath>
#include <sstream>
#include <vector>

namespace gr {
namespace gpufec {

/* Decoder options from "name=value" words separated by spaces or commas, by the library's names
 * (shared with pdu_decoder). */
gpufec_decoder_opts opts_from_text(const std::string& options, const gpufec_code* code)
{
    gpufec_decoder_opts o;
    gpufec_decoder_opts_default(&o);
    gpufec_diag diag = { 0, "" };
    throw_on_error(gpufec_decoder_opts_set_text(&o, options.c_str(), code, &diag), "options", &diag);
    return o;
}

namespace {

class fec_decoder_def_impl : public fec_decoder_def
{
    code_ptr d_code;
    decoder_ptr d_dec;
    uint32_t d_n = 0, d_full = 0, d_k = 0;
    bool d_last;
    float d_mul;
    std::vector<float> d_soft;
    std::vector<uint8_t> d_word;
    float d_iterations = 0.0f;
    bool d_size_ok = true, d_size_warned = false; // the last set_frame_size was one frame
    unsigned int d_asked = 0;
public:
    fec_decoder_def_impl(const std::string& code, const std::string& options, const std::string& info,
                         const std::string& sign_convention, float llr_scale)
        : fec_decoder_def("gpufec_decoder_def"), d_code(open_code(code))
    {
        if (info != "code" && info != "last")
            throw std::invalid_argument("gpufec: info '" + info + "': code or last");
        if (!(llr_scale > 0.0f) || !std::isfinite(llr_scale))
            throw std::invalid_argument("gpufec: llr_scale must be a positive number");
        d_last = info == "last";
        d_mul = (float)sign_from_name(sign_convention) * llr_scale;
        gpufec_decoder_opts o = opts_from_text(options, d_code.get());
        o.output = d_last ? GPUFEC_OUTPUT_FULL_CODEWORD : GPUFEC_OUTPUT_INFO;
        o.input_type = GPUFEC_INPUT_FLOAT32;
        gpufec_decoder* dec = nullptr;
        gpufec_diag diag = { 0, "" };
        throw_on_error(gpufec_decoder_opts_check(&o, d_code.get(), &diag), "options", &diag);
        throw_on_error(gpufec_decoder_create(&dec, d_code.get(), &o), "decoder");
        d_dec.reset(dec);
        gpufec_code_info ci;
        gpufec_code_get_info(d_code.get(), &ci);
        d_n = ci.n;
        d_full = ci.n_full;
        d_k = ci.k;
        d_soft.resize(d_n);
        d_word.resize(d_last ? d_full : d_k);
    }

    double rate() override { return (double)d_k / (double)d_n; }
    int get_input_size() override { return (int)d_n; }
    // gr-fec's tagged and async decoders ask for the packet's frame size, ignore the answer, and
    // then emit get_output_size() bits from generic_work: a packet that is not exactly one frame
    // therefore gets an output size of 0 and nothing is read or written (it once read past a
    // short packet and emitted a frame of garbage).
    int get_output_size() override { return d_size_ok ? (int)d_k : 0; }
    int get_input_item_size() override { return (int)sizeof(float); }
    int get_output_item_size() override { return 1; }
    bool set_frame_size(unsigned int frame_size) override
    {
        d_size_ok = frame_size == d_k;
        d_asked = frame_size;
        return d_size_ok;
    }
    float get_iterations() override { return d_iterations; }

    void generic_work(void* inbuffer, void* outbuffer) override
    {
        if (!d_size_ok) {
            if (!d_size_warned) {
                d_size_warned = true;
                d_logger->warn("a packet of {} bits (not one frame of {} soft bits into {}): nothing emitted; "
                               "such packets are dropped (said once)",
                               d_asked, d_n, d_k);
            }
            return;
        }
        const float* in = static_cast<const float*>(inbuffer);
        for (uint32_t i = 0; i < d_n; i++)
            d_soft[i] = in[i] * d_mul;
        int32_t it = 0;
        uint8_t ok = 0;
        // generic_work has no way to report an error: a failed call leaves zeros, logged.
        if (gpufec_decoder_decode(d_dec.get(), d_soft.data(), 1, d_word.data(), &it, &ok) != GPUFEC_OK) {
            std::fill(d_word.begin(), d_word.end(), 0);
            d_logger->error("decoding failed; the frame is output as zeros");
        }
        d_iterations = (float)it;
        const uint8_t* src = d_last ? d_word.data() + (d_full - d_k) : d_word.data();
        std::copy(src, src + d_k, static_cast<uint8_t*>(outbuffer));
    }
};

class fec_encoder_def_impl : public fec_encoder_def
{
    code_ptr d_code;
    uint32_t d_n = 0, d_k = 0;
    bool d_size_ok = true, d_size_warned = false; // as the decoder definition's
    unsigned int d_asked = 0;

public:
    explicit fec_encoder_def_impl(const std::string& code)
        : fec_encoder_def("gpufec_encoder_def"), d_code(open_code(code))
    {
        require_encoder(d_code.get(), code);
        gpufec_code_info ci;
        gpufec_code_get_info(d_code.get(), &ci);
        d_n = ci.n;
        d_k = ci.k;
    }
    double rate() override { return (double)d_k / (double)d_n; }
    int get_input_size() override { return (int)d_k; }
    int get_output_size() override { return d_size_ok ? (int)d_n : 0; }
    bool set_frame_size(unsigned int frame_size) override
    {
        d_size_ok = frame_size == d_k;
        d_asked = frame_size;
        return d_size_ok;
    }
    void generic_work(void* in_buffer, void* out_buffer) override
    {
        if (!d_size_ok) {
            if (!d_size_warned) {
                d_size_warned = true;
                d_logger->warn("a packet of {} bits (not one frame of {}): nothing emitted; such packets are "
                               "dropped (said once)",
                               d_asked, d_k);
            }
            return;
        }
        if (gpufec_code_encode(d_code.get(), static_cast<const uint8_t*>(in_buffer), 1,
                               static_cast<uint8_t*>(out_buffer)) != GPUFEC_OK) {
            std::fill(static_cast<uint8_t*>(out_buffer), static_cast<uint8_t*>(out_buffer) + d_n, 0);
            d_logger->error("encoding failed; the frame is output as zeros");
        }
    }
};

} // namespace

gr::fec::generic_encoder::sptr fec_encoder_def::make(const std::string& code)
{
    return std::make_shared<fec_encoder_def_impl>(code);
}

gr::fec::generic_decoder::sptr fec_decoder_def::make(const std::string& code, const std::string& options,
                                                     const std::string& info, const std::string& sign_convention,
                                                     float llr_scale)
{
    return std::make_shared<fec_decoder_def_impl>(code, options, info, sign_convention, llr_scale);
}

} // namespace gpufec
} // namespace gr
