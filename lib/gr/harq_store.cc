#include "harq_store.h"

#include <algorithm>
#include <regex>

namespace gr {
namespace gpufec {

harq_store::harq_store(const std::string& code_name, const gpufec_code* code, const gpufec_decoder_opts& opts,
                       size_t max_processes)
    : d_code_name(code_name), d_code(code), d_opts(opts), d_max(max_processes)
{
    d_opts.input_type = GPUFEC_INPUT_FLOAT32;
    d_opts.output = GPUFEC_OUTPUT_INFO;
}

const gpufec_code* harq_store::code_for(long rv)
{
    if (rv < 0)
        return d_code;
    if (!d_rv_code[rv]) { // the block's code with this redundancy version
        const std::string name =
            std::regex_replace(d_code_name, std::regex(":rv=[0-9]+"), "") + ":rv=" + std::to_string(rv);
        d_rv_code[rv] = open_code(name);
    }
    return d_rv_code[rv].get();
}

harq_store::result harq_store::combine(long process, long rv, bool fresh, const float* soft, size_t frames)
{
    result r;
    if (rv < -1 || rv > 3) {
        r.error = "rv must be an integer 0..3";
        return r;
    }
    const gpufec_code* code = code_for(rv);
    char mother[96] = "";
    uint32_t len = 0;
    if (gpufec_code_harq_info(code, &len, mother, sizeof mother) != GPUFEC_OK) {
        r.error = "HARQ needs a 5G NR rate-matched code (e=, rv=): this code has no soft buffer";
        return r;
    }
    if (!d_dec) {
        d_mother = open_code(mother);
        gpufec_decoder* dec = nullptr;
        throw_on_error(gpufec_decoder_create(&dec, d_mother.get(), &d_opts), "HARQ decoder");
        d_dec.reset(dec);
        d_len = len;
        gpufec_decoder_frame_sizes(dec, nullptr, &d_info_len);
    }
    auto it = d_buffers.find(process);
    if (it == d_buffers.end() && d_buffers.size() >= d_max) {
        r.error = "more than " + std::to_string(d_max) + " HARQ processes open";
        return r;
    }
    buffer& b = d_buffers[process];
    if (fresh || b.soft.size() != frames * d_len) {
        b.soft.assign(frames * d_len, 0.0f);
        b.transmissions = 0;
    }
    throw_on_error(gpufec_code_harq_combine(code, soft, frames, b.soft.data()), "HARQ combine");
    r.transmissions = ++b.transmissions;
    return r;
}

void harq_store::decode(const long* processes, size_t count, uint8_t* bits, int32_t* iterations, uint8_t* ok)
{
    size_t total = 0;
    for (size_t i = 0; i < count; i++)
        total += d_buffers.at(processes[i]).soft.size();
    const float* soft = nullptr;
    if (count == 1) {
        soft = d_buffers.at(processes[0]).soft.data();
    } else { // side by side, so that the batch is one call (a GPU's, or a CPU's vector lanes)
        d_batch.resize(total);
        size_t at = 0;
        for (size_t i = 0; i < count; i++) {
            const std::vector<float>& b = d_buffers.at(processes[i]).soft;
            std::copy(b.begin(), b.end(), d_batch.begin() + (std::ptrdiff_t)at);
            at += b.size();
        }
        soft = d_batch.data();
    }
    throw_on_error(gpufec_decoder_decode(d_dec.get(), soft, total / d_len, bits, iterations, ok), "HARQ decode");
    size_t f = 0;
    for (size_t i = 0; i < count; i++) {
        const size_t frames = d_buffers.at(processes[i]).soft.size() / d_len;
        size_t decoded = 0;
        for (size_t g = 0; g < frames; g++)
            decoded += ok[f + g] ? 1 : 0;
        f += frames;
        if (decoded == frames)
            d_buffers.erase(processes[i]); // every frame decoded: the process is done
    }
}

} // namespace gpufec
} // namespace gr
