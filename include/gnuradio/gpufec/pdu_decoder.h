#ifndef INCLUDED_GPUFEC_PDU_DECODER_H
#define INCLUDED_GPUFEC_PDU_DECODER_H

#include <gnuradio/block.h>
#include <gnuradio/gpufec/api.h>

#include <cstdint>
#include <string>

namespace gr {
namespace gpufec {

/*!
 * \brief Message decoder for any code family: a PDU of soft bits in, a PDU of hard bits out.
 * \ingroup gpufec
 *
 * Input port "pdus": (metadata . f32vector or s8vector), a whole number of frames of n soft
 * bits in the encoder's order. Output port "pdus": (metadata . u8vector) of k bits per frame (n
 * with output_all_bits), the input's metadata plus gpufec_frames (long), gpufec_ok (u8vector,
 * 1 per decoded frame), gpufec_iterations (s32vector) and gpufec_failed (long). A PDU whose
 * length is not a whole number of frames, or of another vector type, is not decoded: its
 * metadata comes out with gpufec_error (a string) and an empty vector, and the flowgraph goes on.
 * `code`: any code name or file, of any family. `options`: decoder options as
 * `name=value` pairs separated by spaces or commas, the library's names (`gpufec-info --params`),
 * e.g. "algorithm=nms max_iterations=20". Soft-bit
 * sign and llr_scale as in ldpc_decoder (s8 input: llr_scale is the LLR of one unit).
 */
class GPUFEC_GR_API pdu_decoder : virtual public gr::block
{
public:
    typedef std::shared_ptr<pdu_decoder> sptr;

    static sptr make(const std::string& code,
                     const std::string& options = "",
                     const std::string& sign_convention = "positive_one",
                     float llr_scale = 1.0f,
                     bool output_all_bits = false);

    virtual uint64_t frames() const = 0;
    virtual uint64_t failed_frames() const = 0;
    virtual std::string backend() const = 0;
    virtual int n() const = 0;
    virtual int k() const = 0;
};

} // namespace gpufec
} // namespace gr

#endif
