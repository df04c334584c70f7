#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <gnuradio/gpufec/decoder.h>
#include <gnuradio/gpufec/encoder.h>

namespace py = pybind11;

void bind_generic(py::module& m)
{
    using encoder = ::gr::gpufec::encoder;
    py::class_<encoder, gr::block, gr::basic_block, std::shared_ptr<encoder>>(
        m, "encoder", "Encoder for any code family: k bits in, n coded bits out per frame.")
        .def(py::init(&encoder::make), py::arg("code"))
        .def("n", &encoder::n)
        .def("k", &encoder::k)
        .def("info_positions", &encoder::info_positions);

    using decoder = ::gr::gpufec::decoder;
    py::class_<decoder, gr::block, gr::basic_block, std::shared_ptr<decoder>>(
        m, "decoder",
        "Batch decoder for any code family: n soft bits in, k (or n) hard bits out per frame. options: the "
        "library's name=value words (gpufec-info --params). Default soft-bit convention: positive means 1, as "
        "GNU Radio's soft demodulators emit.")
        .def(py::init(&decoder::make),
             py::arg("code"),
             py::arg("options") = "",
             py::arg("sign_convention") = "positive_one",
             py::arg("llr_scale") = 1.0f,
             py::arg("stats_interval") = 0,
             py::arg("drop_failed") = false,
             py::arg("harq_processes") = 0)
        .def("set_max_iterations", &decoder::set_max_iterations, py::arg("max_iterations"))
        .def("max_iterations", &decoder::max_iterations)
        .def("frames", &decoder::frames)
        .def("failed_frames", &decoder::failed_frames)
        .def("mean_iterations", &decoder::mean_iterations)
        .def("backend", &decoder::backend)
        .def("variant", &decoder::variant)
        .def("throughput_mbps", &decoder::throughput_mbps)
        .def("n", &decoder::n)
        .def("k", &decoder::k);
}
