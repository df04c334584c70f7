#!/usr/bin/env bash
# One CPU core, the vector decoders against each other (docs/performance.md, issue 12's CPU
# rows): layered NMS-10 (norm 0.75, early stop off) at float32 (AVX2, 8 frames per register)
# and int8 (the widest path: AVX-512BW 64 frames per register where the CPU has it, and AVX2
# 32, forced by cpu_simd=2), and SPA-10, on the codes issue 12 names. Usage:
# bash benchmarks/run_cpu_simd.sh [BUILD_DIR] [REPEAT]; writes $OUT/cpu_simd_table.md (or
# ./bench-out).
set -uo pipefail
build=${1:-build}
repeat=${2:-3}
out=${OUT_DIR:-${OUT:-bench-out}}
mkdir -p "$out"
table="$out/cpu_simd_table.md"
wide=no
grep -q -w avx512bw /proc/cpuinfo 2>/dev/null && wide=yes
{
  echo "CPU: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | xargs), one core; AVX-512BW: $wide; $(date -u +%F)"
  echo
  echo "| code | decoder | schedule | precision | vector path | frames | coded Mb/s | per frame (us) |"
  echo "|---|---|---|---|---|---:|---:|---:|"
} > "$table"
row() { # code decoder schedule precision cpu_simd frames
  local id="cpu_simd_$1_$2_$3_$4_$5"
  local path="auto"
  [ "$5" = 2 ] && path="AVX2 (cpu_simd=2)"
  "$build/apps/gpufec-bench" --code "$1" --decoder "$2" --schedule "$3" --iterations 10 --backend cpu --threads 1 \
    --frames "$6" --repeat "$repeat" --precision "$4" --param cpu_simd="$5" --json "$out/$id.json" > "$out/$id.txt" 2>&1 ||
    { echo "| $1 | $2 | $3 | $4 | $path | $6 | FAILED: $(tail -1 "$out/$id.txt") | |" >> "$table"; return; }
  python3 -c "import json,sys; j=json.load(open(sys.argv[1])); print(f\"| $1 | $2 | $3 | $4 | $path | $6 | {j['coded_gbps']*1000:.1f} | {j['frame_latency_us']:.1f} |\")" "$out/$id.json" >> "$table"
}
for code in dvbs2-normal-1_2 dvbs2-short-3_4 mackay-8000-4000; do
  row "$code" nms layered float32 1 128
  row "$code" nms layered int8 1 128
  [ $wide = yes ] && row "$code" nms layered int8 2 128
done
row mackay-1008-504 spa layered float32 1 512
row mackay-1008-504 spa flooding float32 1 512
cat "$table"
