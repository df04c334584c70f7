#ifndef INCLUDED_GPUFEC_TURBO_ENCODER_H
#define INCLUDED_GPUFEC_TURBO_ENCODER_H

#include <gnuradio/block.h>
#include <gnuradio/gpufec/api.h>

namespace gr {
namespace gpufec {

/*!
 * \brief LTE turbo encoder (3GPP TS 36.212): k information bits in, n coded bits out, per frame.
 * \ingroup gpufec
 *
 * `code` is a turbo code name: `lte-turbo-<K>` (the mother code: n = 3 (K + 4) bits emitted per
 * bit index as d0[i], d1[i], d2[i], i = 0 .. K+3), with `:crc=24a|24b` (the last 24 of the K
 * bits are the CRC the encoder attaches: k = K - 24) and `:e=<E>:rv=<RV>` (rate matched to E
 * bits, in the circular buffer's order). turbo_decoder expects the same order. Bits are one per
 * byte.
 */
class GPUFEC_GR_API turbo_encoder : virtual public gr::block
{
public:
    typedef std::shared_ptr<turbo_encoder> sptr;
    static sptr make(const std::string& code);
    virtual int n() const = 0; //!< coded bits per frame
    virtual int k() const = 0; //!< information bits per frame
};

} // namespace gpufec
} // namespace gr

#endif
