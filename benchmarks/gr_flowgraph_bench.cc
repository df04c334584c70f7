/* GNU Radio flowgraph benchmark (C++, no Python): vector source of soft bits (float, or signed
 * bytes with input "int8") -> X -> null sink, where X is gpufec::decoder or, as the
 * reference in the same run, a plain blocks::copy of the same item size. Prints items per second
 * of both and their ratio.
 * Usage: gr_flowgraph_bench CODE FRAMES [backend] [algorithm] [iterations] [float|int8] */
#include <gnuradio/blocks/copy.h>
#include <gnuradio/blocks/head.h>
#include <gnuradio/blocks/null_sink.h>
#include <gnuradio/blocks/vector_source.h>
#include <gnuradio/gpufec/decoder.h>
#include <gnuradio/top_block.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <random>
#include <string>
#include <vector>

static double run(gr::top_block_sptr tb)
{
    const auto t0 = std::chrono::steady_clock::now();
    tb->run();
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

int main(int argc, char** argv)
{
    if (argc < 3) {
        std::fprintf(stderr, "usage: %s CODE FRAMES [backend] [algorithm] [iterations]\n", argv[0]);
        return 2;
    }
    const std::string code = argv[1], backend = argc > 3 ? argv[3] : "auto",
                      algorithm = argc > 4 ? argv[4] : "nms";
    const long frames = std::atol(argv[2]);
    const int iterations = argc > 5 ? std::atoi(argv[5]) : 10;
    const std::string input = argc > 6 ? argv[6] : "float";
    const bool bytes = input == "int8";
    const size_t item = bytes ? 1 : sizeof(float);
    const std::string options = "algorithm=" + algorithm + " max_iterations=" + std::to_string(iterations) +
                                " backend=" + backend + (bytes ? " input_type=int8" : "");
    auto dec = gr::gpufec::decoder::make(code, options, "positive_one", bytes ? 1.0f / 16 : 1.0f);
    const long n = dec->n();
    /* 64 distinct noisy frames, repeated: soft values around +-2 (positive = 1, GNU Radio's sign). */
    std::mt19937 rng(1);
    std::normal_distribution<float> noise(0.0f, 1.0f);
    std::vector<float> soft(64 * n);
    for (auto& x : soft)
        x = 2.0f * ((rng() & 1) ? 1.0f : -1.0f) + noise(rng);
    std::vector<unsigned char> soft8(soft.size()); /* as float_to_char(scale 16) would give */
    for (size_t i = 0; i < soft.size(); i++)
        soft8[i] = (unsigned char)(int8_t)std::max(-127.0f, std::min(127.0f, std::nearbyint(16.0f * soft[i])));
    auto source = [&]() -> gr::basic_block_sptr {
        if (bytes)
            return gr::blocks::vector_source_b::make(soft8, true);
        return gr::blocks::vector_source_f::make(soft, true);
    };
    const uint64_t items = (uint64_t)frames * n;

    auto tb_copy = gr::make_top_block("copy");
    auto src1 = source();
    auto head1 = gr::blocks::head::make(item, items);
    auto copy = gr::blocks::copy::make(item);
    auto sink1 = gr::blocks::null_sink::make(item);
    head1->set_min_output_buffer(n * 256); /* the same buffers as the decoder flowgraph */
    copy->set_min_output_buffer(n * 256);
    tb_copy->connect(src1, 0, head1, 0);
    tb_copy->connect(head1, 0, copy, 0);
    tb_copy->connect(copy, 0, sink1, 0);
    const double t_copy = run(tb_copy);

    auto tb_dec = gr::make_top_block("decoder");
    auto src2 = source();
    auto head2 = gr::blocks::head::make(item, items);
    auto sink2 = gr::blocks::null_sink::make(sizeof(uint8_t));
    // What a user does for GPU batching (the decoder logs this hint): give the block feeding
    // the decoder room for a few hundred frames.
    head2->set_min_output_buffer(n * 256);
    tb_dec->connect(src2, 0, head2, 0);
    tb_dec->connect(head2, 0, dec, 0);
    tb_dec->connect(dec, 0, sink2, 0);
    const double t_dec = run(tb_dec);

    const double r_copy = items / t_copy, r_dec = items / t_dec;
    std::printf("code %s (N=%ld), %s input, %s %s %d it, %ld frames | copy flowgraph %.3f Gsoft/s | decoder "
                "flowgraph %.3f Gsoft/s (%.3f Gb/s coded, backend %s, %lu frames decoded) | ratio %.0f%%\n",
                code.c_str(), n, input.c_str(), backend.c_str(), algorithm.c_str(), iterations, frames, r_copy / 1e9,
                r_dec / 1e9, r_dec / 1e9, dec->backend().c_str(), (unsigned long)dec->frames(),
                100.0 * r_dec / r_copy);
    return 0;
}
