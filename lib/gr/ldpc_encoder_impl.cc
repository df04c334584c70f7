#include "ldpc_encoder_impl.h"
#include <gnuradio/io_signature.h>

namespace gr {
namespace gpufec {

ldpc_encoder::sptr ldpc_encoder::make(const std::string& code)
{
    return gnuradio::make_block_sptr<ldpc_encoder_impl>(code);
}

ldpc_encoder_impl::ldpc_encoder_impl(const std::string& code)
    : gr::block("ldpc_encoder",
                gr::io_signature::make(1, 1, sizeof(uint8_t)),
                gr::io_signature::make(1, 1, sizeof(uint8_t)))
{
    setup(open_code(code), code);
}

} // namespace gpufec
} // namespace gr
