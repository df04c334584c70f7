#!/usr/bin/env python3
"""Plots benchmarks/turbo_study.sh's JSON: FER and BER against Eb/N0, one curve per sub-block
count P, PIVI solid and PIVIDSTW dashed. Usage: plot_turbo_study.py turbo_study.json OUT_PREFIX
(writes OUT_PREFIX_fer.png and OUT_PREFIX_ber.png). Needs matplotlib (a standalone tool)."""
import json
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402


def main():
    runs = json.load(open(sys.argv[1]))
    prefix = sys.argv[2]
    for metric, label in (("fer", "FER"), ("ber", "BER")):
        fig, ax = plt.subplots(figsize=(7, 5))
        for name, run in sorted(runs.items(), key=lambda kv: (kv[0].split("_")[1], int(kv[0].split("_")[0][1:]))):
            P, guard = name.split("_")
            pts = [p for p in run["points"] if p[metric] > 0]
            if not pts:
                continue
            ax.semilogy([p["ebn0"] for p in pts], [p[metric] for p in pts], "-" if guard == "pivi" else "--",
                        marker="o" if guard == "pivi" else "x", label=f"P={P[1:]} {guard}")
        ax.set_xlabel("Eb/N0 (dB)")
        ax.set_ylabel(label)
        ax.set_title(f"lte-turbo-6144, Max-Log-MAP, 6 iterations: {label} by sub-blocks and guard")
        ax.grid(True, which="both", alpha=0.3)
        ax.legend(fontsize=7, ncol=2)
        fig.tight_layout()
        fig.savefig(f"{prefix}_{metric}.png", dpi=110)


if __name__ == "__main__":
    main()
