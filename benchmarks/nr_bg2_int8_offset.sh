#!/usr/bin/env bash
# Issue 24 item 6, BG2 at int8: FER against the normalisation and the offset after it
# (norm_offset, LLR; the default step 0.25, so 0.125 is half a step), beside float32 at its
# default, layered NMS, 10 iterations, Z=384, rates 1/5, 1/3, 1/2, 2/3 and 0.8, on the GPU (the
# whole chain on the device); then every precision at the defaults on BG2.
# Usage: bash benchmarks/nr_bg2_int8_offset.sh [BUILD_DIR]; prints markdown tables.
set -uo pipefail
top=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
build=${1:-$top/build}
sim="$build/apps/gpufec-sim"
tmp=$(mktemp -d)
run() { # label code range sim-args...
  local label=$1 code=$2 range=$3
  shift 3
  "$sim" --code "$code" --decoder nms --iterations 10 --ebn0 "$range" --min-frame-errors 300 --max-frames 1000000 \
    --backend cuda --keep-going --no-progress --json "$tmp/x.json" "$@" > /dev/null 2>&1 || { echo "| $label | failed |"; return; }
  python3 - "$tmp/x.json" "$label" <<'PY'
import json, sys
j = json.load(open(sys.argv[1]))
print(f"| {sys.argv[2]} | " + ", ".join(f"{p['ebn0']:.1f}: {p['fer']:.1e}" for p in j["points"]) + " |")
PY
}
echo "| rate, rule | FER at each Eb/N0 (dB) |"
echo "|---|---|"
rates=("1/5 5gnr-bg2-z384 0.7:1.3:0.1" "1/3 5gnr-bg2-z384:k=3840:e=11520 1.1:1.7:0.1"
       "1/2 5gnr-bg2-z384:k=3840:e=7680 1.5:2.2:0.1" "2/3 5gnr-bg2-z384:k=3840:e=5760 2.3:3.0:0.1"
       "0.8 5gnr-bg2-z384:k=3840:e=4800 3.1:3.9:0.1")
for spec in "${rates[@]}"; do
  set -- $spec
  run "$1 float32 (default)" "$2" "$3" --precision float32
  for cfg in "0.6875 0" "0.75 0" "0.75 0.125" "0.8125 0" "0.8125 0.125" "0.8125 0.25" "0.875 0.125"; do
    set -- $spec $cfg
    run "$1 int8 norm $4, norm_offset $5" "$2" "$3" --precision int8 --norm "$4" --param "norm_offset=$5"
  done
done
echo
echo "| rate | precision at its defaults | FER at each Eb/N0 (dB) |"
echo "|---|---|---|"
for spec in "${rates[@]}"; do
  set -- $spec
  for prec in float32 float16 int8; do
    run "$1 | $prec" "$2" "$3" --precision "$prec"
  done
done
rm -rf "$tmp"
