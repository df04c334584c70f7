/* Convolutional decoding in one process, one run: gr-fec's cc_decoder (GNU Radio's Viterbi, as
 * FEC Extended Decoder feeds it: soft values x 48 + its shift, as bytes) on one CPU core, and
 * gr-gpufec's decoder on one CPU core and on the GPU, on the same noisy frames of the K = 7
 * (171, 133) rate-1/2 code, zero tail. Prints information Mb/s and bit errors of each.
 * Usage: conv_grfec_bench [FRAMES] [FRAME_BITS] [EBN0_DB]   (defaults 20000, 1024, 4.0)
 * Build (needs GNU Radio's gr-fec and a built libgpufec):
 *   g++ -O2 -std=c++17 benchmarks/conv_grfec_bench.cc -Iinclude -LBUILD/lib -lgpufec \
 *       $(pkg-config --cflags --libs gnuradio-fec gnuradio-runtime) -o conv_grfec_bench */
#include <gnuradio/fec/cc_decoder.h>
#include <gpufec/gpufec.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <random>
#include <string>
#include <vector>

static double now()
{
    return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

int main(int argc, char** argv)
{
    const long frames = argc > 1 ? std::atol(argv[1]) : 20000;
    const int k = argc > 2 ? std::atoi(argv[2]) : 1024;
    const double ebn0 = argc > 3 ? std::atof(argv[3]) : 4.0;
    const std::string name = "conv-k7-171-133:k=" + std::to_string(k);
    gpufec_code* code = nullptr;
    gpufec_diag d{0, ""};
    if (gpufec_code_open(&code, name.c_str(), &d) != GPUFEC_OK) {
        std::fprintf(stderr, "%s: %s\n", name.c_str(), d.message);
        return 2;
    }
    gpufec_code_info info;
    gpufec_code_get_info(code, &info);
    const int n = (int)info.n, distinct = 64;
    std::mt19937_64 rng(1);
    std::normal_distribution<double> gauss(0.0, 1.0);
    std::vector<uint8_t> bits((size_t)distinct * k), cw((size_t)distinct * n);
    for (auto& b : bits)
        b = (uint8_t)(rng() & 1);
    gpufec_code_encode(code, bits.data(), distinct, cw.data());
    const double sigma = std::sqrt(1.0 / (2.0 * 0.5 * std::pow(10.0, ebn0 / 10.0)));
    std::vector<float> y(cw.size()), llr(cw.size());
    for (size_t i = 0; i < cw.size(); i++) {
        y[i] = (float)((cw[i] ? -1.0 : 1.0) + sigma * gauss(rng)); /* bit 0 -> +1 */
        llr[i] = (float)(2.0 * y[i] / (sigma * sigma));
    }
    std::vector<float> all((size_t)frames * n);
    for (long f = 0; f < frames; f++)
        std::memcpy(&all[(size_t)f * n], &llr[(size_t)(f % distinct) * n], (size_t)n * sizeof(float));
    auto errors = [&](const std::vector<uint8_t>& out, long count) {
        long e = 0;
        for (long f = 0; f < count; f++)
            for (int i = 0; i < k; i++)
                e += out[(size_t)f * k + i] != bits[(size_t)(f % distinct) * k + i];
        return e;
    };
    std::printf("K=7 (171, 133) rate 1/2, frames of %d bits, zero tail, %.1f dB, %ld frames\n", k, ebn0, frames);

    /* gr-fec: its generators bit-reversed and in our order (79, 109); soft values nominally in
     * [-1, 1] with bit 1 -> +1, then x 48 + shift as bytes, as FEC Extended Decoder does */
    auto cc = gr::fec::code::cc_decoder::make(k, 7, 2, {79, 109}, 0, -1, CC_TERMINATED, false);
    const float shift = cc->get_shift();
    std::vector<uint8_t> in8((size_t)distinct * n);
    for (size_t i = 0; i < in8.size(); i++) {
        const float x = std::max(-1.0f, std::min(1.0f, -y[i] / 2.0f));
        in8[i] = (uint8_t)std::max(0.0f, std::min(255.0f, 48.0f * x + shift));
    }
    std::vector<uint8_t> out_gr((size_t)frames * k);
    double t0 = now();
    for (long f = 0; f < frames; f++)
        cc->generic_work(&in8[(size_t)(f % distinct) * n], &out_gr[(size_t)f * k]);
    const double t_gr = now() - t0;
    std::printf("%-44s %9.1f Mb/s  bit errors %ld\n", "gr-fec cc_decoder, one core", frames * (double)k / t_gr / 1e6,
                errors(out_gr, frames));

    auto ours = [&](gpufec_backend backend, long per_call, const char* label) {
        gpufec_decoder_opts o;
        gpufec_decoder_opts_default(&o);
        o.backend = backend;
        o.max_iterations = 1;
        gpufec_decoder* dec = nullptr;
        if (gpufec_decoder_create(&dec, code, &o) != GPUFEC_OK) {
            std::printf("%-44s not available\n", label);
            return;
        }
        std::vector<uint8_t> out((size_t)frames * k);
        gpufec_decoder_decode(dec, all.data(), (size_t)std::min(per_call, frames), out.data(), nullptr, nullptr);
        double kernel = 0, sum = 0;
        const double t = now();
        for (long f = 0; f < frames; f += per_call) {
            const long nf = std::min(per_call, frames - f);
            gpufec_decoder_decode(dec, &all[(size_t)f * n], (size_t)nf, &out[(size_t)f * k], nullptr, nullptr);
            if (gpufec_decoder_kernel_seconds(dec, &kernel) == GPUFEC_OK)
                sum += kernel;
        }
        const double dt = now() - t;
        char variant[96];
        gpufec_decoder_variant(dec, variant, sizeof variant);
        std::printf("%-44s %9.1f Mb/s  bit errors %ld  (%s%s", label, frames * (double)k / dt / 1e6, errors(out, frames),
                    variant, sum > 0 ? "" : ")\n");
        if (sum > 0)
            std::printf("; kernel-only %.1f Mb/s)\n", frames * (double)k / sum / 1e6);
        gpufec_decoder_destroy(dec);
    };
    ours(GPUFEC_BACKEND_CPU, 64, "gr-gpufec, one core, 64 frames a call");
    ours(GPUFEC_BACKEND_CPU, 2, "gr-gpufec, one core, 2 frames a call");
    ours(GPUFEC_BACKEND_CUDA, frames, "gr-gpufec, GPU, all frames in one call");
    gpufec_code_destroy(code);
    return 0;
}
