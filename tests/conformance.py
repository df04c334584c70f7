#!/usr/bin/env python3
"""Error-rate conformance: re-simulate points of AFF3CT's published curves with gpufec-sim
(same matrices, BPSK/AWGN, same decoder and iterations, fixed seed) and require the FER within a
factor of 2 of the reference. With >= 50 frame errors per point the statistical spread is about
15%, so a factor of 2 leaves no room for a real loss of a few tenths of a dB in the waterfall."""
import argparse
import json
import math
import os
import subprocess
import sys
import tempfile

CASES = [
    # (alist, reference trace, decoder, extra flags, iterations, Eb/N0 points, step)
    ("MACKAY_4000_8000.alist", "LDPC_N8000_K4000_flooding_SPA_i20_MacKay.txt", "spa",
     ["--schedule", "flooding"], 20, [1.4, 1.5, 1.6], 0.1),
    ("WIMAX_288_576.alist", "LDPC_N576_K288_flooding_SPA_i100_WiMAX.txt", "spa",
     ["--schedule", "flooding"], 100, [1.5, 2.0], 0.5),
    # AFF3CT BP_HORIZONTAL_LAYERED NMS, normalisation 0.825
    ("WIMAX_288_576.alist", "LDPC_N576_K288_hlayered_NMS_i100_WiMAX.txt", "nms",
     ["--schedule", "layered", "--norm", "0.825"], 100, [1.5, 2.0], 0.5),
    # AFF3CT BP_FLOODING GALB: hard decisions of BPSK over AWGN
    ("MACKAY_504_1008.alist", "LDPC_N1008_K504_flooding_GALB_i200_MacKay.txt", "gallager-b",
     [], 200, [5.25, 5.5, 5.75], 0.25),
    ("MACKAY_504_1008.alist", "LDPC_N1008_K504_flooding_GALA_i200_MacKay.txt", "gallager-a",
     [], 200, [5.25, 5.5, 5.75], 0.25),
    # built-in DVB-S2 short 3/4 (K=11880), AFF3CT BP_HORIZONTAL_LAYERED NMS 0.75, 10 iterations
    ("dvbs2-short-3_4", "LDPC_N16200_K11880_hlayered_NMS_i10_DVB-S2.txt", "nms",
     ["--schedule", "layered", "--norm", "0.75"], 10, [2.5, 2.6, 2.7], 0.1),
]


# Seed 003, Table I: PGaB on a 1296-bit column-weight-4 code (FPGA of Unal et al.), BSC crossover
# alpha -> FER. Re-simulated on the built-in PEG (4,8) code of the same length and kind; the
# factor-of-2 band applies, and in the waterfall (alpha <= 0.04) PGaB must also beat Gallager-B,
# the point of the perturbation; beyond it Gallager-B is measured slightly better (docs).
PGAB_TABLE = {0.03: 3e-3, 0.04: 0.1, 0.05: 0.5}
PGAB_BEATS_GALB = (0.03, 0.04)


def bsc_fer(sim, decoder, points, min_fe, threads, tmp):
    out = os.path.join(tmp, decoder + ".json")
    cmd = [sim, "--code", "regular-4-8-1296", "--decoder", decoder, "--iterations", "100",
           "--channel", "bsc", "--p", f"{min(points)}:{max(points)}:0.01",
           "--min-frame-errors", str(min_fe), "--max-frames", "200000", "--seed", "7",
           "--threads", threads, "--backend", "cpu", "--json", out]
    print(" ".join(cmd), flush=True)
    subprocess.run(cmd, check=True)
    with open(out) as f:
        return {round(p["p"], 3): p for p in json.load(f)["points"]}


