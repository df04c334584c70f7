#include "frame_encoder_base.h"
#include <gnuradio/gpufec/turbo_encoder.h>
#include <gnuradio/io_signature.h>

namespace gr {
namespace gpufec {

/* The LTE turbo encoder block: a turbo code name into the shared frame encoder. */
class turbo_encoder_impl : public turbo_encoder, public frame_encoder_base
{
public:
    explicit turbo_encoder_impl(const std::string& code)
        : gr::block("turbo_encoder",
                    gr::io_signature::make(1, 1, sizeof(uint8_t)),
                    gr::io_signature::make(1, 1, sizeof(uint8_t)))
    {
        setup(open_turbo_code(code), code);
    }
    int n() const override { return (int)code_info().n; }
    int k() const override { return (int)code_info().k; }
};

turbo_encoder::sptr turbo_encoder::make(const std::string& code)
{
    return gnuradio::make_block_sptr<turbo_encoder_impl>(code);
}

} // namespace gpufec
} // namespace gr
