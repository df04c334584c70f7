#ifndef INCLUDED_GPUFEC_LDPC_DECODER_IMPL_H
#define INCLUDED_GPUFEC_LDPC_DECODER_IMPL_H

#include "c_handles.h"
#include <gnuradio/gpufec/ldpc_decoder.h>

#include <atomic>
#include <vector>

namespace gr {
namespace gpufec {

class ldpc_decoder_impl : public ldpc_decoder
{
    code_ptr d_code;
    decoder_ptr d_dec;
    gpufec_decoder_opts d_opts;
    gpufec_code_info d_info;
    uint32_t d_llr_len, d_out_len;
    int d_max_batch;
    float d_gain; // llr_scale, negated for the positive_one convention
    int d_stats_interval;
    uint64_t d_next_stats;

    std::atomic<int> d_max_iterations;
    std::atomic<uint64_t> d_frames{ 0 }, d_failed{ 0 }, d_iterations{ 0 };
    std::atomic<double> d_decode_seconds{ 0.0 };

    bool d_int8 = false;    // input_type "int8": byte soft bits, scaled by the library
    host_buffer<float> d_llr; // pinned where the GPU is: the library's copies stay asynchronous
    host_buffer<int8_t> d_i8;
    std::vector<int32_t> d_iters;
    std::vector<uint8_t> d_converged;

    static constexpr int gpu_batch_hint = 256; // frames per call worth batching on the GPU
    static void log_callback(void* user, gpufec_log_level level, const char* message);
    void create_decoder(gpufec_backend backend);
    void decode_chunk(const void* in, int frames, uint8_t* out);
    void post_stats();
    void move_tags(uint64_t consumed);

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
                      const std::string& input_type);

    void forecast(int noutput_items, gr_vector_int& ninput_items_required) override;
    bool start() override;
    int general_work(int noutput_items,
                     gr_vector_int& ninput_items,
                     gr_vector_const_void_star& input_items,
                     gr_vector_void_star& output_items) override;

    void set_max_iterations(int max_iterations) override;
    int max_iterations() const override { return d_max_iterations.load(); }
    uint64_t frames() const override { return d_frames.load(); }
    uint64_t failed_frames() const override { return d_failed.load(); }
    double mean_iterations() const override;
    std::string backend() const override;
    double throughput_mbps() const override;
    int n() const override { return (int)d_info.n; }
    int k() const override { return (int)d_info.k; }
};

} // namespace gpufec
} // namespace gr

#endif
