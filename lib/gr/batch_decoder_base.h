/* What every family's decoder block shares. The block is a thin layer over a C decoder context:
 * this base frames the soft-bit stream into whole frames, stages them (pinned, sign convention
 * applied) and hands batches to the context, moves stream tags frame by frame, keeps the
 * statistics and posts them, and turns C statuses into exceptions. A block (gpufec::decoder, the
 * PDU decoder) constructs gr::block with its io signatures, fills a gpufec_decoder_opts, and
 * calls setup(). */
#ifndef INCLUDED_GPUFEC_BATCH_DECODER_BASE_H
#define INCLUDED_GPUFEC_BATCH_DECODER_BASE_H

#include "c_handles.h"
#include "harq_store.h"
#include <gnuradio/block.h>

#include <atomic>
#include <chrono>
#include <memory>
#include <string>
#include <vector>

namespace gr {
namespace gpufec {

class batch_decoder_base : public virtual gr::block
{
public:
    void forecast(int noutput_items, gr_vector_int& ninput_items_required) override;
    bool start() override;
    bool stop() override; // logs the run's frame error rate, iterations and speed
    int general_work(int noutput_items,
                     gr_vector_int& ninput_items,
                     gr_vector_const_void_star& input_items,
                     gr_vector_void_star& output_items) override;

protected:
    /* sign: -1 when a positive soft value means bit 1 (GNU Radio's demodulators), +1 for LLRs
     * ln P0/P1. scale: multiplies float soft bits; int8 soft bits are scaled by the library. */
    batch_decoder_base(int max_batch, int stats_interval, bool drop_failed = false);
    void setup(code_ptr code, const gpufec_decoder_opts& opts, int sign, float scale);

    /* HARQ by stream tag: a frame whose first soft bit carries a harq_process tag (an integer)
     * is combined into that process's soft buffer (rv tag 0..3, default the code's; harq_new
     * true clears the buffer first) and the buffer decoded; at most max_processes are kept. The
     * code must be 5G NR rate-matched; output info or codeword. */
    void enable_harq(const std::string& code_name, int max_processes);
    void set_iteration_limit(int max_iterations); // applied before the next batch
    int iteration_limit() const { return d_max_iterations.load(); }
    uint64_t decoded_frames() const { return d_frames.load(); }
    uint64_t failed_frame_count() const { return d_failed.load(); }
    double iterations_per_frame() const;
    std::string backend_in_use() const;
    std::string variant_in_use() const; // the implementation and its variant ("cpu-simd AVX2 int16")
    bool on_gpu() const;
    double decoder_mbps() const; // information bits per second inside the decoder
    const gpufec_code_info& code_info() const { return d_info; }
    std::string schedule_in_use() const;

private:
    code_ptr d_code;
    decoder_ptr d_dec;
    gpufec_decoder_opts d_opts;
    gpufec_code_info d_info;
    uint32_t d_llr_len = 0, d_out_len = 0;
    int d_max_batch, d_stats_interval;
    bool d_drop_failed;                 // failed frames are not emitted
    bool d_keep_packet = false;         // drop_failed suspended for the current packet (larger
                                        // than the buffers: its packet_len must stay true)
    bool d_warned_big_packet = false, d_warned_bad_len = false;
    static constexpr uint64_t failed_run_warning = 64; // consecutive failed frames that warn
    uint64_t d_failed_run = 0;
    bool d_warned_failed_run = false;
    std::chrono::steady_clock::time_point d_last_failed_warning;
    int64_t d_packet_left = -1;         // soft bits left in the current packet_len packet; -1: no
                                        // packet seen (frames from the first sample), 0: between
    uint64_t d_skipped = 0;             // soft bits skipped: packet tails, gaps between packets
    std::vector<int64_t> d_out_frame;   // per frame of a work call: its output slot, -1 dropped
    uint64_t d_next_stats;
    int d_sign = -1;
    float d_scale = 1.0f;
    std::atomic<int> d_max_iterations{ 20 };
    std::atomic<uint64_t> d_frames{ 0 }, d_failed{ 0 }, d_iterations{ 0 };
    std::atomic<double> d_decode_seconds{ 0.0 };
    host_buffer<float> d_llr; // pinned where the GPU is: the library's copies stay asynchronous
    host_buffer<int8_t> d_i8;
    std::vector<int32_t> d_iters;       // of the work call's frames
    std::vector<uint8_t> d_converged;
    std::unique_ptr<harq_store> d_harq; // HARQ by tag (enable_harq), else null
    struct harq_frame {
        long process = -1, rv = -1; // process -1: not a HARQ frame
        bool fresh = false;
        long transmissions = 0;     // after combining: tagged on the output
    };
    std::vector<harq_frame> d_harq_frames; // of the work call's frames
    std::vector<float> d_harq_soft;
    std::vector<uint8_t> d_harq_bits;
    std::vector<int32_t> d_harq_iters;
    std::vector<uint8_t> d_harq_ok;
    bool d_warned_harq = false;

    static constexpr int gpu_batch_hint = 256; // frames per call worth batching on the GPU
    static void log_callback(void* user, gpufec_log_level level, const char* message);
    void create_decoder(gpufec_backend backend);
    void decode_chunk(const void* in, int frames, uint8_t* out, int64_t first_frame);
    void count_frames(int frames, const int32_t* iters, const uint8_t* converged);
    bool find_harq_frames(int frames); // fills d_harq_frames; false: none in this call
    void decode_harq_frames(const char* in, uint8_t* out, int frames, size_t item);
    void finish_harq_batch(std::vector<int64_t>& batch, std::vector<long>& processes, uint8_t* out);
    void post_stats();
    void warn_all_failed();
    void move_tags(uint64_t consumed);
    void tag_frames(int frames);
    int frames_to_decode(int ninput, int noutput);
    bool packet_length(const gr::tag_t& t, int64_t* len); // an integer packet_len, else warn once
    bool packet_fits(int64_t frames) const;
};

} // namespace gpufec
} // namespace gr

#endif
