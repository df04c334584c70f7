#ifndef INCLUDED_GPUFEC_LDPC_DECODER_IMPL_H
#define INCLUDED_GPUFEC_LDPC_DECODER_IMPL_H

#include "batch_decoder_base.h"
#include <gnuradio/gpufec/ldpc_decoder.h>

namespace gr {
namespace gpufec {

/* The binary LDPC decoder block: its parameters into decoder options; everything else is the
 * shared batch-decoder base. */
class ldpc_decoder_impl : public ldpc_decoder, public batch_decoder_base
{
public:
    ldpc_decoder_impl(const std::string& code,
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
                      bool drop_failed);

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

} // namespace gpufec
} // namespace gr

#endif
