#!/usr/bin/env bash
# A/B of two builds in one GPU lease: the GPU rows of run_gpu.sh, each run old, new, new, old
# (so drift in the machine's state falls on both), and a table of the means with the change.
# Usage: bash benchmarks/run_ab.sh OLD_BENCH_DIR NEW_BUILD_DIR (ROWS=FILE: another row list)
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
while read -r id args; do
  [[ -z "$id" || "$id" == \#* || "$args" == *"--backend cpu"* ]] && continue
  row "$id" $args < /dev/null
done < "${ROWS:-$(dirname "${BASH_SOURCE[0]}")/gpu_rows.txt}"
cat "$table"
