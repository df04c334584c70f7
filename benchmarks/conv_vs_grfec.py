#!/usr/bin/env python3
"""Convolutional decoding on one CPU core: gr-gpufec's conv_decoder beside gr-fec's cc_decoder
(what GNU Radio users decode these codes with), the same code (K = 7, (171, 133), rate 1/2,
zero-terminated frames of FRAME bits) in the same flowgraph shape: a vector source of soft
values repeating 64 noisy frames -> decoder -> null sink, in the same run. Also checks that each
decodes the noisy frames it is timed on (bit errors per decoder at the source's Eb/N0).

Usage: conv_vs_grfec.py [FRAMES] [FRAME] [EBN0_DB]   (defaults 4000, 1024, 4.0)"""
import sys
import time

import numpy as np
from gnuradio import blocks, fec, gr, gpufec


def soft_frames(frame, ebn0_db, rng, count=64):
    """count frames of random bits encoded by our encoder; BPSK bit 0 -> +1; float soft values."""
    code = f"conv-k7-171-133:k={frame}"
    info = gpufec.code_info(code)
    bits = rng.integers(0, 2, size=count * info["k"]).astype(np.uint8)
    tb = gr.top_block()
    src, enc, snk = blocks.vector_source_b(bits.tolist()), gpufec.conv_encoder(code), blocks.vector_sink_b()
    tb.connect(src, enc, snk)
    tb.run()
    cw = np.array(snk.data(), dtype=np.uint8)
    sigma = np.sqrt(1.0 / (2 * 0.5 * 10 ** (ebn0_db / 10)))
    y = (1.0 - 2.0 * cw) + sigma * rng.standard_normal(cw.size)
    return code, info, bits, y.astype(np.float32), sigma


def run(decoder_block, soft, n, frames, buffer_frames=0):
    tb = gr.top_block()
    reps = (frames + 63) // 64
    src = blocks.vector_source_f(np.tile(soft, reps)[: frames * n].tolist(), False)
    if buffer_frames:  # room for that many frames between the source and the decoder
        src.set_min_output_buffer(buffer_frames * n)
    snk = blocks.vector_sink_b()
    tb.connect(src, decoder_block, snk)
    t0 = time.perf_counter()
    tb.run()
    return time.perf_counter() - t0, np.array(snk.data(), dtype=np.uint8)


def main():
    frames = int(sys.argv[1]) if len(sys.argv) > 1 else 4000
    frame = int(sys.argv[2]) if len(sys.argv) > 2 else 1024
    ebn0 = float(sys.argv[3]) if len(sys.argv) > 3 else 4.0
    rng = np.random.default_rng(1)
    code, info, bits, y, sigma = soft_frames(frame, ebn0, rng)
    n, k = info["n"], info["k"]
    # gr-gpufec, CPU backend, LLRs 2y/sigma^2 (the Viterbi decoder ignores the scale), bit 0 -> +1
    ours = gpufec.conv_decoder(code, backend="cpu", sign_convention="positive_zero")
    t_ours, out_ours = run(ours, y, n, frames)
    # the same with room for 16 frames in the stream (one full vector of frames per call)
    ours16 = gpufec.conv_decoder(code, backend="cpu", sign_convention="positive_zero")
    t_ours16, out_ours16 = run(ours16, y, n, frames, buffer_frames=16)
    # gr-fec as GNU Radio users run it (FEC Extended Decoder, which quantises to bytes): its
    # polynomials bit-reversed in our order (171, 133 -> 79, 109; its cc_encoder then emits our
    # encoder's bits exactly), soft values nominally in [-1, 1] with bit 1 -> +1 (hence -y / 2)
    dec = fec.cc_decoder.make(frame, 7, 2, [79, 109], 0, -1, fec.CC_TERMINATED, False)
    grfec = fec.extended_decoder(decoder_obj_list=dec, threading=None, ann=None, puncpat="11",
                                 integration_period=10000)
    t_grfec, out_grfec = run(grfec, -np.clip(y / 2.0, -1, 1), n, frames)
    ref = np.tile(bits, (frames + 63) // 64)[: frames * k]
    for name, t, out in (("gr-gpufec conv_decoder (cpu)", t_ours, out_ours),
                         ("  same, 16-frame buffer", t_ours16, out_ours16), ("gr-fec cc_decoder", t_grfec, out_grfec)):
        m = min(out.size, ref.size)
        errs = int(np.count_nonzero(out[:m] != ref[:m]))
        print(f"{name:30s} {frames * k / t / 1e6:8.1f} Mb/s info ({frames} frames of {k} bits, {t:.2f} s), "
              f"bit errors {errs} of {m} at {ebn0} dB")
    print(f"ratio (gr-fec time / ours): default buffers {t_grfec / t_ours:.2f}x, 16-frame buffer "
          f"{t_grfec / t_ours16:.2f}x")


if __name__ == "__main__":
    main()
