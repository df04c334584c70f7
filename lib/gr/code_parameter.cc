#include "c_handles.h"
#include <gnuradio/gpufec/code_parameter.h>

#include <stdexcept>

namespace gr {
namespace gpufec {

double code_parameter(const std::string& code, const std::string& which)
{
    const code_ptr c = open_code(code);
    gpufec_code_info i;
    gpufec_code_get_info(c.get(), &i);
    if (which == "rate")
        return i.rate;
    if (which == "n")
        return i.n;
    if (which == "k")
        return i.k;
    if (which == "n_full")
        return i.n_full;
    throw std::invalid_argument("gpufec::code_parameter: which='" + which + "': must be rate, n, k or n_full");
}

} // namespace gpufec
} // namespace gr
