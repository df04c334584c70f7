#!/usr/bin/env bash
# Standard GPU benchmark set of docs/performance.md. Runs on the GPU machine against a build tree
# (default ./build); writes one JSON per row and a markdown table into OUT_DIR (default $OUT or
# ./bench-out). Usage: bash benchmarks/run_gpu.sh [BUILD_DIR]; ROWS=benchmarks/nr_rows.txt picks another
# row list (default benchmarks/gpu_rows.txt).
set -uo pipefail
top=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
build=${1:-$top/build}
out=${OUT_DIR:-${OUT:-$top/bench-out}}
mkdir -p "$out"
bench="$build/apps/gpufec-bench"
gpu=$(nvidia-smi --query-gpu=name --format=csv,noheader 2>/dev/null | head -1)
table="$out/gpu_table.md"
{
  echo "GPU: $gpu; date $(date -u +%F); early stop off; fp32 LLR input; \"with transfers\" = pinned host buffers, H2D + kernels + D2H of hard decisions, two-stream pipeline."
  echo
  echo "| # | code | decoder | it | frames | coded Gb/s with transfers | % of H2D bound | kernel-only coded Gb/s | per frame (us) | command |"
  echo "|---|---|---|---:|---:|---:|---:|---:|---:|---|"
} > "$table"
row() { # id, args...
  local id=$1; shift
  "$bench" --json "$out/$id.json" "$@" > "$out/$id.txt" 2>&1 || { echo "| $id | FAILED: $(tail -1 "$out/$id.txt") |" >> "$table"; return; }
  python3 - "$out/$id.json" "$id" "$*" >> "$table" <<'PY'
import json, sys
j = json.load(open(sys.argv[1]))
print(f"| {sys.argv[2]} | {j['code']} | {j['schedule']} {j['decoder']} {j['precision']} | {j['iterations']} | {j['frames']} | "
      f"{j['coded_gbps']:.2f} | {100*j['h2d_bound_fraction']:.0f}% | "
      f"{(format(j['kernel_coded_gbps'], '.2f') if j['kernel_coded_gbps'] > 0 else 'n/a')} | "
      f"{j['frame_latency_us']:.2f} | `gpufec-bench {sys.argv[3]}` |")
PY
}
while read -r id args; do
  [[ -z "$id" || "$id" == \#* ]] && continue
  row "$id" $args < /dev/null
done < "${ROWS:-$top/benchmarks/gpu_rows.txt}"
cat "$table"
grep -h "ceilings" "$out"/*.txt | head -1
# GNU Radio C++ flowgraph: decoder block vs copy block (needs a build with GNU Radio: GR_BUILD).
if [ -x "${GR_BUILD:-}/benchmarks/gr_flowgraph_bench" ]; then
  for spec in "5gnr-bg1-z384 8000" "dvbs2-normal-1_2 3000" "wifi-1944-1_2 100000"; do
    set -- $spec
    for input in float int8; do
      "$GR_BUILD/benchmarks/gr_flowgraph_bench" "$1" "$2" cuda nms 10 "$input" 2>&1 | grep -v ":info:" |
        tee -a "$out/gr_flowgraph.txt"
    done
  done
fi
