#!/usr/bin/env bash
# GF(q) LDPC throughput (docs/performance.md, issue 11's rows): 10 iterations, early stop off,
# information bits out, batched, on the GPU (float32 and int8 input) and one CPU core (the
# reference decoder, for the speed-up). Usage: bash benchmarks/run_nbldpc.sh [BUILD_DIR]
# [GPU_FRAMES]; writes $OUT/nbldpc_table.md (or ./bench-out).
set -uo pipefail
build=${1:-build}
frames=${2:-4096}
out=${OUT_DIR:-${OUT:-bench-out}}
mkdir -p "$out"
table="$out/nbldpc_table.md"
echo "| code | decoder | schedule | backend | input | frames | info Mb/s with transfers | info Mb/s kernel-only | per frame (us) |" > "$table"
echo "|---|---|---|---|---|---:|---:|---:|---:|" >> "$table"
row() { # code algorithm schedule backend input frames
  local id="nb_$1_$2_$3_$4_$5"
  "$build/apps/gpufec-bench" --code "$1" --decoder "$2" --schedule "$3" --iterations 10 --backend "$4" --threads 1 \
    --frames "$6" --input "$5" --json "$out/$id.json" > "$out/$id.txt" 2>&1 ||
    { echo "| $1 | $2 | $3 | $4 | $5 | FAILED: $(tail -1 "$out/$id.txt") |" >> "$table"; return; }
  python3 -c "import json,sys; j=json.load(open(sys.argv[1])); k=j['kernel_coded_gbps']*j['k']/j['n']*1000 if j.get('kernel_coded_gbps') else float('nan'); print(f\"| $1 | $2 | $3 | $4 | $5 | $6 | {j['info_gbps']*1000:.4g} | {k:.4g} | {j['frame_latency_us']:.1f} |\")" "$out/$id.json" >> "$table"
}
if [ "${NB_SKIP_GPU:-0}" != 1 ]; then
  row nb-gf64-5040 fft-bp flooding cuda float32 "$frames"
  row nb-gf64-5040 fft-bp flooding cuda int8 "$frames"
  row nb-gf64-5040 fft-bp layered cuda float32 "$frames"
  row nb-gf256-5040 fft-bp flooding cuda float32 "$((frames / 4))"
  row nb-qc-gf32-744 min-max layered cuda float32 "$frames"
  row nb-qc-gf32-744 min-max layered cuda int8 "$frames"
  row nb-qc-gf32-744 min-max flooding cuda float32 "$frames"
  row nb-gf64-5040 min-max layered cuda float32 "$frames"
  head -3 "$out/nb_nb-gf64-5040_fft-bp_flooding_cuda_float32.txt" > "$out/nbldpc_ceilings.txt" 2>/dev/null
fi
row nb-gf64-5040 fft-bp flooding cpu float32 2
row nb-gf256-5040 fft-bp flooding cpu float32 1
row nb-qc-gf32-744 min-max layered cpu float32 4
cat "$table"
