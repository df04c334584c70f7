#ifndef INCLUDED_GPUFEC_TURBO_DECODER_H
#define INCLUDED_GPUFEC_TURBO_DECODER_H

#include <gnuradio/block.h>
#include <gnuradio/gpufec/api.h>

#include <cstdint>
#include <string>

namespace gr {
namespace gpufec {

/*!
 * \brief Batch LTE turbo decoder: n soft bits in, k (or n) hard bits out per frame.
 * \ingroup gpufec
 *
 * `code`: a turbo code name as turbo_encoder takes it (`lte-turbo-6144:crc=24a`, ...). Input
 * order is the encoder's. Soft-bit conventions, input_type, llr_scale, backend, max_batch,
 * stats_interval, framing and tags are those of ldpc_decoder. algorithm, guard: the library's
 * names (`gpufec-info --params`: turbo_algorithm, guard); subblocks: P sub-blocks decoded in
 * parallel (1: the exact BCJR); window: the training window of the dstw guards;
 * extrinsic_scale: Max-Log-MAP's scaling. A frame counts as failed unless its CRC holds (codes
 * with a CRC) or its decisions settled (without). Max-Log-MAP ignores the LLR scale; Log-MAP wants
 * true LLRs. arithmetic (`gpufec-info --params`): float, the reference (what the GPU runs);
 * int16 / int8, the CPU's fixed-point decoder (Max-Log-MAP, subblocks 1); auto (default): float on
 * the GPU, int16 on the CPU where it applies.
 *
 * Every output frame's first bit carries the tags gpufec_frame (uint64, the frame's number since
 * start), gpufec_iterations (long) and gpufec_ok (bool: its checks or CRC hold). drop_failed:
 * emit only decoded frames (with their tags); frames() and failed_frames() count all.
 */
class GPUFEC_GR_API turbo_decoder : virtual public gr::block
{
public:
    typedef std::shared_ptr<turbo_decoder> sptr;

    static sptr make(const std::string& code,
                     const std::string& algorithm = "maxlogmap",
                     int max_iterations = 8,
                     int subblocks = 1,
                     const std::string& guard = "pivi",
                     int window = 5,
                     float extrinsic_scale = 0.75f,
                     const std::string& backend = "auto",
                     int max_batch = 0,
                     const std::string& sign_convention = "positive_one",
                     bool output_all_bits = false,
                     float llr_scale = 1.0f,
                     int device = 0,
                     int stats_interval = 0,
                     const std::string& input_type = "float",
                     const std::string& arithmetic = "auto",
                     bool drop_failed = false);

    virtual void set_max_iterations(int max_iterations) = 0;
    virtual int max_iterations() const = 0;
    virtual uint64_t frames() const = 0;
    virtual uint64_t failed_frames() const = 0;
    virtual double mean_iterations() const = 0;
    virtual std::string backend() const = 0;
    virtual double throughput_mbps() const = 0;
    virtual int n() const = 0;
    virtual int k() const = 0;
};

} // namespace gpufec
} // namespace gr

#endif
