#!/usr/bin/env bash
# LTE turbo GPU throughput (docs/performance.md): K = 6144, 6 full iterations, early stop off,
# information bits out, for several sub-block counts P, both algorithms, float and int8 input.
# Usage: bash benchmarks/run_turbo.sh [BUILD_DIR]; writes $OUT/turbo_table.md (or ./bench-out).
set -uo pipefail
build=${1:-build}
out=${OUT_DIR:-${OUT:-bench-out}}
mkdir -p "$out"
table="$out/turbo_table.md"
echo "| decoder | P | guard | input | frames | info Gb/s with transfers | info Gb/s kernel-only | per frame (us) |" > "$table"
echo "|---|---:|---|---|---:|---:|---:|---:|" >> "$table"
row() { # algorithm P guard input frames
  local id="turbo_$1_$2_$3_$4"
  "$build/apps/gpufec-bench" --code lte-turbo-6144 --decoder "$1" --iterations 6 --backend cuda --frames "$5" \
    --param subblocks="$2" --param guard="$3" --input "$4" --json "$out/$id.json" > "$out/$id.txt" 2>&1 ||
    { echo "| $1 | $2 | $3 | $4 | FAILED: $(tail -1 "$out/$id.txt") |" >> "$table"; return; }
  python3 -c "import json,sys; j=json.load(open(sys.argv[1])); print(f\"| $1 | $2 | $3 | $4 | $5 | {j['info_gbps']:.3f} | {j['kernel_coded_gbps']*j['k']/j['n']:.3f} | {j['frame_latency_us']:.1f} |\")" "$out/$id.json" >> "$table"
}
row maxlogmap 32 pivi float32 2048
row maxlogmap 64 pivi float32 2048
row maxlogmap 128 pivi float32 2048
row maxlogmap 192 pivi float32 2048
row maxlogmap 64 pividstw float32 2048
row maxlogmap 128 pividstw float32 2048
row maxlogmap 128 pivi int8 2048
row maxlogmap 192 pivi int8 2048
row logmap 128 pivi float32 2048
row maxlogmap 64 pivi float32 1
row maxlogmap 192 pivi float32 1
cat "$table"
