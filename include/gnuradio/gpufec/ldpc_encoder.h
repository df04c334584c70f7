#ifndef INCLUDED_GPUFEC_LDPC_ENCODER_H
#define INCLUDED_GPUFEC_LDPC_ENCODER_H

#include <gnuradio/block.h>
#include <gnuradio/gpufec/api.h>

namespace gr {
namespace gpufec {

/*!
 * \brief Systematic LDPC encoder: K information bits in, N codeword bits out, per frame.
 * \ingroup gpufec
 *
 * Bits are one per byte (0/1; any non-zero byte counts as 1). `code` is a built-in code name
 * (see `gpufec-info --list-codes`) or the path of an alist / QC prototype matrix file.
 * Information bit i lands at codeword position info_positions()[i].
 */
class GPUFEC_GR_API ldpc_encoder : virtual public gr::block
{
public:
    typedef std::shared_ptr<ldpc_encoder> sptr;

    static sptr make(const std::string& code);

    virtual int n() const = 0; //!< codeword bits per frame
    virtual int k() const = 0; //!< information bits per frame
    virtual std::vector<int> info_positions() const = 0;
};

} // namespace gpufec
} // namespace gr

#endif
