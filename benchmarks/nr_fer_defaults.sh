#!/usr/bin/env bash
# Issue 24: FER of the 5G NR decoder at its defaults (layered NMS, 10 iterations, norm and int8
# step by code and rate) for every storage precision, BG1 Z=384 K=8448 at R=1/3 (the issue's
# cuPHY table: 6.7e-3 at 1.1 dB, 4.9e-4 at 1.2 dB) and R=0.79, and BG2 at R=1/3.
# Usage: bash benchmarks/nr_fer_defaults.sh [BUILD_DIR]; writes nr_fer.md into $OUT_DIR or $OUT.
set -uo pipefail
top=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
build=${1:-$top/build}
out=${OUT_DIR:-${OUT:-$top/bench-out}}
mkdir -p "$out/fer"
sim="$build/apps/gpufec-sim"
i=0
for c in "5gnr-bg1-z384 1.0:1.3:0.1" "5gnr-bg1-z384:k=8448:e=10752:qm=2 2.8:3.4:0.2" "5gnr-bg2-z384:k=3840:e=11520 1.1:1.7:0.2"; do
  set -- $c
  for prec in float32 float16 int8; do
    i=$((i + 1))
    "$sim" --code "$1" --decoder nms --iterations 10 --precision "$prec" --ebn0 "$2" --min-frame-errors 300 \
      --max-frames 200000 --backend cuda --keep-going --no-progress --json "$out/fer/run$i.json" > /dev/null 2>&1 \
      || echo "run $i ($c $prec) failed"
  done
done
python3 - "$out/fer" > "$out/nr_fer.md" <<'PY'
import glob, json, sys
print("| code | precision | FER (frames) at each Eb/N0 |")
print("|---|---|---|")
runs = [json.load(open(f)) for f in sorted(glob.glob(sys.argv[1] + "/run*.json"), key=lambda f: int(f.split("run")[-1][:-5]))]
for j in runs:
    p = j["parameters"]
    pts = ", ".join(f"{pt['ebn0']:.1f} dB: {pt['fer']:.2e} ({pt['frames']})" for pt in j["points"])
    print(f"| {p['code']} | {p['precision']} | {pts} |")
PY
rm -rf "$out/fer"
cat "$out/nr_fer.md"
