#include "batch_decoder_base.h"
#include <gnuradio/gpufec/turbo_decoder.h>
#include <gnuradio/io_signature.h>

#include <utility>

namespace gr {
namespace gpufec {

/* The LTE turbo decoder block: its parameters into decoder options; everything else is the
 * shared batch-decoder base. */
class turbo_decoder_impl : public turbo_decoder, public batch_decoder_base
{
public:
    turbo_decoder_impl(const std::string& code,
                       const std::string& algorithm,
                       int max_iterations,
                       int subblocks,
                       const std::string& guard,
                       int window,
                       float extrinsic_scale,
                       const std::string& backend,
                       int max_batch,
                       const std::string& sign_convention,
                       bool output_all_bits,
                       float llr_scale,
                       int device,
                       int stats_interval,
                       const std::string& input_type,
                       const std::string& arithmetic,
                       bool drop_failed)
        : gr::block("turbo_decoder",
                    gr::io_signature::make(1, 1, input_type == "int8" ? sizeof(int8_t) : sizeof(float)),
                    gr::io_signature::make(1, 1, sizeof(uint8_t))),
          batch_decoder_base(max_batch, stats_interval, drop_failed)
    {
        gpufec_decoder_opts opts;
        gpufec_decoder_opts_default(&opts);
        const std::pair<const char*, std::string> named[] = {
            { "turbo_algorithm", algorithm },       { "guard", guard },
            { "backend", backend },                 { "input_type", input_type == "int8" ? "int8" : "float32" },
            { "subblocks", std::to_string(subblocks) }, { "window", std::to_string(window) },
            { "max_iterations", std::to_string(max_iterations) }, { "device", std::to_string(device) },
            { "arithmetic", arithmetic },
        };
        for (const auto& p : named) {
            gpufec_diag diag = { 0, "" };
            throw_on_error(gpufec_decoder_opts_set(&opts, p.first, p.second.c_str(), &diag), p.first, &diag);
        }
        if (input_type != "int8" && input_type != "float")
            throw std::invalid_argument("gpufec: input_type '" + input_type + "' (float, int8)");
        opts.extrinsic_scale = extrinsic_scale;
        opts.output = output_all_bits ? GPUFEC_OUTPUT_CODEWORD : GPUFEC_OUTPUT_INFO;
        setup(open_turbo_code(code), opts, sign_from_name(sign_convention), llr_scale);
        d_logger->info("code {} (N={}, K={}), {} decoder, P={} ({}), {} iterations, arithmetic {}, implementation {}",
                       code, code_info().n, code_info().k, algorithm, subblocks, guard, max_iterations, arithmetic,
                       variant_in_use());
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

turbo_decoder::sptr turbo_decoder::make(const std::string& code,
                                        const std::string& algorithm,
                                        int max_iterations,
                                        int subblocks,
                                        const std::string& guard,
                                        int window,
                                        float extrinsic_scale,
                                        const std::string& backend,
                                        int max_batch,
                                        const std::string& sign_convention,
                                        bool output_all_bits,
                                        float llr_scale,
                                        int device,
                                        int stats_interval,
                                        const std::string& input_type,
                                        const std::string& arithmetic,
                                        bool drop_failed)
{
    return gnuradio::make_block_sptr<turbo_decoder_impl>(code, algorithm, max_iterations, subblocks, guard, window,
                                                         extrinsic_scale, backend, max_batch, sign_convention,
                                                         output_all_bits, llr_scale, device, stats_interval,
                                                         input_type, arithmetic, drop_failed);
}

} // namespace gpufec
} // namespace gr
