#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <gnuradio/gpufec/turbo_decoder.h>
#include <gnuradio/gpufec/turbo_encoder.h>

namespace py = pybind11;

void bind_turbo(py::module& m)
{
    using turbo_encoder = ::gr::gpufec::turbo_encoder;
    py::class_<turbo_encoder, gr::block, gr::basic_block, std::shared_ptr<turbo_encoder>>(
        m, "turbo_encoder", "LTE turbo encoder: k bits in, n coded bits out per frame (d0[i], d1[i], d2[i] order).")
        .def(py::init(&turbo_encoder::make), py::arg("code"))
        .def("n", &turbo_encoder::n)
        .def("k", &turbo_encoder::k);

    using turbo_decoder = ::gr::gpufec::turbo_decoder;
    py::class_<turbo_decoder, gr::block, gr::basic_block, std::shared_ptr<turbo_decoder>>(
        m, "turbo_decoder",
        "Batch LTE turbo decoder: n soft bits in, k (or n) hard bits out per frame. Default soft-bit "
        "convention: positive means 1, as GNU Radio's soft demodulators emit.")
        .def(py::init(&turbo_decoder::make),
             py::arg("code"),
             py::arg("algorithm") = "maxlogmap",
             py::arg("max_iterations") = 8,
             py::arg("subblocks") = 1,
             py::arg("guard") = "pivi",
             py::arg("window") = 5,
             py::arg("extrinsic_scale") = 0.75f,
             py::arg("backend") = "auto",
             py::arg("max_batch") = 0,
             py::arg("sign_convention") = "positive_one",
             py::arg("output_all_bits") = false,
             py::arg("llr_scale") = 1.0f,
             py::arg("device") = 0,
             py::arg("stats_interval") = 0,
             py::arg("input_type") = "float",
             py::arg("arithmetic") = "auto",
             py::arg("drop_failed") = false)
        .def("set_max_iterations", &turbo_decoder::set_max_iterations, py::arg("max_iterations"))
        .def("max_iterations", &turbo_decoder::max_iterations)
        .def("frames", &turbo_decoder::frames)
        .def("failed_frames", &turbo_decoder::failed_frames)
        .def("mean_iterations", &turbo_decoder::mean_iterations)
        .def("backend", &turbo_decoder::backend)
        .def("throughput_mbps", &turbo_decoder::throughput_mbps)
        .def("n", &turbo_decoder::n)
        .def("k", &turbo_decoder::k);
}
