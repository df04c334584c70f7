#!/usr/bin/env python3
"""CPU benchmark: gr-gpufec's CPU decoders beside GNU Radio's own gr-fec LDPC decoder
(fec.ldpc_decoder, the CPU decoder GNU Radio users have today), same matrix, same iteration count,
same machine, one run. Prints a markdown table; --markdown FILE also writes it there.

Both decoders get the same kind of input: random codewords over BPSK/AWGN at an Eb/N0 where neither
converges early (so both run every iteration; gpufec-bench also disables early stopping).
gr-fec is timed through a real flowgraph (vector source -> fec.decoder -> null sink); gr-gpufec
through gpufec-bench (median of repeated decode calls) and through the same kind of flowgraph with
its ldpc_decoder block."""
import argparse
import datetime
import json
import os
import platform
import subprocess
import sys
import tempfile
import time

import numpy as np
from gnuradio import blocks, fec, gr

try:
    from gnuradio import gpufec
except ImportError:
    gpufec = None


def cpu_name():
    try:
        for line in open("/proc/cpuinfo"):
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor()


def soft_frames(n, frames, ebn0, rate, seed=1):
    rng = np.random.default_rng(seed)
    # All-zero codewords are a legal input for a pure speed measurement only if decoders do
    # not short-cut on them; use random noise at low SNR around them and run fixed iterations.
    sigma2 = 1.0 / (2 * rate * 10 ** (ebn0 / 10))
    y = 1.0 + np.sqrt(sigma2) * rng.standard_normal(frames * n)
    return y.astype(np.float32), sigma2


def time_flowgraph(make_block, soft, in_size, out_size):
    tb = gr.top_block()
    src = blocks.vector_source_f(soft.tolist(), False)
    blk = make_block()
    snk = blocks.null_sink(out_size)
    tb.connect(src, blk, snk)
    t0 = time.monotonic()
    tb.run()
    return time.monotonic() - t0


def main():
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--bench", required=True, help="path of gpufec-bench")
    ap.add_argument("--info", required=True, help="path of gpufec-info")
    ap.add_argument("--code", default="mackay-1008-504")
    ap.add_argument("--iterations", type=int, default=10)
    ap.add_argument("--frames", type=int, default=200)
    ap.add_argument("--ebn0", type=float, default=0.0)
    ap.add_argument("--markdown")
    a = ap.parse_args()

    tmp = tempfile.mkdtemp()
    alist = os.path.join(tmp, "code.alist")
    subprocess.run([a.info, "--code", a.code, "--export-alist", alist], check=True,
                   capture_output=True)
    with open(alist) as f:
        n, m = map(int, f.readline().split())
    rows = []

    def ours(label, args, frames):
        out = os.path.join(tmp, "b.json")
        cmd = [a.bench, "--code", a.code, "--backend", "cpu", "--iterations", str(a.iterations),
               "--frames", str(frames), "--ebn0", str(a.ebn0), "--repeat", "3", "--json", out] + args
        subprocess.run(cmd, check=True, capture_output=True)
        j = json.load(open(out))
        rows.append((label, j["coded_gbps"] * 1e3, j["frame_latency_us"], "gpufec-bench " + " ".join(args)))

    ours("gr-gpufec SPA flooding (scalar)", ["--decoder", "spa", "--schedule", "flooding"], 16)
    ours("gr-gpufec SPA layered (AVX2, 8 frames/register)", ["--decoder", "spa", "--schedule", "layered"], 64)
    ours("gr-gpufec NMS flooding (scalar)", ["--decoder", "nms", "--schedule", "flooding"], 64)
    ours("gr-gpufec NMS layered (scalar)", ["--decoder", "nms", "--schedule", "layered", "--no-simd"], 64)
    ours("gr-gpufec NMS layered (AVX2, 8 frames/register)", ["--decoder", "nms", "--schedule", "layered"], 256)

    rate = 0.5
    soft, sigma2 = soft_frames(n, a.frames, a.ebn0, rate)
    dec = fec.ldpc_decoder.make(alist, float(np.sqrt(sigma2)), a.iterations)
    sec = time_flowgraph(lambda: fec.decoder(dec, gr.sizeof_float, gr.sizeof_char), soft, 4, 1)
    rows.append(("gr-fec ldpc_decoder (GNU Radio 3.10)", a.frames * n / sec / 1e6,
                 sec / a.frames * 1e6, "flowgraph: vector_source_f -> fec.decoder -> null_sink"))
    if gpufec is not None:
        big = np.tile(soft, 4)
        sec = time_flowgraph(lambda: gpufec.ldpc_decoder(a.code, "nms", a.iterations, backend="cpu",
                                                         schedule="layered"), big, 4, 1)
        frames = 4 * a.frames
        rows.append(("gr-gpufec ldpc_decoder block, NMS layered", frames * n / sec / 1e6,
                     sec / frames * 1e6, "flowgraph: vector_source_f -> gpufec.ldpc_decoder -> null_sink"))

    ref = [r for r in rows if r[0].startswith("gr-fec")][0][1]
    head = (f"CPU benchmark, {datetime.date.today().isoformat()}, {cpu_name()}, one core per decoder; "
            f"code {a.code} (N={n}), {a.iterations} iterations, no early stopping, Eb/N0 {a.ebn0} dB, fp32\n\n"
            "| decoder | coded Mb/s | us per frame | vs gr-fec | how measured |\n|---|---:|---:|---:|---|\n")
    table = head + "".join(f"| {r[0]} | {r[1]:.2f} | {r[2]:.1f} | {r[1] / ref:.1f}x | {r[3]} |\n" for r in rows)
    print(table)
    if a.markdown:
        open(a.markdown, "w").write(table)
    return 0


if __name__ == "__main__":
    sys.exit(main())
