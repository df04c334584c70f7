/* Bindings of C-core helpers that Python users and GRC need (built-in code list, code sizes). */
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <gpufec/gpufec.h>

#include <stdexcept>
#include <string>
#include <vector>

namespace py = pybind11;

static py::dict code_info(const std::string& name)
{
    gpufec_code* c = nullptr;
    gpufec_diag diag = { 0, "" };
    gpufec_status st = gpufec_code_open(&c, name.c_str(), &diag);
    if (st != GPUFEC_OK)
        throw std::invalid_argument("gpufec: code '" + name + "': " +
                                    (diag.message[0] ? diag.message : gpufec_status_str(st)));
    gpufec_code_info i;
    gpufec_code_get_info(c, &i);
    gpufec_code_destroy(c);
    py::dict d;
    d["family"] = std::string(gpufec_family_name(i.family));
    d["n"] = i.n;
    d["n_full"] = i.n_full;
    d["punctured"] = i.punctured;
    d["shortened"] = i.shortened;
    d["repeated"] = i.repeated;
    d["k"] = i.k;
    d["m"] = i.m;
    d["rank"] = i.rank;
    d["edges"] = i.edges;
    d["rate"] = i.rate;
    return d;
}

void bind_core(py::module& m)
{
    m.def("builtin_codes", [](const std::string& family) {
        std::vector<std::string> names;
        for (size_t i = 0; i < gpufec_code_builtin_count(); i++) {
            const char* name = gpufec_code_builtin_name(i);
            gpufec_family f = GPUFEC_FAMILY_LDPC;
            gpufec_code_builtin_family(i, &f);
            if (!family.empty() && family != gpufec_family_name(f))
                continue;
            names.emplace_back(name);
        }
        return names;
    }, py::arg("family") = "",
    "Names of the codes built into the library; a family name (families()) keeps that family's.");
    m.def("families", []() {
        std::vector<py::dict> out;
        gpufec_family f;
        for (size_t i = 0; gpufec_family_at(i, &f) == GPUFEC_OK; i++) {
            py::dict d;
            d["name"] = std::string(gpufec_family_name(f));
            d["label"] = std::string(gpufec_family_label(f));
            d["algorithm_option"] = std::string(gpufec_family_algorithm_option(f));
            out.push_back(d);
        }
        return out;
    }, "The code families of this build, in the registry's order: name, label, and the decoder option "
       "that names the family's algorithms.");
    m.def("code_info", &code_info, py::arg("code"),
          "Sizes of a code (built-in name or matrix file): family, n (transmitted), n_full (mother), "
          "k, punctured, shortened, repeated, and for LDPC m, rank, edges; rate.");
    m.def("cuda_available", []() { return gpufec_cuda_available() != 0; },
          "True when the library has the CUDA backend and a GPU is usable.");
    m.def("version", []() { return std::string(gpufec_version()); });
}
