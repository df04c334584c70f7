#!/usr/bin/env bash
# FER of the int8 rule against float32 on the codes the int8 GPU benchmarks use (issue 12),
# layered NMS-10 (norm 0.75, early stop on: the sim's default), BPSK/AWGN, the same noise for both
# precisions (seed 1). The GPU decides exactly as the CPU reference at int8 (equivalence test), so
# on a GPU machine the curve is the reference's, only faster. Usage:
#   bash benchmarks/int8_fer.sh [BUILD_OR_BIN_DIR] [MAX_FRAMES] [CODE ...]
# Writes $OUT/int8_fer.md (or ./bench-out) and one JSON per curve; CODE ...: only these curves.
set -uo pipefail
dir=${1:-build}
max=${2:-100000}
only=("${@:3}")
sim="$dir/gpufec-sim"
[ -x "$sim" ] || sim="$dir/apps/gpufec-sim"
out=${OUT_DIR:-${OUT:-bench-out}}
mkdir -p "$out"
threads=$(nproc)
table="$out/int8_fer.md"
{
  echo "FER, layered NMS-10 (early stop), BPSK/AWGN, seed 1, up to $max frames or 100 frame errors per point; $(date -u +%F)"
  echo
  echo "| code | precision | FER by Eb/N0 (dB) |"
  echo "|---|---|---|"
} > "$table"
curve() { # code range
  if [ ${#only[@]} -gt 0 ] && [[ ! " ${only[*]} " =~ " $1 " ]]; then return; fi
  for prec in float32 int8; do
    local id="fer_$1_$prec"
    "$sim" --code "$1" --decoder nms --iterations 10 --ebn0 "$2" --min-frame-errors 100 --max-frames "$max" \
      --precision "$prec" --threads "$threads" --json "$out/$id.json" > "$out/$id.txt" 2>&1 ||
      { echo "| $1 | $prec | FAILED: $(tail -1 "$out/$id.txt") |" >> "$table"; continue; }
    python3 - "$out/$id.json" "$1" "$prec" >> "$table" <<'PY'
import json, sys
j = json.load(open(sys.argv[1]))
pts = ", ".join(f"{p['ebn0']:.1f}: {p['fer']:.2g}" for p in j['points'])
print(f"| {sys.argv[2]} | {sys.argv[3]} | {pts} |")
PY
  done
}
curve dvbs2-normal-1_2 1.5:2.7:0.2
curve 5gnr-bg1-z384 0.8:1.8:0.2
curve wifi-1944-1_2 1.6:2.8:0.3
curve dvbs2-short-3_4 2.8:3.8:0.2
curve dvbs2-short-1_2 2.2:3.4:0.3
curve ccsds-c2 3.4:4.2:0.2
curve ar4ja-1_2-1024 1.6:3.2:0.4
cat "$table"
