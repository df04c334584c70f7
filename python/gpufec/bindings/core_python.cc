/* Bindings of C-core helpers that Python users and GRC need (built-in code list, code sizes). */
#include <pybind11/numpy.h>
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

/* HARQ combining for Python receivers and simulations: the same C calls, on numpy arrays. */
struct harq_code {
    gpufec_code* c = nullptr;
    explicit harq_code(const std::string& name)
    {
        gpufec_diag diag = { 0, "" };
        gpufec_status st = gpufec_code_open(&c, name.c_str(), &diag);
        if (st != GPUFEC_OK)
            throw std::invalid_argument("gpufec: code '" + name + "': " +
                                        (diag.message[0] ? diag.message : gpufec_status_str(st)));
    }
    ~harq_code() { gpufec_code_destroy(c); }
    uint32_t length(std::string* mother) const
    {
        uint32_t len = 0;
        char name[96] = "";
        if (gpufec_code_harq_info(c, &len, name, sizeof name) != GPUFEC_OK)
            throw std::invalid_argument("gpufec: HARQ needs a 5G NR rate-matched code (e=, rv=)");
        if (mother)
            *mother = name;
        return len;
    }
};

static py::tuple harq_info(const std::string& code)
{
    harq_code h(code);
    std::string mother;
    const uint32_t len = h.length(&mother);
    return py::make_tuple(len, mother);
}

static void harq_combine(const std::string& code, py::array_t<float, py::array::c_style | py::array::forcecast> soft,
                         py::array_t<float, py::array::c_style> buffer)
{
    harq_code h(code);
    const uint32_t len = h.length(nullptr);
    gpufec_code_info info;
    gpufec_code_get_info(h.c, &info);
    const size_t values = (size_t)soft.size();
    if (values == 0 || values % info.n)
        throw std::invalid_argument("gpufec.harq_combine: " + std::to_string(values) +
                                    " soft values are not a whole number of frames of " + std::to_string(info.n));
    const size_t frames = values / info.n;
    if ((size_t)buffer.size() != frames * len)
        throw std::invalid_argument("gpufec.harq_combine: the buffer holds " + std::to_string(buffer.size()) +
                                    " values; " + std::to_string(frames) + " frames need " +
                                    std::to_string(frames * len));
    gpufec_status st = gpufec_code_harq_combine(h.c, soft.data(), frames, buffer.mutable_data());
    if (st != GPUFEC_OK)
        throw std::runtime_error(std::string("gpufec.harq_combine: ") + gpufec_status_str(st));
}

/* A 5G NR transport block context (gpufec/nr5g.h) on numpy arrays: encode A bits per transport
 * block into G, decode G soft values into A bits with the CRC results. */
class nr_tb
{
    gpufec_nr_tb* d_tb = nullptr;
    gpufec_nr_tb_info d_info{};

    static void check(gpufec_status st, const char* what)
    {
        if (st != GPUFEC_OK)
            throw std::runtime_error(std::string("gpufec.nr_tb.") + what + ": " + gpufec_status_str(st));
    }

public:
    nr_tb(const std::string& description, const std::string& options, bool decoder)
    {
        gpufec_decoder_opts o;
        gpufec_decoder_opts_default(&o);
        gpufec_diag diag = { 0, "" };
        gpufec_status st = gpufec_decoder_opts_set_text(&o, options.c_str(), nullptr, &diag);
        if (st == GPUFEC_OK)
            st = gpufec_nr_tb_create(&d_tb, description.c_str(), decoder ? &o : nullptr, &diag);
        if (st != GPUFEC_OK)
            throw std::invalid_argument("gpufec.nr_tb('" + description + "'): " +
                                        (diag.message[0] ? diag.message : gpufec_status_str(st)));
        gpufec_nr_tb_get_info(d_tb, &d_info);
    }
    ~nr_tb() { gpufec_nr_tb_destroy(d_tb); }
    nr_tb(const nr_tb&) = delete;
    nr_tb& operator=(const nr_tb&) = delete;

    py::dict info() const
    {
        py::dict d;
        d["A"] = d_info.A;
        d["G"] = d_info.G;
        d["qm"] = d_info.qm;
        d["nl"] = d_info.nl;
        d["rv"] = d_info.rv;
        d["bg"] = d_info.bg;
        d["tb_crc"] = d_info.tb_crc;
        d["C"] = d_info.C;
        d["kprime"] = d_info.kprime;
        d["zc"] = d_info.zc;
        d["C0"] = d_info.C0;
        d["E0"] = d_info.E0;
        d["E1"] = d_info.E1;
        d["codes"] = d_info.code1[0] ? py::make_tuple(std::string(d_info.code0), std::string(d_info.code1))
                                     : py::make_tuple(std::string(d_info.code0));
        return d;
    }

    /* Rows of `per` values: the count of rows, or an error naming the expected length. */
    static size_t rows(size_t size, uint32_t per, const char* what)
    {
        if (size % per)
            throw std::invalid_argument(std::string("gpufec.nr_tb.") + what + ": " + std::to_string(size) +
                                        " values is not a whole number of transport blocks of " + std::to_string(per));
        return size / per;
    }

    py::array_t<uint8_t> encode(py::array_t<uint8_t, py::array::c_style | py::array::forcecast> bits) const
    {
        const size_t n = rows((size_t)bits.size(), d_info.A, "encode");
        py::array_t<uint8_t> out({n, (size_t)d_info.G});
        check(gpufec_nr_tb_encode(d_tb, bits.data(), n, out.mutable_data()), "encode");
        return out;
    }

    py::tuple decode(py::array_t<float, py::array::c_style | py::array::forcecast> soft)
    {
        const size_t n = rows((size_t)soft.size(), d_info.G, "decode");
        py::array_t<uint8_t> bits({n, (size_t)d_info.A}), ok(n), cb({n, (size_t)d_info.C});
        {
            py::gil_scoped_release unlocked;
            check(gpufec_nr_tb_decode(d_tb, soft.data(), n, bits.mutable_data(), ok.mutable_data(), cb.mutable_data()),
                  "decode");
        }
        return py::make_tuple(bits, ok, cb);
    }
};

void bind_core(py::module& m)
{
    py::class_<nr_tb>(m, "nr_tb",
                      "A 5G NR transport block (TS 38.212 7.2): nr_tb('tbs=<A>:g=<G>:qm=<Qm>[:nl=][:rv=][:bg=|:r=]"
                      "[:ncb=]', options='backend=cuda ...'). encode(bits) -> coded bits (n x G); "
                      "decode(soft) -> (bits n x A, tb_ok n, cb_ok n x C); info() -> the plan (C, K', Zc, E0, E1, codes).")
        .def(py::init<const std::string&, const std::string&, bool>(), py::arg("description"),
             py::arg("options") = "", py::arg("decoder") = true)
        .def("info", &nr_tb::info)
        .def("encode", &nr_tb::encode, py::arg("bits"))
        .def("decode", &nr_tb::decode, py::arg("soft"));
    m.def("harq_info", &harq_info, py::arg("code"),
          "(buffer length per frame, name of the mother code that decodes the buffer) of a 5G NR "
          "rate-matched code.");
    m.def("harq_combine", &harq_combine, py::arg("code"), py::arg("soft"), py::arg("buffer"),
          "Adds a transmission's soft values (LLRs, positive = 0; frames x n) into the HARQ buffer "
          "(a float32 numpy array of frames x harq_info(code)[0], zeroed first), in place.");
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
