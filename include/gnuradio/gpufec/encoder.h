#ifndef INCLUDED_GPUFEC_ENCODER_H
#define INCLUDED_GPUFEC_ENCODER_H

#include <gnuradio/block.h>
#include <gnuradio/gpufec/api.h>

#include <string>
#include <vector>

namespace gr {
namespace gpufec {

/*!
 * \brief Encoder for any code family: k information bits in, n coded bits out per frame, one bit
 * per byte, in the order gpufec::decoder expects.
 * \ingroup gpufec
 *
 * `code`: any code name or file that encodes, of any family; one that
 * cannot is refused when the block is made.
 */
class GPUFEC_GR_API encoder : virtual public gr::block
{
public:
    typedef std::shared_ptr<encoder> sptr;
    static sptr make(const std::string& code);
    virtual int n() const = 0; //!< coded bits per frame
    virtual int k() const = 0; //!< information bits per frame
    //! Where each information bit sits in the emitted frame (k positions in 0..n-1).
    virtual std::vector<int> info_positions() const = 0;
};

} // namespace gpufec
} // namespace gr

#endif
