#ifndef INCLUDED_GPUFEC_FEC_DECODER_DEF_H
#define INCLUDED_GPUFEC_FEC_DECODER_DEF_H

#include <gnuradio/fec/generic_decoder.h>
#include <gnuradio/fec/generic_encoder.h>
#include <gnuradio/gpufec/api.h>

#include <string>

namespace gr {
namespace gpufec {

/*!
 * \brief A gr-fec decoder definition (gr::fec::generic_decoder) backed by a gr-gpufec decoder,
 * for GNU Radio's own FEC blocks: fec.extended_decoder, fec.decoder, fec.tagged_decoder,
 * fec.async_decoder.
 * \ingroup gpufec
 *
 * One frame per generic_work call: n float soft bits in, k bits out (bytes 0/1). gr-fec's
 * soft-bit convention is the default: a positive value means bit 1 (the FEC examples map bit b to
 * 2b - 1). `code`: any gr-gpufec code name or matrix file; `options`: decoder options by the
 * library's names ("algorithm=nms max_iterations=20"; `gpufec-info --params`). `info`: where the
 * k information bits are taken from: "code" (the code's information positions, as gr-gpufec's
 * encoders place them) or "last" (the last k codeword bits, as gr-fec's parity-check-matrix
 * LDPC encoder places them). The Python helpers gpufec.<family>_decoder_def fill the options
 * from named arguments.
 */
class GPUFEC_GR_API fec_decoder_def : public gr::fec::generic_decoder
{
public:
    static gr::fec::generic_decoder::sptr make(const std::string& code,
                                               const std::string& options = "",
                                               const std::string& info = "code",
                                               const std::string& sign_convention = "positive_one",
                                               float llr_scale = 1.0f);

protected:
    explicit fec_decoder_def(const std::string& name) : gr::fec::generic_decoder(name) {}
};

/*!
 * \brief The matching gr-fec encoder definition (gr::fec::generic_encoder): k bits in, the n
 * transmitted bits of the code's encoder out (bytes 0/1), one frame per call, for
 * fec.extended_encoder and friends. Any gr-gpufec code; decoded by fec_decoder_def with
 * info = "code".
 */
class GPUFEC_GR_API fec_encoder_def : public gr::fec::generic_encoder
{
public:
    static gr::fec::generic_encoder::sptr make(const std::string& code);

protected:
    explicit fec_encoder_def(const std::string& name) : gr::fec::generic_encoder(name) {}
};

} // namespace gpufec
} // namespace gr

#endif
