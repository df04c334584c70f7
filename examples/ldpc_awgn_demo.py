#!/usr/bin/env python3
"""Headless gr-gpufec demo: random bits -> LDPC encoder -> BPSK -> AWGN -> GNU Radio soft
demodulator -> LDPC decoder -> bit error count.

Prints BER before and after decoding, frames, the backend in use and the decoder's throughput.
"""
import argparse
import math
import sys
import time

import numpy as np
from gnuradio import analog, blocks, digital, gr, gpufec


def build_and_run(code, ebn0_db, frames, algorithm, iterations, backend, seed):
    info = gpufec.code_info(code)
    n, k, rate = info["n"], info["k"], info["rate"]
    # BPSK over AWGN: per real dimension sigma^2 = 1 / (2 R Eb/N0).
    sigma2 = 1.0 / (2.0 * rate * 10.0 ** (ebn0_db / 10.0))
    rng = np.random.default_rng(seed)
    bits = rng.integers(0, 2, frames * k, dtype=np.uint8)

    tb = gr.top_block("gpufec demo")
    bpsk = digital.constellation_bpsk().base()
    # One frame more than is counted: the end of a finite stream through add_cc (whose noise input
    # never ends) may lose a few samples on some CPUs (VOLK alignment), which would cut the last
    # frame short.
    src = blocks.vector_source_b(np.concatenate([bits, rng.integers(0, 2, k, dtype=np.uint8)]).tolist(), False)
    enc = gpufec.ldpc_encoder(code)
    mod = digital.chunks_to_symbols_bc(bpsk.points())
    # Complex Gaussian noise of total variance amplitude^2, i.e. sigma^2 per real dimension.
    noise = analog.noise_source_c(analog.GR_GAUSSIAN, math.sqrt(2.0 * sigma2), seed)
    chan = blocks.add_cc()
    demod = digital.constellation_soft_decoder_cf(bpsk)  # emits 2*Re(y), positive = bit 1
    hard = blocks.vector_sink_f()
    dec = gpufec.ldpc_decoder(code, algorithm, iterations, backend=backend,
                              llr_scale=1.0 / sigma2)  # 2y/sigma^2: true LLRs
    snk = blocks.vector_sink_b()
    tb.connect(src, enc, mod, chan, demod, dec, snk)
    tb.connect(noise, (chan, 1))
    tb.connect(demod, hard)
    t0 = time.monotonic()
    tb.run()
    wall = time.monotonic() - t0

    out = np.array(snk.data(), dtype=np.uint8)
    if len(out) < len(bits):
        raise RuntimeError(f"decoder produced {len(out)} bits, expected at least {len(bits)}")
    out = out[:len(bits)]
    errors = int(np.count_nonzero(out != bits))
    frame_errors = int(np.count_nonzero((out != bits).reshape(frames, k).any(axis=1)))
    # Uncoded reference: hard decisions on the demodulator output at the information positions.
    soft = np.array(hard.data(), dtype=np.float32)[:frames * n].reshape(frames, n)
    pos = np.array(enc.info_positions())
    raw_errors = int(np.count_nonzero((soft[:, pos] > 0).astype(np.uint8).ravel() != bits))
    return {
        "n": n, "k": k, "frames": frames, "bit_errors": errors, "frame_errors": frame_errors,
        "ber": errors / bits.size, "fer": frame_errors / frames, "raw_ber": raw_errors / bits.size,
        "backend": dec.backend(), "decoder_mbps": dec.throughput_mbps(),
        "mean_iterations": dec.mean_iterations(), "wall_seconds": wall,
    }


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__)
    p.add_argument("--code", default="mackay-1008-504")
    p.add_argument("--ebn0", type=float, default=2.5, help="Eb/N0 in dB")
    p.add_argument("--frames", type=int, default=2000)
    p.add_argument("--decoder", default="nms", choices=["spa", "ms", "nms", "oms"])
    p.add_argument("--iterations", type=int, default=20)
    p.add_argument("--backend", default="auto", choices=["auto", "cpu", "cuda"])
    p.add_argument("--seed", type=int, default=1)
    a = p.parse_args(argv)
    r = build_and_run(a.code, a.ebn0, a.frames, a.decoder, a.iterations, a.backend, a.seed)
    print(f"code {a.code} (N={r['n']}, K={r['k']}), {a.decoder}, {a.iterations} iterations, "
          f"Eb/N0 {a.ebn0} dB")
    print(f"frames          {r['frames']}")
    print(f"BER before FEC  {r['raw_ber']:.3e}")
    print(f"BER after FEC   {r['ber']:.3e}  ({r['bit_errors']} bit errors)")
    print(f"FER             {r['fer']:.3e}  ({r['frame_errors']} frame errors)")
    print(f"mean iterations {r['mean_iterations']:.2f}")
    print(f"backend         {r['backend']}")
    print(f"decoder         {r['decoder_mbps']:.2f} Mb/s of information bits "
          f"(time inside the decoder, transfers included)")
    print(f"flowgraph       {r['wall_seconds']:.2f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
