#!/usr/bin/env bash
# BER of the K = 7 (171, 133) rate-1/2 code (cc-k7-1_2, k = 1024, zero tail) under soft Viterbi
# decoding, beside the union bound of its published distance spectrum: for each point, the Eb/N0
# at which the bound reaches the measured BER, and the gap. Usage (from the repository root):
#   bash benchmarks/conv_error_rate.sh [BUILD_DIR] [BACKEND] [MIN_BIT_ERRORS-ish frame errors]
set -euo pipefail
build=${1:-build}
backend=${2:-auto}
min_fe=${3:-200}
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
"$build/apps/gpufec-sim" --code cc-k7-1_2 --decoder viterbi --iterations 1 --ebn0 3.0:5.0:0.5 \
  --min-frame-errors "$min_fe" --max-frames 400000000 --backend "$backend" --keep-going --no-progress \
  --json "$out/conv.json" ${SIM_ARGS:-}
python3 - "$out/conv.json" <<'PY'
import json, math, sys
B = [36, 211, 1404, 11633, 77433, 502690, 3322763, 21292910]  # d = 10, 12, ..., 24
def bound(db):
    e = 10 ** (db / 10)
    return sum(b * 0.5 * math.erfc(math.sqrt(2 * (10 + 2 * i) * 0.5 * e) / math.sqrt(2)) for i, b in enumerate(B))
doc = json.load(open(sys.argv[1]))
print("Eb/N0 dB |   bits   | bit errors |    BER    | union bound | bound reaches this BER at | gap dB")
for p in doc["points"]:
    x, ber = p["ebn0"], p["ber"]
    lo, hi = 0.0, 12.0
    for _ in range(60):  # the bound decreases with Eb/N0: bisect for bound(x') = ber
        mid = (lo + hi) / 2
        lo, hi = (mid, hi) if bound(mid) > ber else (lo, mid)
    bits = p["frames"] * 1024
    print(f"{x:8.2f} | {bits:8.2e} | {p['bit_errors']:10d} | {ber:9.3e} | {bound(x):11.3e} | {lo:25.2f} | {lo - x:+.2f}")
PY
