#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <gnuradio/gpufec/nbldpc_decoder.h>
#include <gnuradio/gpufec/nbldpc_encoder.h>

namespace py = pybind11;

void bind_nbldpc(py::module& m)
{
    using nbldpc_encoder = ::gr::gpufec::nbldpc_encoder;
    py::class_<nbldpc_encoder, gr::block, gr::basic_block, std::shared_ptr<nbldpc_encoder>>(
        m, "nbldpc_encoder", "GF(q) LDPC encoder: k bits in, n coded bits out per frame (p bits per symbol).")
        .def(py::init(&nbldpc_encoder::make), py::arg("code"))
        .def("n", &nbldpc_encoder::n)
        .def("k", &nbldpc_encoder::k);

    using nbldpc_decoder = ::gr::gpufec::nbldpc_decoder;
    py::class_<nbldpc_decoder, gr::block, gr::basic_block, std::shared_ptr<nbldpc_decoder>>(
        m, "nbldpc_decoder",
        "Batch GF(q) LDPC decoder: n soft bits in, k (or n) hard bits out per frame. Default soft-bit "
        "convention: positive means 1, as GNU Radio's soft demodulators emit.")
        .def(py::init(&nbldpc_decoder::make),
             py::arg("code"),
             py::arg("algorithm") = "min-max",
             py::arg("max_iterations") = 15,
             py::arg("schedule") = "auto",
             py::arg("backend") = "auto",
             py::arg("max_batch") = 0,
             py::arg("sign_convention") = "positive_one",
             py::arg("output_all_bits") = false,
             py::arg("llr_scale") = 1.0f,
             py::arg("device") = 0,
             py::arg("stats_interval") = 0,
             py::arg("input_type") = "float",
             py::arg("drop_failed") = false)
        .def("set_max_iterations", &nbldpc_decoder::set_max_iterations, py::arg("max_iterations"))
        .def("max_iterations", &nbldpc_decoder::max_iterations)
        .def("frames", &nbldpc_decoder::frames)
        .def("failed_frames", &nbldpc_decoder::failed_frames)
        .def("mean_iterations", &nbldpc_decoder::mean_iterations)
        .def("backend", &nbldpc_decoder::backend)
        .def("throughput_mbps", &nbldpc_decoder::throughput_mbps)
        .def("n", &nbldpc_decoder::n)
        .def("k", &nbldpc_decoder::k);
}
