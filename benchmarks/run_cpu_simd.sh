#!/usr/bin/env bash
# One CPU core, the vector decoders against each other (docs/performance.md, issue 12's CPU
# rows): layered NMS-10 (norm 0.75, early stop off) at float32 (AVX2, 8 frames per register)
# and int8 (AVX2, 32 frames per register), and SPA-10, on the codes issue 12 names. Usage:
# bash benchmarks/run_cpu_simd.sh [BUILD_DIR] [REPEAT]; writes $OUT/cpu_simd_table.md (or
# ./bench-out).
set -uo pipefail
build=${1:-build}
repeat=${2:-3}
out=${OUT_DIR:-${OUT:-bench-out}}
mkdir -p "$out"
table="$out/cpu_simd_table.md"
echo "| code | decoder | precision | frames | coded Mb/s | per frame (us) |" > "$table"
echo "|---|---|---|---:|---:|---:|" >> "$table"
row() { # code decoder precision frames
  local id="cpu_simd_$1_$2_$3"
  "$build/apps/gpufec-bench" --code "$1" --decoder "$2" --schedule layered --iterations 10 --backend cpu --threads 1 \
    --frames "$4" --repeat "$repeat" --precision "$3" --json "$out/$id.json" > "$out/$id.txt" 2>&1 ||
    { echo "| $1 | $2 | $3 | $4 | FAILED: $(tail -1 "$out/$id.txt") | |" >> "$table"; return; }
  python3 -c "import json,sys; j=json.load(open(sys.argv[1])); print(f\"| $1 | $2 | $3 | $4 | {j['coded_gbps']*1000:.1f} | {j['frame_latency_us']:.1f} |\")" "$out/$id.json" >> "$table"
}
for code in dvbs2-normal-1_2 dvbs2-short-3_4 mackay-8000-4000; do
  row "$code" nms float32 128
  row "$code" nms int8 128
done
row mackay-1008-504 spa float32 512
cat "$table"
