#!/usr/bin/python3
"""gpufec-plot: BER/FER curves from gpufec-sim result files, with reference traces overlaid.

    gpufec-plot RESULT.json [RESULT.json ...] [--reference TRACE ...] [-o OUT.png]
                [--metric both|fer|ber] [--title TEXT]

RESULT.json: files written by gpufec-sim --json (AWGN sweeps are drawn against Eb/N0, BSC and BEC
against p). TRACE: an AFF3CT error-rate trace (rows "Es/N0 | Eb/N0 | FRA | BE | FE | BER | FER",
as in AFF3CT's error_rate_references), drawn dashed. Points without errors cannot sit on a log
axis and are left out; a point cut short by Ctrl-C is drawn hollow. Exit status 0, or 2 with one
line on stderr.
"""
import argparse
import json
import math
import os
import sys


def fail(message):
    sys.stderr.write(f"gpufec-plot: {message}\n")
    sys.exit(2)


def read_result(path):
    """(label, x name, [(x, ber, fer, partial)]) of a gpufec-sim result file."""
    try:
        with open(path) as f:
            doc = json.load(f)
        prm, pts = doc["parameters"], doc["points"]
    except (OSError, ValueError, KeyError, TypeError) as e:
        fail(f"{path}: not a gpufec-sim result file ({e})")
    swept = prm.get("range_of", "p" if prm.get("channel") in ("bsc", "bec") else "ebn0")
    bits = {"bpsk": 1, "qpsk": 2, "16qam": 4, "64qam": 6}.get(prm.get("modulation", "bpsk"), 1)
    rows = []
    for p in pts:
        x = p.get(swept)
        if x is None:
            fail(f"{path}: a point without '{swept}'")
        if swept == "esn0":  # drawn against Eb/N0 like every AWGN curve
            x = x - 10.0 * math.log10(prm["rate"] * bits)
        rows.append((x, p.get("ber", 0.0), p.get("fer", 0.0), bool(p.get("partial", False))))
    modulation = prm.get("modulation", "bpsk")
    label = (f"{prm.get('code', '?')} {prm.get('decoder', '?')} {prm.get('iterations', '?')} it"
             f"{'' if modulation in ('bpsk', 'none') else ' ' + modulation.upper()}"
             f" ({prm.get('backend', '?')}{', all-zero' if prm.get('all_zero') else ''})")
    return label, "p" if swept == "p" else "ebn0", rows


def read_trace(path):
    """(label, [(ebn0, ber, fer)]) of an AFF3CT trace."""
    title, rows = os.path.basename(path), []
    try:
        with open(path, errors="replace") as f:
            for line in f:
                if line.startswith("title="):
                    title = line[6:].strip()
                if line.lstrip().startswith("#") or "|" not in line:
                    continue
                cols = [c.strip() for c in line.replace("||", "|").split("|")]
                try:
                    rows.append((float(cols[1]), float(cols[5]), float(cols[6])))
                except (ValueError, IndexError):
                    pass
    except OSError as e:
        fail(f"--reference {path}: {e.strerror}")
    if not rows:
        fail(f"--reference {path}: no trace rows (Es/N0 | Eb/N0 | FRA | BE | FE | BER | FER)")
    return f"{title} (reference)", rows


def main(argv=None):
    ap = argparse.ArgumentParser(prog="gpufec-plot", description=__doc__.split("\n\n")[0])
    ap.add_argument("results", nargs="+", help="gpufec-sim --json files")
    ap.add_argument("--reference", action="append", default=[], help="AFF3CT trace to overlay (repeatable)")
    ap.add_argument("-o", "--output", default="curve.png", help="PNG (or PDF, SVG) to write")
    ap.add_argument("--metric", choices=("both", "fer", "ber"), default="both")
    ap.add_argument("--title", default=None)
    a = ap.parse_args(argv)
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        fail("needs matplotlib (Debian/Ubuntu: apt install python3-matplotlib)")
    results = [read_result(p) for p in a.results]
    kinds = {r[1] for r in results}
    if len(kinds) > 1:
        fail("cannot draw AWGN (Eb/N0) and BSC/BEC (p) results on one axis")
    traces = [read_trace(p) for p in a.reference]
    if traces and kinds == {"p"}:
        fail("reference traces are against Eb/N0; these results are against p")
    fig, ax = plt.subplots(figsize=(7.5, 5.0), dpi=110)
    metrics = [m for m in ("fer", "ber") if a.metric in (m, "both")]
    style = {"fer": "-", "ber": ":"}
    index = {"ber": 1, "fer": 2}
    for i, (label, _, rows) in enumerate(results):
        color = f"C{i % 10}"
        for m in metrics:
            shown = [(r[0], r[index[m]], r[3]) for r in rows if r[index[m]] > 0]
            if not shown:
                continue
            ax.plot([s[0] for s in shown], [s[1] for s in shown], style[m], color=color,
                    label=f"{m.upper()} {label}")
            full = [s for s in shown if not s[2]]
            part = [s for s in shown if s[2]]
            ax.plot([s[0] for s in full], [s[1] for s in full], "o", color=color, ms=4)
            if part:
                ax.plot([s[0] for s in part], [s[1] for s in part], "o", mfc="none", color=color, ms=6)
    for j, (label, rows) in enumerate(traces):
        color = f"C{(len(results) + j) % 10}"
        for m in metrics:
            shown = [(r[0], r[index[m]]) for r in rows if r[index[m]] > 0]
            ax.plot([s[0] for s in shown], [s[1] for s in shown], "--", color=color, lw=1.2,
                    label=f"{m.upper()} {label}")
    ax.set_yscale("log")
    ax.set_xlabel("crossover / erasure probability p" if kinds == {"p"} else "Eb/N0 (dB)")
    ax.set_ylabel(" / ".join(m.upper() for m in metrics))
    ax.grid(True, which="both", alpha=0.3)
    ax.set_title(a.title if a.title else "gpufec-sim")
    ax.legend(fontsize=7)
    fig.tight_layout()
    tmp = a.output + ".tmp" + os.path.splitext(a.output)[1]
    try:
        fig.savefig(tmp)
        os.replace(tmp, a.output)  # a viewer never sees half a file
    except (OSError, ValueError) as e:
        fail(f"-o {a.output}: {e}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
