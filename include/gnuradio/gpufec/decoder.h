#ifndef INCLUDED_GPUFEC_DECODER_H
#define INCLUDED_GPUFEC_DECODER_H

#include <gnuradio/block.h>
#include <gnuradio/gpufec/api.h>

#include <cstdint>
#include <string>

namespace gr {
namespace gpufec {

/*!
 * \brief Batch decoder for any code family: n soft bits in, k (or n) hard bits out per frame.
 * \ingroup gpufec
 *
 * `code`: any code name or file of any family (`gpufec-info --list-codes`).
 * `options`: the decoder's options as `name=value` words separated by spaces or commas, the
 * library's names, ranges and defaults (`gpufec-info --params`; the same text pdu_decoder and the
 * gr-fec definitions take), e.g. "algorithm=nms max_iterations=10 backend=cuda" (docs/user-guide.md
 * has one for each family). An option of another family
 * than the code's is refused. `input_type=int8` makes the input stream int8 (llr_scale is then the
 * LLR of one unit); `output=codeword` emits the n transmitted bits; `max_batch` is the most frames
 * handed to the library per call (0: as the implementation prefers).
 *
 * The block itself only frames the stream: sign_convention ("positive_one": a positive soft
 * value means bit 1, as GNU Radio's soft demodulators emit; "positive_zero": LLRs ln P0/P1),
 * llr_scale (multiplies float soft bits), stats_interval (frames between "stats" messages; 0:
 * none), drop_failed (emit only decoded frames). Tags: every output frame's first bit carries
 * gpufec_frame, gpufec_iterations and gpufec_ok; packet_len tags are followed as in
 * ldpc_decoder.
 *
 * harq_processes > 0 (5G NR rate-matched codes): HARQ soft combining keyed by stream tags. A
 * frame whose first soft bit carries a `harq_process` tag (an integer) is added to that
 * process's soft circular buffer (an `rv` tag 0..3 at the same item names its redundancy
 * version, default the code's; `harq_new` true clears the buffer first), and the buffer is
 * decoded; its output frame is tagged `gpufec_harq_transmissions`. A process whose frame decodes
 * is done. At most harq_processes buffers are kept; untagged frames decode on their own.
 */
class GPUFEC_GR_API decoder : virtual public gr::block
{
public:
    typedef std::shared_ptr<decoder> sptr;

    static sptr make(const std::string& code,
                     const std::string& options = "",
                     const std::string& sign_convention = "positive_one",
                     float llr_scale = 1.0f,
                     int stats_interval = 0,
                     bool drop_failed = false,
                     int harq_processes = 0);

    virtual void set_max_iterations(int max_iterations) = 0;
    virtual int max_iterations() const = 0;
    virtual uint64_t frames() const = 0;
    virtual uint64_t failed_frames() const = 0;
    virtual double mean_iterations() const = 0;
    virtual std::string backend() const = 0;
    virtual std::string variant() const = 0; //!< the implementation and its variant
    virtual double throughput_mbps() const = 0;
    virtual int n() const = 0;
    virtual int k() const = 0;
};

} // namespace gpufec
} // namespace gr

#endif
