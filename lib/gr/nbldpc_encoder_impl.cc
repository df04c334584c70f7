#include "frame_encoder_base.h"
#include <gnuradio/gpufec/nbldpc_encoder.h>
#include <gnuradio/io_signature.h>

namespace gr {
namespace gpufec {

/* The GF(q) LDPC encoder block: a GF(q) code into the shared frame encoder. */
class nbldpc_encoder_impl : public nbldpc_encoder, public frame_encoder_base
{
public:
    explicit nbldpc_encoder_impl(const std::string& code)
        : gr::block("nbldpc_encoder",
                    gr::io_signature::make(1, 1, sizeof(uint8_t)),
                    gr::io_signature::make(1, 1, sizeof(uint8_t)))
    {
        setup(open_nbldpc_code(code), code);
    }
    int n() const override { return (int)code_info().n; }
    int k() const override { return (int)code_info().k; }
};

nbldpc_encoder::sptr nbldpc_encoder::make(const std::string& code)
{
    return gnuradio::make_block_sptr<nbldpc_encoder_impl>(code);
}

} // namespace gpufec
} // namespace gr
