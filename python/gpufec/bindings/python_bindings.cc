/* pybind11 module gnuradio.gpufec.gpufec_python (GNU Radio bindtool layout: one bind_<block>
 * function per block header, each in <block>_python.cc). */
#include <pybind11/pybind11.h>

namespace py = pybind11;

void bind_pdu_decoder(py::module& m);
void bind_fec_def(py::module& m);
void bind_core(py::module& m);
void bind_generic(py::module& m);

PYBIND11_MODULE(gpufec_python, m)
{
    // Base classes (gr::block) live in gnuradio.gr; import them before binding subclasses.
    py::module::import("gnuradio.gr");
    bind_pdu_decoder(m);
    bind_fec_def(m);
    bind_core(m);
    bind_generic(m);
}
