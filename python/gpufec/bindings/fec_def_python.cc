#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <gnuradio/gpufec/fec_decoder_def.h>

namespace py = pybind11;

void bind_fec_def(py::module& m)
{
    // gr-fec's generic_decoder is bound by gnuradio.fec; import it so that ours is its subclass.
    py::module::import("gnuradio.fec");
    using def = ::gr::gpufec::fec_decoder_def;
    py::class_<def, gr::fec::generic_decoder, std::shared_ptr<def>>(
        m, "fec_decoder_def",
        "A gr-fec decoder definition (generic_decoder) backed by a gr-gpufec decoder, for fec.extended_decoder, "
        "fec.decoder, fec.tagged_decoder and fec.async_decoder.")
        .def_static("make", &def::make, py::arg("code"), py::arg("options") = "", py::arg("info") = "code",
                    py::arg("sign_convention") = "positive_one", py::arg("llr_scale") = 1.0f);
    using edef = ::gr::gpufec::fec_encoder_def;
    py::class_<edef, gr::fec::generic_encoder, std::shared_ptr<edef>>(
        m, "fec_encoder_def", "A gr-fec encoder definition (generic_encoder) for any gr-gpufec code.")
        .def_static("make", &edef::make, py::arg("code"));
}
