/* What every family's encoder block shares: k bits in, n bits out per frame, through the C code
 * object's encoder (family-neutral). A family block constructs gr::block with byte streams and
 * calls setup(). */
#ifndef INCLUDED_GPUFEC_FRAME_ENCODER_BASE_H
#define INCLUDED_GPUFEC_FRAME_ENCODER_BASE_H

#include "c_handles.h"
#include <gnuradio/block.h>

#include <vector>

namespace gr {
namespace gpufec {

class frame_encoder_base : public virtual gr::block
{
public:
    void forecast(int noutput_items, gr_vector_int& ninput_items_required) override;
    int general_work(int noutput_items,
                     gr_vector_int& ninput_items,
                     gr_vector_const_void_star& input_items,
                     gr_vector_void_star& output_items) override;

protected:
    void setup(code_ptr code, const std::string& name);
    const gpufec_code_info& code_info() const { return d_info; }
    std::vector<int> information_positions() const;

private:
    code_ptr d_code;
    gpufec_code_info d_info;
};

} // namespace gpufec
} // namespace gr

#endif
