/* The family-neutral blocks: gpufec::decoder (code + the library's option text) and
 * gpufec::encoder (any code). Everything they do is the shared bases' work. */
#include "batch_decoder_base.h"
#include "frame_encoder_base.h"
#include <gnuradio/gpufec/decoder.h>
#include <gnuradio/gpufec/encoder.h>
#include <gnuradio/io_signature.h>

namespace gr {
namespace gpufec {

namespace {

/* The options before the code is open: what the stream's item size and the base need. */
gpufec_decoder_opts early_opts(const std::string& options) { return opts_from_text(options); }

} // namespace

class decoder_impl : public decoder, public batch_decoder_base
{
public:
    void set_max_iterations(int max_iterations) override { set_iteration_limit(max_iterations); }
    int max_iterations() const override { return iteration_limit(); }
    uint64_t frames() const override { return decoded_frames(); }
    uint64_t failed_frames() const override { return failed_frame_count(); }
    double mean_iterations() const override { return iterations_per_frame(); }
    std::string backend() const override { return backend_in_use(); }
    std::string variant() const override { return variant_in_use(); }
    double throughput_mbps() const override { return decoder_mbps(); }
    int n() const override { return (int)code_info().n; }
    int k() const override { return (int)code_info().k; }

    /* early: the options before the code is open (make() reads them from the text), what the
     * stream's item size and the base need. */
    decoder_impl(const std::string& code,
                 const std::string& options,
                 const gpufec_decoder_opts& early,
                 const std::string& sign_convention,
                 float llr_scale,
                 int stats_interval,
                 bool drop_failed,
                 int harq_processes)
        : gr::block("decoder",
                    gr::io_signature::make(
                        1, 1, early.input_type == GPUFEC_INPUT_INT8 ? sizeof(int8_t) : sizeof(float)),
                    gr::io_signature::make(1, 1, sizeof(uint8_t))),
          batch_decoder_base((int)early.max_batch, stats_interval, drop_failed)
    {
        if (early.input_type != GPUFEC_INPUT_INT8 && early.input_type != GPUFEC_INPUT_FLOAT32)
            throw std::invalid_argument(std::string("gpufec: options: input_type=") +
                                        gpufec_input_type_name(early.input_type) +
                                        ": a stream carries float32 or int8 soft bits");
        code_ptr c = open_code(code);
        const gpufec_decoder_opts opts = opts_from_text(options, c.get()); // options of another family refused
        setup(std::move(c), opts, sign_from_name(sign_convention), llr_scale);
        enable_harq(code, harq_processes);
        d_logger->info("code {} (N={}, K={}), options '{}', implementation {}", code, code_info().n, code_info().k,
                       options, variant_in_use());
    }
};

decoder::sptr decoder::make(const std::string& code,
                            const std::string& options,
                            const std::string& sign_convention,
                            float llr_scale,
                            int stats_interval,
                            bool drop_failed,
                            int harq_processes)
{
    return gnuradio::make_block_sptr<decoder_impl>(
        code, options, early_opts(options), sign_convention, llr_scale, stats_interval, drop_failed, harq_processes);
}

class encoder_impl : public encoder, public frame_encoder_base
{
public:
    explicit encoder_impl(const std::string& code)
        : gr::block("encoder",
                    gr::io_signature::make(1, 1, sizeof(uint8_t)),
                    gr::io_signature::make(1, 1, sizeof(uint8_t)))
    {
        setup(open_code(code), code);
    }
    int n() const override { return (int)code_info().n; }
    int k() const override { return (int)code_info().k; }
    std::vector<int> info_positions() const override { return information_positions(); }
};

encoder::sptr encoder::make(const std::string& code) { return gnuradio::make_block_sptr<encoder_impl>(code); }

} // namespace gpufec
} // namespace gr
