#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <gnuradio/gpufec/pdu_decoder.h>

namespace py = pybind11;

void bind_pdu_decoder(py::module& m)
{
    using pdu_decoder = ::gr::gpufec::pdu_decoder;
    py::class_<pdu_decoder, gr::block, gr::basic_block, std::shared_ptr<pdu_decoder>>(
        m, "pdu_decoder",
        "Message decoder for any code family: PDUs of soft bits (f32vector or s8vector, whole frames) in, "
        "PDUs of hard bits out, with gpufec_frames, gpufec_ok, gpufec_iterations, gpufec_failed in the metadata.")
        .def(py::init(&pdu_decoder::make),
             py::arg("code"),
             py::arg("options") = "",
             py::arg("sign_convention") = "positive_one",
             py::arg("llr_scale") = 1.0f,
             py::arg("output_all_bits") = false)
        .def("frames", &pdu_decoder::frames)
        .def("failed_frames", &pdu_decoder::failed_frames)
        .def("backend", &pdu_decoder::backend)
        .def("n", &pdu_decoder::n)
        .def("k", &pdu_decoder::k);
}
