/* RAII owners of the C objects, and the one place where C status codes become exceptions. */
#ifndef INCLUDED_GPUFEC_C_HANDLES_H
#define INCLUDED_GPUFEC_C_HANDLES_H

#include <gpufec/gpufec.h>

#include <algorithm>
#include <memory>
#include <stdexcept>
#include <string>

namespace gr {
namespace gpufec {

struct code_deleter {
    void operator()(gpufec_code* c) const { gpufec_code_destroy(c); }
};
struct decoder_deleter {
    void operator()(gpufec_decoder* d) const { gpufec_decoder_destroy(d); }
};
using code_ptr = std::unique_ptr<gpufec_code, code_deleter>;
using decoder_ptr = std::unique_ptr<gpufec_decoder, decoder_deleter>;

inline void throw_on_error(gpufec_status st, const std::string& context,
                           const gpufec_diag* diag = nullptr)
{
    if (st == GPUFEC_OK)
        return;
    std::string msg = "gpufec: " + context + ": " +
                      (diag && diag->message[0] ? std::string(diag->message)
                                                : std::string(gpufec_status_str(st)));
    if (st == GPUFEC_ERR_INVALID_ARGUMENT || st == GPUFEC_ERR_PARSE ||
        st == GPUFEC_ERR_UNKNOWN_CODE)
        throw std::invalid_argument(msg);
    throw std::runtime_error(msg);
}

/* A staging buffer in page-locked memory when the CUDA backend is there (gpufec_host_alloc), so
 * that the library's copies to the GPU are asynchronous and at the PCIe ceiling; grows on demand,
 * never shrinks. */
template <typename T>
class host_buffer
{
    struct freer {
        void operator()(void* p) const { gpufec_host_free(p); }
    };
    std::unique_ptr<void, freer> d_ptr;
    size_t d_count = 0;

public:
    T* get(size_t count)
    {
        if (count > d_count) {
            void* p = nullptr;
            d_ptr.reset();
            d_count = 0;
            if (gpufec_host_alloc(&p, count * sizeof(T)) != GPUFEC_OK || !p)
                throw std::bad_alloc();
            d_ptr.reset(p);
            d_count = count;
        }
        return static_cast<T*>(d_ptr.get());
    }
};

inline code_ptr open_code(const std::string& name)
{
    gpufec_code* c = nullptr;
    gpufec_diag diag = { 0, "" };
    // A C string ends at the first NUL: refuse such a name rather than open a shorter one.
    if (name.find('\0') != std::string::npos)
        throw std::invalid_argument("gpufec: code name contains a NUL byte");
    gpufec_status st = gpufec_code_open(&c, name.c_str(), &diag);
    if (st != GPUFEC_OK) {
        /* Flowgraphs saved before the GRC blocks were generated hold the LDPC drop-down's key, the
         * name with '-' written '_' (mackay_1008_504): open the built-in code it stood for. */
        for (size_t i = 0; i < gpufec_code_builtin_count(); i++) {
            std::string key = gpufec_code_builtin_name(i);
            std::replace(key.begin(), key.end(), '-', '_');
            if (key == name && key != gpufec_code_builtin_name(i))
                return open_code(gpufec_code_builtin_name(i));
        }
    }
    throw_on_error(st, "code '" + name + "'", &diag);
    return code_ptr(c);
}

/* Decoder options from "name=value" words separated by spaces or commas (the library's names;
 * fec_decoder_def.cc); with a code, an option of another family is refused. */
gpufec_decoder_opts opts_from_text(const std::string& options, const gpufec_code* code = nullptr);

/* An encoder must be able to encode its code: found out at construction (a code too large for
 * the generic encoder, such as nb-gf64-60000, is refused here; at run time it stopped the
 * flowgraph). Encodes one frame of zeros, which also builds the encoder once. */
inline void require_encoder(const gpufec_code* code, const std::string& name)
{
    gpufec_code_info info;
    gpufec_code_get_info(code, &info);
    std::string u(info.k, '\0'), x(info.n, '\0');
    const gpufec_status st = gpufec_code_encode(code, reinterpret_cast<const uint8_t*>(u.data()), 1,
                                                reinterpret_cast<uint8_t*>(&x[0]));
    if (st != GPUFEC_OK)
        throw std::invalid_argument("gpufec: code '" + name + "' cannot be encoded: " + gpufec_status_str(st));
}

/* "positive_one" (GNU Radio's soft demodulators: a positive value means bit 1) -> -1,
 * "positive_zero" (LLR ln P0/P1) -> +1. */
inline int sign_from_name(const std::string& convention)
{
    if (convention == "positive_one")
        return -1;
    if (convention == "positive_zero")
        return 1;
    throw std::invalid_argument("gpufec: sign_convention '" + convention + "' (positive_one, positive_zero)");
}

} // namespace gpufec
} // namespace gr

#endif
