#ifndef INCLUDED_GPUFEC_LDPC_ENCODER_IMPL_H
#define INCLUDED_GPUFEC_LDPC_ENCODER_IMPL_H

#include "c_handles.h"
#include <gnuradio/gpufec/ldpc_encoder.h>

namespace gr {
namespace gpufec {

class ldpc_encoder_impl : public ldpc_encoder
{
    code_ptr d_code;
    gpufec_code_info d_info;

public:
    explicit ldpc_encoder_impl(const std::string& code);

    void forecast(int noutput_items, gr_vector_int& ninput_items_required) override;
    int general_work(int noutput_items,
                     gr_vector_int& ninput_items,
                     gr_vector_const_void_star& input_items,
                     gr_vector_void_star& output_items) override;

    int n() const override { return (int)d_info.n; }
    int k() const override { return (int)d_info.k; }
    std::vector<int> info_positions() const override;
};

} // namespace gpufec
} // namespace gr

#endif
