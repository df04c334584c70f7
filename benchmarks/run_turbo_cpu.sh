#!/usr/bin/env bash
# LTE turbo CPU throughput per core (docs/performance.md): K = 6144, Max-Log-MAP, 6 full
# iterations, early stop off, one thread; the float reference and the fixed-point decoder
# (int16 / int8, AVX2 and AVX-512 where present). Usage: bash benchmarks/run_turbo_cpu.sh
# [BUILD_DIR]; writes $OUT/turbo_cpu_table.md (or ./bench-out).
set -uo pipefail
build=${1:-build}
out=${OUT_DIR:-${OUT:-bench-out}}
mkdir -p "$out"
table="$out/turbo_cpu_table.md"
echo "| arithmetic | instructions | frames | info Mb/s per core | per frame (us) |" > "$table"
echo "|---|---|---:|---:|---:|" >> "$table"
row() { # arithmetic simd frames repeat
  local id="turbo_cpu_$1_$2"
  "$build/apps/gpufec-bench" --code lte-turbo-6144 --decoder maxlogmap --iterations 6 --backend cpu --threads 1 \
    --frames "$3" --repeat "$4" --param arithmetic="$1" --param simd="$2" --json "$out/$id.json" > "$out/$id.txt" 2>&1 ||
    { echo "| $1 | $2 | $3 | not run: $(tail -1 "$out/$id.txt") | |" >> "$table"; return; }
  python3 -c "import json,sys; j=json.load(open(sys.argv[1])); print(f\"| $1 | $2 | $3 | {j['info_gbps']*1000:.1f} | {j['frame_latency_us']:.1f} |\")" "$out/$id.json" >> "$table"
}
row float auto 16 1
for a in int16 int8; do for s in avx2 avx512; do row $a $s 512 5; done; done
cat "$table"
