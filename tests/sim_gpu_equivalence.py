#!/usr/bin/env python3
"""Issue 22: gpufec-sim's statistics do not depend on where the frames are made and decoded. On a
machine with a GPU: the CPU backend, the GPU chain (bits, encoder, channel, decoder and counting
on the device), the GPU chain with the host's encoder, and, with two GPUs, --devices 0,1 give the
same frames, frame errors, bit errors and iterations, for one code of each family. Without a GPU
it skips (exit 77)."""
import argparse
import json
import os
import subprocess
import sys
import tempfile


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--sim", required=True)
    ap.add_argument("--info", required=True)
    a = ap.parse_args()
    cuda = subprocess.run([a.info, "--cuda"], capture_output=True, text=True)
    if "usable: yes" not in cuda.stdout:
        print("no usable CUDA device: skipped")
        return 77
    gpus = subprocess.run(["nvidia-smi", "-L"], capture_output=True, text=True).stdout.count("GPU ") \
        if subprocess.run(["which", "nvidia-smi"], capture_output=True).returncode == 0 else 1
    cases = [
        ["--code", "wifi-1944-1_2", "--decoder", "nms", "--precision", "int8", "--ebn0", "1.5:2.5:0.5"],
        ["--code", "dvbs2-short-1_2", "--decoder", "nms", "--ebn0", "1.6:2.0:0.2"],
        ["--code", "mackay-1008-504", "--decoder", "spa", "--schedule", "flooding", "--ebn0", "1.5:2.5:0.5"],
        ["--code", "lte-turbo-1024", "--decoder", "maxlogmap", "--param", "arithmetic=float", "--ebn0", "0.5:1:0.5"],
        ["--code", "nb-gf16-504", "--decoder", "min-max", "--ebn0", "1.5:2:0.5"],
        ["--code", "regular-4-8-1296", "--decoder", "pgab", "--channel", "bsc", "--p", "0.04:0.05:0.01"],
    ]
    tmp = tempfile.mkdtemp()
    failures = compared = 0
    for case in cases:
        base = case + ["--iterations", "10", "--min-frame-errors", "40", "--max-frames", "20000", "--seed", "3",
                       "--no-progress"]
        runs = {"cpu": ["--backend", "cpu", "--threads", "4"], "gpu": ["--backend", "cuda"],
                "gpu, host encoder": ["--backend", "cuda", "--host-encoder"]}
        if gpus >= 2:
            runs["two GPUs"] = ["--devices", "0,1"]
        got = {}
        for name, extra in runs.items():
            out = os.path.join(tmp, "r.json")
            r = subprocess.run([a.sim] + base + extra + ["--json", out], capture_output=True, text=True, timeout=600)
            if r.returncode != 0:
                print(f"FAIL {case[1]} {name}: exit {r.returncode}: {r.stderr.strip()[-300:]}")
                failures += 1
                continue
            got[name] = [(p["frames"], p["frame_errors"], p["bit_errors"], p["iterations"])
                         for p in json.load(open(out))["points"]]
            chain = [ln for ln in r.stdout.splitlines() if ln.startswith("# chain")]
            if name == "gpu" and not (chain and "bits, encoder, channel" in chain[0]):
                print(f"FAIL {case[1]}: the GPU run did not make its frames on the device: {chain}")
                failures += 1
        for name, counts in got.items():
            if name != "cpu" and "cpu" in got:
                compared += 1
                if counts != got["cpu"]:
                    print(f"FAIL {case[1]}: {name} {counts} != cpu {got['cpu']}")
                    failures += 1
        print(f"{case[1]}: {', '.join(got)}: {'identical' if len({str(v) for v in got.values()}) == 1 else 'DIFFER'} "
              f"{got.get('cpu')}")
    if compared == 0:
        print("FAIL: nothing compared")
        return 1
    print(f"{compared} comparisons, {failures} failure(s)")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
