#!/usr/bin/env python3
"""Plots benchmarks/nbldpc_curves.sh's JSON (docs/nbldpc.md): left, nb-qc-gf32-744 min-max
beside the waterfall seed 001 reports (FER 1e-3 between 4.1 and 4.5 dB); right, the GF(64)
code nb-gf64-1152 with FFT-BP beside the binary WiMAX 2304 rate-1/2 code with SPA. Usage:
plot_nbldpc.py DIR OUT.png. Needs matplotlib (a standalone tool)."""
import json
import os
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402


def curve(ax, path, label, style):
    run = json.load(open(path))
    p = run["parameters"]
    pts = [q for q in run["points"] if q["fer"] > 0]
    ax.semilogy([q["ebn0"] for q in pts], [q["fer"] for q in pts], style, marker="o", label=label)
    return p


def main():
    d, out = sys.argv[1], sys.argv[2]
    fig, (a, b) = plt.subplots(1, 2, figsize=(12, 5))
    curve(a, os.path.join(d, "nb_curve_qc744_minmax.json"), "nb-qc-gf32-744, layered min-max, 15 it", "-")
    a.axvspan(4.1, 4.5, color="grey", alpha=0.2, label="seed 001: FER 1e-3 reached in 4.1-4.5 dB")
    a.axhline(1e-3, color="grey", lw=0.8, ls=":")
    a.set_title("GF(32) QC code (744 symbols, rate 0.88)")
    curve(b, os.path.join(d, "nb_curve_gf64_1152_fftbp.json"), "nb-gf64-1152 (GF(64), N=2304 bits), FFT-BP, 50 it", "-")
    curve(b, os.path.join(d, "nb_curve_wimax2304_spa.json"), "wimax-2304-1_2 (binary), SPA flooding, 50 it", "--")
    b.set_title("Rate 1/2, 2304 bits: GF(64) against binary")
    for ax in (a, b):
        ax.set_xlabel("Eb/N0 (dB)")
        ax.set_ylabel("FER")
        ax.grid(True, which="both", alpha=0.3)
        ax.legend(fontsize=8)
    fig.suptitle("GF(q) LDPC error rates (BPSK, AWGN; gpufec-sim on an H100, 2026-11-23)")
    fig.tight_layout()
    fig.savefig(out, dpi=110)


if __name__ == "__main__":
    main()
