#ifndef INCLUDED_GPUFEC_NBLDPC_ENCODER_H
#define INCLUDED_GPUFEC_NBLDPC_ENCODER_H

#include <gnuradio/block.h>
#include <gnuradio/gpufec/api.h>

namespace gr {
namespace gpufec {

/*!
 * \brief GF(q) LDPC encoder: k information bits in, n coded bits out, per frame.
 * \ingroup gpufec
 *
 * `code`: a GF(q) LDPC code (`nb-qc-gf32-744`, `nb-gf64-5040`, a `.kn` or `.nbalist` file;
 * `gpufec-info --list-codes`). Symbol j of the codeword is emitted as its p = log2(q) bits,
 * coefficient of alpha^0 first; information bits fill the information symbols in order. Bits are
 * one per byte. nbldpc_decoder expects the same order.
 */
class GPUFEC_GR_API nbldpc_encoder : virtual public gr::block
{
public:
    typedef std::shared_ptr<nbldpc_encoder> sptr;
    static sptr make(const std::string& code);
    virtual int n() const = 0; //!< coded bits per frame
    virtual int k() const = 0; //!< information bits per frame
};

} // namespace gpufec
} // namespace gr

#endif
