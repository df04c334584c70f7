#!/usr/bin/env bash
# Issue 24 item 6, BG2 at int8: FER against the int8 step and the normalisation, beside float32 at
# the table's default, 10 iterations layered NMS, Z=384, on the GPU (whole chain on the device).
# Usage: bash benchmarks/nr_bg2_int8_sweep.sh [BUILD_DIR]; prints a markdown table.
set -uo pipefail
top=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
build=${1:-$top/build}
sim="$build/apps/gpufec-sim"
tmp=$(mktemp -d)
i=0
for c in "5gnr-bg2-z384 0.5:1.1:0.2" "5gnr-bg2-z384:k=3840:e=11520 1.1:1.7:0.2" "5gnr-bg2-z384:k=3840:e=7680 1.7:2.3:0.2" \
         "5gnr-bg2-z384:k=3840:e=5760 2.5:3.1:0.2"; do
  set -- $c
  for cfg in "float32 0 0" "int8 0.25 0.6875" "int8 0.25 0.75" "int8 0.375 0.6875" "int8 0.375 0.75" "int8 0.5 0.6875" \
             "int8 0.5 0.75" "int8 0.75 0.75"; do
    set -- $c $cfg
    i=$((i + 1))
    norm=(); [ "$5" != 0 ] && norm=(--norm "$5")
    step=(); [ "$4" != 0 ] && step=(--quant-step "$4")
    "$sim" --code "$1" --decoder nms --iterations 10 --precision "$3" "${step[@]}" "${norm[@]}" --ebn0 "$2" \
      --min-frame-errors 300 --max-frames 100000 --backend cuda --keep-going --no-progress --json "$tmp/run$i.json" \
      > /dev/null 2>&1 || echo "run $i ($*) failed"
  done
done
python3 - "$tmp" <<'PY'
import glob, json, sys
print("| code | precision | step | norm | FER at each Eb/N0 |")
print("|---|---|---:|---:|---|")
for f in sorted(glob.glob(sys.argv[1] + "/run*.json"), key=lambda f: int(f.split("run")[-1][:-5])):
    j = json.load(open(f)); p = j["parameters"]
    pts = ", ".join(f"{pt['ebn0']:.1f}: {pt['fer']:.2e}" for pt in j["points"])
    print(f"| {p['code']} | {p['precision']} | {p['quant_step']} | {p['norm']} | {pts} |")
PY
rm -rf "$tmp"
