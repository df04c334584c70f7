#!/usr/bin/env bash
# A/B of two builds in one GPU lease: the GPU rows of run_gpu.sh, each run old, new, new, old
# (so drift in the machine's state falls on both), and a table of the means with the change.
# Usage: bash benchmarks/run_ab.sh OLD_BENCH_DIR NEW_BUILD_DIR
#   OLD_BENCH_DIR holds gpufec-bench and its libgpufec.so* (copied from a build of the old commit);
#   NEW_BUILD_DIR is a build tree. Writes $OUT/ab_table.md (or ./bench-out).
set -uo pipefail
old=$1
new=$2
out=${OUT_DIR:-${OUT:-bench-out}}
mkdir -p "$out"
table="$out/ab_table.md"
run() { # dir libdir id args... -> "with_transfers kernel_only" on stdout
  local bin=$1 lib=$2 id=$3
  shift 3
  LD_LIBRARY_PATH="$lib" "$bin" --json "$out/$id.json" "$@" > "$out/$id.txt" 2>&1 || { echo "nan nan"; return; }
  python3 -c "import json,sys; j=json.load(open(sys.argv[1])); print(j['coded_gbps'], j['kernel_coded_gbps'])" "$out/$id.json"
}
{
  echo "GPU: $(nvidia-smi --query-gpu=name --format=csv,noheader | head -1); $(date -u +%F); runs old,new,new,old per row; coded Gb/s"
  echo
  echo "| row | old with transfers | new with transfers | change | old kernel-only | new kernel-only | change |"
  echo "|---|---:|---:|---:|---:|---:|---:|"
} > "$table"
row() {
  local id=$1
  shift
  local a1 b1 b2 a2
  a1=$(run "$old/gpufec-bench" "$old" "${id}_a1" "$@")
  b1=$(run "$new/apps/gpufec-bench" "$new/lib" "${id}_b1" "$@")
  b2=$(run "$new/apps/gpufec-bench" "$new/lib" "${id}_b2" "$@")
  a2=$(run "$old/gpufec-bench" "$old" "${id}_a2" "$@")
  python3 - "$id" "$a1" "$a2" "$b1" "$b2" >> "$table" <<'PY'
import sys
id_, *runs = sys.argv[1:]
(a1t, a1k), (a2t, a2k), (b1t, b1k), (b2t, b2k) = [tuple(float(x) for x in r.split()) for r in runs]
at, ak, bt, bk = (a1t + a2t) / 2, (a1k + a2k) / 2, (b1t + b2t) / 2, (b1k + b2k) / 2
pct = lambda b, a: f"{100 * (b / a - 1):+.1f}%" if a > 0 and b > 0 else "n/a"
print(f"| {id_} | {at:.3f} | {bt:.3f} | {pct(bt, at)} | {ak:.3f} | {bk:.3f} | {pct(bk, ak)} |")
PY
}
row dvbs2_nms10      --code dvbs2-normal-1_2 --decoder nms --iterations 10 --backend cuda --frames 4096
row dvbs2_nms10_f16  --code dvbs2-normal-1_2 --decoder nms --iterations 10 --backend cuda --frames 4096 --precision float16
row dvbs2_nms10_i8   --code dvbs2-normal-1_2 --decoder nms --iterations 10 --backend cuda --frames 4096 --precision int8
row dvbs2_nms10_fl   --code dvbs2-normal-1_2 --decoder nms --schedule flooding --iterations 10 --backend cuda --frames 4096
row nr_nms10         --code 5gnr-bg1-z384 --decoder nms --iterations 10 --backend cuda --frames 8192
row nr_nms10_f16     --code 5gnr-bg1-z384 --decoder nms --iterations 10 --backend cuda --frames 8192 --precision float16
row nr_nms10_i8      --code 5gnr-bg1-z384 --decoder nms --iterations 10 --backend cuda --frames 8192 --precision int8
row nr_i8_early2db   --code 5gnr-bg1-z384 --decoder nms --iterations 10 --backend cuda --frames 8192 --precision int8 --early-stop --ebn0 2.0
row wifi1944_nms10_i8 --code wifi-1944-1_2 --decoder nms --iterations 10 --backend cuda --frames 8192 --precision int8
row nr_nms10_single  --code 5gnr-bg1-z384 --decoder nms --iterations 10 --backend cuda --frames 1 --repeat 21
row dvbs2_spa50_fl   --code dvbs2-normal-1_2 --decoder spa --schedule flooding --iterations 50 --backend cuda --frames 2048 --repeat 3
row dvbs2_spa50_lay  --code dvbs2-normal-1_2 --decoder spa --schedule layered --iterations 50 --backend cuda --frames 2048 --repeat 3
row c2_ms50_fl       --code ccsds-c2 --decoder ms --schedule flooding --iterations 50 --backend cuda --frames 8192 --repeat 3
row c2_nms50_lay     --code ccsds-c2 --decoder nms --schedule layered --iterations 50 --backend cuda --frames 8192 --repeat 3
row galb50_dvbs2     --code dvbs2-normal-1_2 --decoder gallager-b --iterations 50 --backend cuda --frames 8192 --repeat 3
row pgab100_1008     --code mackay-1008-504 --decoder pgab --iterations 100 --backend cuda --frames 65536 --repeat 3
row dvbs2_i8_in      --code dvbs2-normal-1_2 --decoder nms --iterations 10 --backend cuda --frames 4096 --precision int8 --input int8
row nr_i8_in         --code 5gnr-bg1-z384 --decoder nms --iterations 10 --backend cuda --frames 8192 --precision int8 --input int8
cat "$table"
