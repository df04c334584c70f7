#!/usr/bin/env python3
"""HARQ by stream tag: frames per second of the stream decoder when every frame is a HARQ
transmission, with the frames of a work call decoded together (distinct processes) against one
decoder call per frame (every frame the same process, which forces a call per frame: what the
block did before the batching). Same code, options, soft values and decisions.
Usage: /usr/bin/python3 benchmarks/harq_stream_bench.py [options text, e.g. "backend=cpu"]"""
import sys
import time

import numpy as np
import pmt
from gnuradio import blocks, gr
from gnuradio import gpufec

CODE = "5gnr-bg1:k=2000:e=3000:qm=2:crc=24b"
FRAMES = 2048
E = 3000
SIGMA = 0.55  # Eb/N0 about 6 dB at rate 0.66: every frame decodes in one transmission


def run(options, same_process):
    k = gpufec.ldpc_encoder(CODE).k()
    rng = np.random.default_rng(1)
    bits = rng.integers(0, 2, FRAMES * k).astype(np.uint8)
    tb = gr.top_block()
    src, enc, snk = blocks.vector_source_b(bits.tolist()), gpufec.encoder(CODE), blocks.vector_sink_b()
    tb.connect(src, enc, snk)
    tb.run()
    x = np.array(snk.data(), dtype=np.float32) * 2.0 - 1.0
    soft = (x + SIGMA * rng.standard_normal(len(x))).astype(np.float32)
    tags = []
    for f in range(FRAMES):
        for key, val in (("harq_process", pmt.from_long(0 if same_process else f % 1024)), ("harq_new", pmt.PMT_T)):
            t = gr.tag_t()
            t.offset, t.key, t.value = f * E, pmt.intern(key), val
            tags.append(t)
    dec = gpufec.decoder(CODE, options, "positive_one", 2.0 / SIGMA**2, 0, False, 1024)
    tb = gr.top_block()
    src = blocks.vector_source_f(soft.tolist(), False, 1, tags)
    src.set_min_output_buffer(E * 512)
    out = blocks.vector_sink_b()
    tb.connect(src, dec, out)
    t0 = time.perf_counter()
    tb.run()
    dt = time.perf_counter() - t0
    ok = np.array_equal(np.array(out.data(), dtype=np.uint8), bits)
    return FRAMES / dt, dec.failed_frames(), ok, dec.variant()


if __name__ == "__main__":
    options = sys.argv[1] if len(sys.argv) > 1 else "backend=cpu"
    for same in (True, False):
        fps, failed, ok, variant = run(options, same)
        label = "one call per frame (one process)" if same else "a work call's frames in one call"
        print(f"{label}: {fps:.0f} frames/s, {failed} failed, bits {'right' if ok else 'WRONG'} ({variant}, {CODE})")
