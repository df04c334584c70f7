#include "batch_decoder_base.h"
#include <gnuradio/gpufec/nbldpc_decoder.h>
#include <gnuradio/io_signature.h>

#include <utility>

namespace gr {
namespace gpufec {

/* The GF(q) LDPC decoder block: its parameters into decoder options; everything else is the
 * shared batch-decoder base. */
class nbldpc_decoder_impl : public nbldpc_decoder, public batch_decoder_base
{
public:
    nbldpc_decoder_impl(const std::string& code,
                        const std::string& algorithm,
                        int max_iterations,
                        const std::string& schedule,
                        const std::string& backend,
                        int max_batch,
                        const std::string& sign_convention,
                        bool output_all_bits,
                        float llr_scale,
                        int device,
                        int stats_interval,
                        const std::string& input_type,
                        bool drop_failed)
        : gr::block("nbldpc_decoder",
                    gr::io_signature::make(1, 1, input_type == "int8" ? sizeof(int8_t) : sizeof(float)),
                    gr::io_signature::make(1, 1, sizeof(uint8_t))),
          batch_decoder_base(max_batch, stats_interval, drop_failed)
    {
        if (input_type != "int8" && input_type != "float")
            throw std::invalid_argument("gpufec: input_type '" + input_type + "' (float, int8)");
        gpufec_decoder_opts opts;
        gpufec_decoder_opts_default(&opts);
        const std::pair<const char*, std::string> named[] = {
            { "nb_algorithm", algorithm },
            { "schedule", schedule },
            { "backend", backend },
            { "input_type", input_type == "int8" ? "int8" : "float32" },
            { "max_iterations", std::to_string(max_iterations) },
            { "device", std::to_string(device) },
        };
        for (const auto& p : named) {
            gpufec_diag diag = { 0, "" };
            throw_on_error(gpufec_decoder_opts_set(&opts, p.first, p.second.c_str(), &diag), p.first, &diag);
        }
        opts.output = output_all_bits ? GPUFEC_OUTPUT_CODEWORD : GPUFEC_OUTPUT_INFO;
        setup(open_nbldpc_code(code), opts, sign_from_name(sign_convention), llr_scale);
        d_logger->info("code {} (N={}, K={}), {} decoder, schedule {}, {} iterations, implementation {}", code,
                       code_info().n, code_info().k, algorithm, schedule, max_iterations, variant_in_use());
    }

    void set_max_iterations(int max_iterations) override { set_iteration_limit(max_iterations); }
    int max_iterations() const override { return iteration_limit(); }
    uint64_t frames() const override { return decoded_frames(); }
    uint64_t failed_frames() const override { return failed_frame_count(); }
    double mean_iterations() const override { return iterations_per_frame(); }
    std::string backend() const override { return backend_in_use(); }
    double throughput_mbps() const override { return decoder_mbps(); }
    int n() const override { return (int)code_info().n; }
    int k() const override { return (int)code_info().k; }
};

nbldpc_decoder::sptr nbldpc_decoder::make(const std::string& code,
                                          const std::string& algorithm,
                                          int max_iterations,
                                          const std::string& schedule,
                                          const std::string& backend,
                                          int max_batch,
                                          const std::string& sign_convention,
                                          bool output_all_bits,
                                          float llr_scale,
                                          int device,
                                          int stats_interval,
                                          const std::string& input_type,
                                          bool drop_failed)
{
    return gnuradio::make_block_sptr<nbldpc_decoder_impl>(code, algorithm, max_iterations, schedule, backend,
                                                          max_batch, sign_convention, output_all_bits, llr_scale,
                                                          device, stats_interval, input_type, drop_failed);
}

} // namespace gpufec
} // namespace gr
