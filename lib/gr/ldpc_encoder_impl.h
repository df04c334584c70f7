#ifndef INCLUDED_GPUFEC_LDPC_ENCODER_IMPL_H
#define INCLUDED_GPUFEC_LDPC_ENCODER_IMPL_H

#include "frame_encoder_base.h"
#include <gnuradio/gpufec/ldpc_encoder.h>

namespace gr {
namespace gpufec {

class ldpc_encoder_impl : public ldpc_encoder, public frame_encoder_base
{
public:
    explicit ldpc_encoder_impl(const std::string& code);
    int n() const override { return (int)code_info().n; }
    int k() const override { return (int)code_info().k; }
    std::vector<int> info_positions() const override { return information_positions(); }
};

} // namespace gpufec
} // namespace gr

#endif
