#!/usr/bin/env bash
# Standard GPU benchmark set of docs/performance.md. Runs on the GPU machine against a build tree
# (default ./build); writes one JSON per row and a markdown table into OUT_DIR (default $OUT or
# ./bench-out). Usage: bash benchmarks/run_gpu.sh [BUILD_DIR]
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
row dvbs2_nms10      --code dvbs2-normal-1_2 --decoder nms --iterations 10 --backend cuda --frames 4096
row dvbs2_nms10_f16  --code dvbs2-normal-1_2 --decoder nms --iterations 10 --backend cuda --frames 4096 --precision float16
row dvbs2_nms10_i8   --code dvbs2-normal-1_2 --decoder nms --iterations 10 --backend cuda --frames 4096 --precision int8
row dvbs2_nms10_fl   --code dvbs2-normal-1_2 --decoder nms --schedule flooding --iterations 10 --backend cuda --frames 4096
row nr_nms10         --code 5gnr-bg1-z384 --decoder nms --iterations 10 --backend cuda --frames 8192
row nr_nms10_f16     --code 5gnr-bg1-z384 --decoder nms --iterations 10 --backend cuda --frames 8192 --precision float16
row nr_nms10_i8      --code 5gnr-bg1-z384 --decoder nms --iterations 10 --backend cuda --frames 8192 --precision int8
row nr_nms10_single_i8 --code 5gnr-bg1-z384 --decoder nms --iterations 10 --backend cuda --frames 1 --repeat 21 --precision int8
row nr_i8_early2db   --code 5gnr-bg1-z384 --decoder nms --iterations 10 --backend cuda --frames 8192 --precision int8 --early-stop --ebn0 2.0
row wifi1944_nms10_i8 --code wifi-1944-1_2 --decoder nms --iterations 10 --backend cuda --frames 8192 --precision int8
row nr_nms10_single  --code 5gnr-bg1-z384 --decoder nms --iterations 10 --backend cuda --frames 1 --repeat 21
row dvbs2_spa50_fl   --code dvbs2-normal-1_2 --decoder spa --schedule flooding --iterations 50 --backend cuda --frames 2048 --repeat 3
row dvbs2_spa50_lay  --code dvbs2-normal-1_2 --decoder spa --schedule layered --iterations 50 --backend cuda --frames 2048 --repeat 3
row c2_ms50_fl       --code ccsds-c2 --decoder ms --schedule flooding --iterations 50 --backend cuda --frames 8192 --repeat 3
row c2_nms50_lay     --code ccsds-c2 --decoder nms --schedule layered --iterations 50 --backend cuda --frames 8192 --repeat 3
row galb50_dvbs2    --code dvbs2-normal-1_2 --decoder gallager-b --iterations 50 --backend cuda --frames 8192 --repeat 3
row pgab100_1008     --code mackay-1008-504 --decoder pgab --iterations 100 --backend cuda --frames 65536 --repeat 3
row cpu_galb50       --code dvbs2-normal-1_2 --decoder gallager-b --iterations 50 --backend cpu --frames 8 --repeat 3
row cpu_spa50        --code dvbs2-normal-1_2 --decoder spa --schedule flooding --iterations 50 --backend cpu --frames 2 --repeat 3
cat "$table"
grep -h "ceilings" "$out"/dvbs2_nms10.txt
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
