#!/usr/bin/env bash
# Every table of issue 12 (binary LDPC speed) in docs/performance.md, in one command, on the GPU
# machine (its CPU gives the CPU rows of that machine; for the development machine's CPU rows run
# run_cpu_simd.sh there):
#   bash benchmarks/run_issue12.sh [BUILD_DIR] [FER_FRAMES]
# GPU: the int8 packed kernels with the run's ceilings (run_packed_i8.sh), the structured codes
# and the latency plan (run_structured.sh), SPA at 50 iterations (below); the int8 error rates
# (int8_fer.sh, up to FER_FRAMES per point, default 100000); one CPU core (run_cpu_simd.sh);
# the GNU Radio C++ flowgraph against a copy flowgraph, where gr_flowgraph_bench was built (it
# needs GNU Radio's libraries: ../shared/tools/device-bundle.sh packs them). About 15 minutes on
# an H100 with the default FER_FRAMES. Writes everything under $OUT (or ./bench-out) and joins
# the tables into issue12.md.
set -uo pipefail
top=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
build=${1:-$top/build}
fer_frames=${2:-100000}
out=${OUT_DIR:-${OUT:-$top/bench-out}}
mkdir -p "$out"
export OUT_DIR=$out
bench="$build/apps/gpufec-bench"

bash "$top/benchmarks/run_packed_i8.sh" "$build" > "$out/run_packed_i8.log" 2>&1
bash "$top/benchmarks/run_structured.sh" "$build" > "$out/run_structured.log" 2>&1

# SPA, 50 iterations, early stop off: flooding and the generic layered kernel (the faster one
# counts against the target).
spa="$out/spa_table.md"
{
  echo "GPU: $(nvidia-smi --query-gpu=name --format=csv,noheader 2>/dev/null | head -1); $(date -u +%F); SPA, 50 iterations, early stop off"
  echo
  echo "| code | schedule | frames | coded Gb/s with transfers | kernel-only coded Gb/s |"
  echo "|---|---|---:|---:|---:|"
} > "$spa"
for code in dvbs2-normal-1_2 5gnr-bg1-z384 wifi-1944-1_2 ccsds-c2; do
  for sched in flooding layered; do
    id="spa_${code}_$sched"
    "$bench" --code "$code" --decoder spa --schedule "$sched" --iterations 50 --backend cuda --repeat 3 \
      --json "$out/$id.json" > "$out/$id.txt" 2>&1 ||
      { echo "| $code | $sched | FAILED: $(tail -1 "$out/$id.txt") | | |" >> "$spa"; continue; }
    python3 - "$out/$id.json" "$code" "$sched" >> "$spa" <<'PY'
import json, sys
j = json.load(open(sys.argv[1]))
print(f"| {sys.argv[2]} | {sys.argv[3]} | {j['frames']} | {j['coded_gbps']:.3f} | {j['kernel_coded_gbps']:.3f} |")
PY
  done
done

bash "$top/benchmarks/int8_fer.sh" "$build" "$fer_frames" > "$out/int8_fer.log" 2>&1
bash "$top/benchmarks/run_cpu_simd.sh" "$build" 3 > "$out/run_cpu_simd.log" 2>&1

flow="$out/flowgraph_table.md"
if [ -x "$build/benchmarks/gr_flowgraph_bench" ]; then
  echo "| code | frames | soft bits | gr_flowgraph_bench (copy flowgraph, decoder flowgraph, ratio) |" > "$flow"
  echo "|---|---:|---|---|" >> "$flow"
  for cf in 5gnr-bg1-z384:8000 dvbs2-normal-1_2:3000 wifi-1944-1_2:100000; do
    for soft in int8 float; do
      r=$("$build/benchmarks/gr_flowgraph_bench" "${cf%%:*}" "${cf##*:}" cuda nms 10 "$soft" 2>&1 | grep "^code " | tail -1)
      echo "| ${cf%%:*} | ${cf##*:} | $soft | $r |" >> "$flow"
    done
  done
else
  echo "gr_flowgraph_bench not built in $build (needs GNU Radio): flowgraph rows skipped" > "$flow"
fi

{
  for t in packed_i8_table structured_table spa_table int8_fer cpu_simd_table flowgraph_table; do
    echo "## $t"
    echo
    cat "$out/$t.md" 2>/dev/null || echo "(missing: see $t's log)"
    echo
  done
  echo "ceilings: $(grep -h "ceilings" "$out"/dvbs2n_h2.txt 2>/dev/null | head -1)"
} > "$out/issue12.md"
cat "$out/issue12.md"
