#include "frame_encoder_base.h"

#include <algorithm>

namespace gr {
namespace gpufec {

void frame_encoder_base::setup(code_ptr code, const std::string& name)
{
    d_code = std::move(code);
    gpufec_code_get_info(d_code.get(), &d_info);
    require_encoder(d_code.get(), name);
    set_output_multiple((int)d_info.n);
    set_relative_rate((uint64_t)d_info.n, (uint64_t)d_info.k);
}

void frame_encoder_base::forecast(int noutput_items, gr_vector_int& ninput_items_required)
{
    ninput_items_required[0] = (noutput_items / (int)d_info.n) * (int)d_info.k;
}

int frame_encoder_base::general_work(int noutput_items,
                                     gr_vector_int& ninput_items,
                                     gr_vector_const_void_star& input_items,
                                     gr_vector_void_star& output_items)
{
    const int frames = std::min(ninput_items[0] / (int)d_info.k, noutput_items / (int)d_info.n);
    if (frames <= 0)
        return 0;
    throw_on_error(gpufec_code_encode(d_code.get(),
                                      static_cast<const uint8_t*>(input_items[0]),
                                      (size_t)frames,
                                      static_cast<uint8_t*>(output_items[0])),
                   "encode");
    consume_each(frames * (int)d_info.k);
    return frames * (int)d_info.n;
}

std::vector<int> frame_encoder_base::information_positions() const
{
    std::vector<uint32_t> pos(d_info.k);
    gpufec_code_info_positions(d_code.get(), pos.data());
    return std::vector<int>(pos.begin(), pos.end());
}

} // namespace gpufec
} // namespace gr