def pgab_against_seed(sim, min_fe, threads):
    """One thread and 200 frame errors: PGaB's perturbations follow each decoder context's own frame
    count, so only one thread makes its run repeatable (docs/simulator.md); and our code is not
    seed 003's (FER about 1.7x its table at alpha = 0.03, measured with 200 errors at several seeds),
    so the factor-2 band needs the smaller spread of 200 errors."""
    failures = 0
    min_fe = max(min_fe, 200)
    threads = "1"
    with tempfile.TemporaryDirectory() as tmp:
        galb = bsc_fer(sim, "gallager-b", PGAB_TABLE, min_fe, threads, tmp)
        pgab = bsc_fer(sim, "pgab", PGAB_TABLE, min_fe, threads, tmp)
    for x, ref in sorted(PGAB_TABLE.items()):
        if x not in pgab or x not in galb:
            print(f"regular-4-8-1296 BSC {x}: not simulated: FAIL")
            failures += 1
            continue
        p, g = pgab[x], galb[x]
        ratio = p["fer"] / ref
        ok = p["frame_errors"] >= min_fe and 0.5 <= ratio <= 2.0 and (x not in PGAB_BEATS_GALB or p["fer"] < g["fer"])
        print(f"regular-4-8-1296 pgab BSC {x}: FER {p['fer']:.3e} vs seed 003 {ref:.1e} (x{ratio:.2f}), "
              f"Gallager-B {g['fer']:.3e}: {'ok' if ok else 'FAIL'}")
        failures += not ok
    return failures


def reference_points(path):
    """Eb/N0 -> (BER, FER) from an AFF3CT trace."""
    pts = {}
    with open(path) as f:
        for line in f:
            if line.startswith("#") or "|" not in line:
                continue
            cols = [c.strip() for c in line.replace("||", "|").split("|")]
            try:
                pts[round(float(cols[1]), 2)] = (float(cols[5]), float(cols[6]))
            except (ValueError, IndexError):
                pass
    return pts


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--sim", required=True)
    ap.add_argument("--data", required=True)
    ap.add_argument("--min-frame-errors", type=int, default=50)
    a = ap.parse_args()
    threads = str(max(1, min(4, os.cpu_count() or 1)))
    failures = comparisons = 0
    for alist, trace, decoder, flags, iters, points, step in CASES:
        ref = reference_points(os.path.join(a.data, trace))
        with tempfile.TemporaryDirectory() as tmp:
            out = os.path.join(tmp, "sim.json")
            lo, hi = min(points), max(points)
            code = os.path.join(a.data, alist) if "." in alist else alist  # file or built-in name
            cmd = [a.sim, "--code", code, "--decoder", decoder, *flags,
                   "--iterations", str(iters), "--ebn0", f"{lo}:{hi}:{step}",
                   "--min-frame-errors", str(a.min_frame_errors), "--max-frames", "200000",
                   "--seed", "7", "--threads", threads, "--backend", "cpu", "--json", out]
            print(" ".join(cmd), flush=True)
            subprocess.run(cmd, check=True)
            with open(out) as f:
                result = json.load(f)
        compared = set()
        for p in result["points"]:
            x = round(p["ebn0"], 2)
            p["label"] = f"{decoder} {' '.join(flags)}"
            if x not in points or x not in ref:
                continue
            compared.add(x)
            ref_ber, ref_fer = ref[x]
            fer_ratio = p["fer"] / ref_fer if ref_fer else float("inf")
            ok = p["frame_errors"] >= a.min_frame_errors and 0.5 <= fer_ratio <= 2.0
            print(f"{alist} {p['label']} i{iters} Eb/N0 {x}: FER {p['fer']:.3e} vs AFF3CT {ref_fer:.3e} "
                  f"(x{fer_ratio:.2f}), BER {p['ber']:.3e} vs {ref_ber:.3e}: {'ok' if ok else 'FAIL'}")
            failures += not ok
        # A point asked for but not compared (missing from the simulation or the reference
        # trace) is a failure: a case that compares nothing must not pass.
        for x in sorted(set(points) - compared):
            print(f"{alist} {decoder} Eb/N0 {x}: not compared (no simulated or no reference point): FAIL")
            failures += 1
        comparisons += len(compared)
    print(f"{comparisons} point(s) compared with AFF3CT's traces")
    failures += pgab_against_seed(a.sim, a.min_frame_errors, threads)
    if failures:
        print(f"{failures} point(s) outside a factor of 2")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
