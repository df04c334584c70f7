#!/usr/bin/env bash
# Issue 12, third pass: codes whose QC view is found in H (CCSDS C2 in lane slices, AR4JA) and
# the latency plan (one frame per block, two threads per row for frames of at most 128 lanes).
# Runs on the GPU machine. Usage: bash benchmarks/run_structured.sh [BUILD_DIR]
# Writes $OUT/structured_table.md (or ./bench-out): kernel-only and with-transfer rates beside
# the kernel each flag selects (--cuda-tuning: 1 generic kernels, 128 one frame per thread,
# 512 half2, 1024 no latency plan), and single-frame times with and without the latency plan.
set -uo pipefail
top=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
build=${1:-$top/build}
bench="$build/apps/gpufec-bench"
[ -x "$bench" ] || bench="$build/gpufec-bench"
out=${OUT_DIR:-${OUT:-$top/bench-out}}
mkdir -p "$out"
table="$out/structured_table.md"
{
  echo "GPU: $(nvidia-smi --query-gpu=name --format=csv,noheader 2>/dev/null | head -1); $(date -u +%F); layered, early stop off;"
  echo "\"with transfers\" = pinned buffers, H2D + kernels + D2H; kernel-only = one whole chunk."
  echo
  echo "| code | decoder | it | precision | input | tuning | frames | coded Gb/s with transfers | kernel-only coded Gb/s | per frame (us) |"
  echo "|---|---|---:|---|---|---:|---:|---:|---:|---:|"
} > "$table"
n=0
row() { # code decoder iterations precision input tuning frames(0: default chunk)
  n=$((n + 1))
  local frames=()
  [ "$7" != 0 ] && frames=(--frames "$7" --repeat 21)
  "$bench" --code "$1" --decoder "$2" --schedule layered --iterations "$3" --backend cuda --precision "$4" \
    --input "$5" --cuda-tuning "$6" --repeat 3 "${frames[@]}" --json "$out/s$n.json" > "$out/s$n.txt" 2>&1 ||
    { echo "| $1 | $2 | $3 | $4 | $5 | $6 | $7 | FAILED: $(tail -1 "$out/s$n.txt") | | |" >> "$table"; return; }
  python3 - "$out/s$n.json" "$*" >> "$table" <<'PY'
import json, sys
j = json.load(open(sys.argv[1]))
c, d, it, p, i, t, f = sys.argv[2].split()
print(f"| {c} | {d} | {it} | {p} | {i} | {t} | {j['frames']} | {j['coded_gbps']:.3f} | "
      f"{j['kernel_coded_gbps']:.3f} | {j['frame_latency_us']:.1f} |")
PY
}
for t in 0 1; do row ccsds-c2 nms 50 float32 float32 $t 0; done
row ccsds-c2 nms 50 float16 float32 0 0
for t in 0 128 512; do row ccsds-c2 nms 50 int8 int8 $t 0; done
for t in 0 1; do row ar4ja-1_2-1024 nms 10 float32 float32 $t 0; done
row ar4ja-1_2-1024 nms 10 int8 int8 0 0
for c in 5gnr-bg1-z384 dvbs2-normal-1_2 dvbs2-short-1_2 wifi-1944-1_2 ccsds-c2; do
  for p in float32 int8; do
    for t in 0 1024; do row $c nms 10 $p float32 $t 1; done
  done
done
for t in 0 1024; do row 5gnr-bg1-z384 nms 10 int8 float32 $t 132; done
cat "$table"
