#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <gnuradio/gpufec/ldpc_encoder.h>

namespace py = pybind11;

void bind_ldpc_encoder(py::module& m)
{
    using ldpc_encoder = ::gr::gpufec::ldpc_encoder;
    py::class_<ldpc_encoder, gr::block, gr::basic_block, std::shared_ptr<ldpc_encoder>>(
        m, "ldpc_encoder", "Systematic LDPC encoder: K bits in, N codeword bits out per frame.")
        .def(py::init(&ldpc_encoder::make), py::arg("code"),
             "code: built-in code name or alist / QC matrix file")
        .def("n", &ldpc_encoder::n)
        .def("k", &ldpc_encoder::k)
        .def("info_positions", &ldpc_encoder::info_positions);
}
