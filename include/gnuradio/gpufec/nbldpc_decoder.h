#ifndef INCLUDED_GPUFEC_NBLDPC_DECODER_H
#define INCLUDED_GPUFEC_NBLDPC_DECODER_H

#include <gnuradio/block.h>
#include <gnuradio/gpufec/api.h>

#include <cstdint>
#include <string>

namespace gr {
namespace gpufec {

/*!
 * \brief Batch GF(q) LDPC decoder: n soft bits in, k (or n) hard bits out per frame.
 * \ingroup gpufec
 *
 * `code`: as nbldpc_encoder takes it; input in the encoder's bit order. algorithm: `min-max` or
 * `fft-bp`; schedule: `layered`, `flooding` or `auto` (layered min-max, flooding FFT-BP). A
 * frame counts as failed unless its decisions satisfy every GF(q) check. Soft-bit conventions,
 * input_type, llr_scale (FFT-BP wants true LLRs), backend, max_batch, stats_interval, framing and
 * tags are those of ldpc_decoder.
 *
 * Every output frame's first bit carries the tags gpufec_frame (uint64, the frame's number since
 * start), gpufec_iterations (long) and gpufec_ok (bool: its checks or CRC hold). drop_failed:
 * emit only decoded frames (with their tags); frames() and failed_frames() count all.
 */
class GPUFEC_GR_API nbldpc_decoder : virtual public gr::block
{
public:
    typedef std::shared_ptr<nbldpc_decoder> sptr;

    static sptr make(const std::string& code,
                     const std::string& algorithm = "min-max",
                     int max_iterations = 15,
                     const std::string& schedule = "auto",
                     const std::string& backend = "auto",
                     int max_batch = 0,
                     const std::string& sign_convention = "positive_one",
                     bool output_all_bits = false,
                     float llr_scale = 1.0f,
                     int device = 0,
                     int stats_interval = 0,
                     const std::string& input_type = "float",
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
