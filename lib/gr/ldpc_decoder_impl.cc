#include "ldpc_decoder_impl.h"
#include <gnuradio/io_signature.h>

#include <utility>

namespace gr {
namespace gpufec {

ldpc_decoder::sptr ldpc_decoder::make(const std::string& code,
                                      const std::string& algorithm,
                                      int max_iterations,
                                      float norm,
                                      float offset,
                                      const std::string& backend,
                                      int max_batch,
                                      const std::string& sign_convention,
                                      bool output_all_bits,
                                      float llr_scale,
                                      int device,
                                      int stats_interval,
                                      const std::string& schedule,
                                      const std::string& precision,
                                      const std::string& input_type,
                                      bool drop_failed)
{
    return gnuradio::make_block_sptr<ldpc_decoder_impl>(code,
                                                        algorithm,
                                                        max_iterations,
                                                        norm,
                                                        offset,
                                                        backend,
                                                        max_batch,
                                                        sign_convention,
                                                        output_all_bits,
                                                        llr_scale,
                                                        device,
                                                        stats_interval,
                                                        schedule,
                                                        precision,
                                                        input_type,
                                                        drop_failed);
}

ldpc_decoder_impl::ldpc_decoder_impl(const std::string& code,
                                     const std::string& algorithm,
                                     int max_iterations,
                                     float norm,
                                     float offset,
                                     const std::string& backend,
                                     int max_batch,
                                     const std::string& sign_convention,
                                     bool output_all_bits,
                                     float llr_scale,
                                     int device,
                                     int stats_interval,
                                     const std::string& schedule,
                                     const std::string& precision,
                                     const std::string& input_type,
                                     bool drop_failed)
    : gr::block("ldpc_decoder",
                gr::io_signature::make(1, 1, input_type == "int8" ? sizeof(int8_t) : sizeof(float)),
                gr::io_signature::make(1, 1, sizeof(uint8_t))),
      batch_decoder_base(max_batch, stats_interval, drop_failed)
{
    gpufec_decoder_opts opts;
    gpufec_decoder_opts_default(&opts);
    // Names are checked by the library's option table, whose message lists the accepted ones.
    const std::pair<const char*, const std::string*> named[] = {
        { "algorithm", &algorithm }, { "schedule", &schedule }, { "precision", &precision }, { "backend", &backend }
    };
    for (const auto& p : named) {
        gpufec_diag diag = { 0, "" };
        throw_on_error(gpufec_decoder_opts_set(&opts, p.first, p.second->c_str(), &diag), p.first, &diag);
    }
    const int sign = sign_from_name(sign_convention);
    if (input_type == "int8")
        opts.input_type = GPUFEC_INPUT_INT8; // bytes go to the library as they are
    else if (input_type != "float")
        throw std::invalid_argument("gpufec: input_type '" + input_type + "' (float, int8)");
    opts.max_iterations = max_iterations;
    opts.normalization = norm;
    opts.offset = offset;
    opts.device = device;
    opts.output = output_all_bits ? GPUFEC_OUTPUT_CODEWORD : GPUFEC_OUTPUT_INFO;
    // Its parameters are binary LDPC's: another family's code would run with them ignored.
    setup(open_code_of(code,
                       GPUFEC_FAMILY_LDPC,
                       "binary LDPC codes (turbo codes: turbo_decoder; GF(q) codes: nbldpc_decoder; any "
                       "family: pdu_decoder)"),
          opts,
          sign,
          llr_scale);
    d_logger->info("code {} (N={}, K={}), {} {} decoder, {} iterations, {}, implementation {}",
                   code,
                   code_info().n,
                   code_info().k,
                   schedule_in_use(),
                   algorithm,
                   max_iterations,
                   precision,
                   variant_in_use());
}

} // namespace gpufec
} // namespace gr
