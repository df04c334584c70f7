/* A code's sizes for flowgraph variables (GRC's "Code Parameter" block): the noise of an Eb/N0
 * demo follows the code's rate, a frame count its k, without retyping them beside the code. */
#ifndef INCLUDED_GPUFEC_CODE_PARAMETER_H
#define INCLUDED_GPUFEC_CODE_PARAMETER_H

#include <gnuradio/gpufec/api.h>

#include <string>

namespace gr {
namespace gpufec {

/*!
 * \brief One size of a code: which = "rate" (k/n), "n" (transmitted bits per frame), "k"
 * (information bits) or "n_full" (mother codeword bits). Throws std::invalid_argument naming the
 * code or the parameter when either is unknown.
 * \ingroup gpufec
 */
GPUFEC_GR_API double code_parameter(const std::string& code, const std::string& which);

} // namespace gpufec
} // namespace gr

#endif
