#ifndef INCLUDED_GPUFEC_LDPC_DECODER_H
#define INCLUDED_GPUFEC_LDPC_DECODER_H

#include <gnuradio/block.h>
#include <gnuradio/gpufec/api.h>

namespace gr {
namespace gpufec {

/*!
 * \brief Batch LDPC decoder: N soft bits in, K information bits (or the N transmitted codeword
 * bits, as the encoder emits them) out, per frame.
 * \ingroup gpufec
 *
 * Every complete frame present at a work() call is decoded, in batches of at most max_batch
 * frames (0: all of them in one call, the backend splits them as it likes); a complete frame
 * is never held back waiting for more input. The input is frame-aligned (frames are counted
 * from the first sample; a shifted stream decodes every frame wrong) or a tagged stream: a
 * packet_len tag starts a packet, frames start at it and every n soft bits after it, and a
 * packet's tail that cannot fill a frame and anything between packets are skipped (all decoder
 * blocks share this framing). Tags move with their
 * frame; packet_len tags are rewritten from soft bits to output bits. A frame of nothing but
 * erasures (0 or NaN) counts as failed.
 *
 * Soft bits: with sign_convention "positive_one" (default) a positive value means bit 1, which
 * is what GNU Radio's own soft demodulators (digital.constellation_soft_decoder_cf) emit; with
 * "positive_zero" a positive value means bit 0 (log-likelihood ratios ln P0/P1). Values are
 * multiplied by llr_scale first; SPA and offset min-sum want true LLRs (2y/sigma^2 for BPSK),
 * plain and normalised min-sum do not care about the scale.
 *
 * Parameters: algorithm, schedule, backend and precision take the library's names for them
 * (`gpufec-info --params` lists every choice; the GRC drop-downs are generated from the same
 * table). The hard-decision algorithms use only the sign of each soft bit; backend "auto" falls
 * back to the CPU (logged); norm is the NMS factor, offset the OMS offset; precision is how the
 * decoder stores its messages (reduced precision: min-sum family, layered; int8 counts soft
 * values in steps of 0.25 after llr_scale, so scale soft bits to LLRs first). When
 * stats_interval > 0, a dictionary {frames, failed_frames, mean_iterations, backend} is posted
 * on the "stats" message port each time stats_interval more frames have been decoded.
 *
 * input_type "float" (default) takes float soft bits; "int8" takes bytes (signed char, e.g. from
 * blocks.float_to_char), which cross to the GPU 4x narrower: the LLR is value * llr_scale (after
 * float_to_char with scale s, use llr_scale = (LLR scale of the float stream) / s). The sign
 * convention applies to both.
 *
 * Every output frame's first bit carries the tags gpufec_frame (uint64, the frame's number since
 * start), gpufec_iterations (long) and gpufec_ok (bool: its checks or CRC hold). drop_failed:
 * emit only decoded frames (with their tags); frames() and failed_frames() count all.
 */
class GPUFEC_GR_API ldpc_decoder : virtual public gr::block
{
public:
    typedef std::shared_ptr<ldpc_decoder> sptr;

    static sptr make(const std::string& code,
                     const std::string& algorithm = "nms",
                     int max_iterations = 20,
                     float norm = 0.75f,
                     float offset = 0.5f,
                     const std::string& backend = "auto",
                     int max_batch = 0,
                     const std::string& sign_convention = "positive_one",
                     bool output_all_bits = false,
                     float llr_scale = 1.0f,
                     int device = 0,
                     int stats_interval = 0,
                     const std::string& schedule = "auto",
                     const std::string& precision = "float32",
                     const std::string& input_type = "float",
                     bool drop_failed = false);

    virtual void set_max_iterations(int max_iterations) = 0;
    virtual int max_iterations() const = 0;

    virtual uint64_t frames() const = 0;        //!< frames decoded so far
    virtual uint64_t failed_frames() const = 0; //!< frames whose output is not a codeword
    virtual double mean_iterations() const = 0;
    virtual std::string backend() const = 0;    //!< backend in use ("cpu" or "cuda")
    //! Information bits decoded per second spent inside the decoder (Mb/s), transfers included.
    virtual double throughput_mbps() const = 0;
    virtual int n() const = 0;
    virtual int k() const = 0;
};

} // namespace gpufec
} // namespace gr

#endif
