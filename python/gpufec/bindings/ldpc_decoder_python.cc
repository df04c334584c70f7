#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <gnuradio/gpufec/ldpc_decoder.h>

namespace py = pybind11;

void bind_ldpc_decoder(py::module& m)
{
    using ldpc_decoder = ::gr::gpufec::ldpc_decoder;
    py::class_<ldpc_decoder, gr::block, gr::basic_block, std::shared_ptr<ldpc_decoder>>(
        m, "ldpc_decoder",
        "Batch LDPC decoder: N soft bits in, K (or N) hard bits out per frame. Default soft-bit "
        "convention: positive means 1, as GNU Radio's soft demodulators emit.")
        .def(py::init(&ldpc_decoder::make),
             py::arg("code"),
             py::arg("algorithm") = "nms",
             py::arg("max_iterations") = 20,
             py::arg("norm") = 0.75f,
             py::arg("offset") = 0.5f,
             py::arg("backend") = "auto",
             py::arg("max_batch") = 0,
             py::arg("sign_convention") = "positive_one",
             py::arg("output_all_bits") = false,
             py::arg("llr_scale") = 1.0f,
             py::arg("device") = 0,
             py::arg("stats_interval") = 0,
             py::arg("schedule") = "auto",
             py::arg("precision") = "float32",
             py::arg("input_type") = "float",
             py::arg("drop_failed") = false)
        .def("set_max_iterations", &ldpc_decoder::set_max_iterations, py::arg("max_iterations"))
        .def("max_iterations", &ldpc_decoder::max_iterations)
        .def("frames", &ldpc_decoder::frames)
        .def("failed_frames", &ldpc_decoder::failed_frames)
        .def("mean_iterations", &ldpc_decoder::mean_iterations)
        .def("backend", &ldpc_decoder::backend)
        .def("throughput_mbps", &ldpc_decoder::throughput_mbps)
        .def("n", &ldpc_decoder::n)
        .def("k", &ldpc_decoder::k);
}
