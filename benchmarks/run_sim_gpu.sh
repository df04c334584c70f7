#!/usr/bin/env bash
# Issue 22's GPU-chain measurements, on the GPU machine against a build tree (default ./build):
# (1) the GPU chain gives the CPU's statistics (same counters, same arithmetic, decoders that
# decide alike) with the all-zero codeword, with random codewords made and encoded on the GPU,
# and with random codewords encoded on the host (--host-encoder); (2) simulated rate against the
# decoder's own rate (gpufec-bench, kernel-only and with transfers) for the same code and
# options, in one run.
# Usage: bash benchmarks/run_sim_gpu.sh [BUILD_DIR]; writes $OUT/sim_gpu.md (or ./bench-out).
set -uo pipefail
top=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
build=${1:-$top/build}
out=${OUT_DIR:-${OUT:-$top/bench-out}}
mkdir -p "$out"
sim="$build/apps/gpufec-sim"
bench="$build/apps/gpufec-bench"
md="$out/sim_gpu.md"
gpu=$(nvidia-smi --query-gpu=name --format=csv,noheader 2>/dev/null | head -1)
echo "GPU: $gpu, host: $(lscpu | sed -n 's/^Model name: *//p' | head -1), $(nproc) threads; date $(date -u +%F)" > "$md"
counts() { python3 -c "import json,sys; print([(p['frames'],p['frame_errors'],p['bit_errors'],p['iterations']) for p in json.load(open(sys.argv[1]))['points']])" "$1"; }
echo >> "$md"; echo "## CPU = GPU (all-zero codeword; random codewords encoded on the GPU; on the host)" >> "$md"
[ -n "${SKIP_EQ:-}" ] && echo "(skipped: SKIP_EQ set)" >> "$md"
while [ -z "${SKIP_EQ:-}" ] && read -r code dec extra range; do
  [ -z "$code" ] && continue
  for chain in --all-zero "" --host-encoder; do
    args=(--code "$code" --decoder "$dec" --iterations 10 --min-frame-errors 40 --max-frames 20000 --no-progress --seed 3 $extra $chain)
    "$sim" "${args[@]}" $range --backend cpu --threads 4 --json "$out/eq_cpu.json" > /dev/null 2> "$out/eq_err.txt" || { echo "- $code $dec $extra ${chain:-random}: CPU run refused or failed: $(tail -1 "$out/eq_err.txt")" >> "$md"; continue; }
    "$sim" "${args[@]}" $range --backend cuda --json "$out/eq_gpu.json" > "$out/eq_gpu.txt" 2> "$out/eq_err.txt" || { echo "- $code $dec $extra ${chain:-random}: GPU run failed: $(tail -1 "$out/eq_err.txt")" >> "$md"; continue; }
    a=$(counts "$out/eq_cpu.json"); b=$(counts "$out/eq_gpu.json")
    [ "$a" = "$b" ] && r=identical || r="DIFFER: cpu $a gpu $b"
    echo "- $code $dec $extra $range ${chain:-random codewords}: $r $a ($(grep -m1 '^# chain' "$out/eq_gpu.txt" | cut -c3-))" >> "$md"
  done
done <<'LIST'
wifi-648-1_2 nms --schedule=layered --ebn0=1.5:2.5:0.5
dvbs2-short-1_2 nms --schedule=layered --ebn0=0.8:1.2:0.2
mackay-1008-504 spa --schedule=flooding --ebn0=1.5:2.5:0.5
wifi-1944-1_2 nms --modulation=16qam --ebn0=4:5:0.5
wifi-1944-1_2 nms --precision=int8 --ebn0=1.5:2.5:0.5
regular-4-8-1296 gallager-b --channel=bsc --p=0.02:0.04:0.01
lte-turbo-1024 maxlogmap --param=arithmetic=float --ebn0=0.5:1:0.5
nb-gf16-504 min-max --schedule=layered --ebn0=1.5:2:0.5
LIST
[ -n "${SKIP_RATES:-}" ] && { cat "$md"; exit 0; }
echo >> "$md"; echo "## Simulated rate against the decoder's (information bits; early stop on)" >> "$md"
echo "| code | decoder | Eb/N0 | chain | simulated Mb/s | decoder-in-sim Mb/s | gpufec-bench Mb/s with transfers | gpufec-bench kernel-only Mb/s | simulated / kernel-only | frames | FER |" >> "$md"
echo "|---|---|---:|---|---:|---:|---:|---:|---:|---:|---:|" >> "$md"
row() { # code decoder ebn0 iterations "decoder flags" "chain flag" [threads]
  local code=$1 dec=$2 ebn0=$3 it=$4 flags=$5 chain=$6 threads=${7:-2}
  [[ -n "${ONLY:-}" && ! "$code ${chain:-random}" =~ $ONLY ]] && return  # ONLY: a regex of rows to run
  "$sim" --code "$code" --decoder "$dec" --iterations "$it" $flags --ebn0 "$ebn0:$ebn0:1" --min-frame-errors ${MIN_FE:-300} \
         --max-frames 3000000 --max-time-per-point 20 --backend cuda --threads "$threads" --no-progress $chain --json "$out/s.json" \
         > "$out/s.txt" 2>&1 || { echo "| $code | $dec $flags | $ebn0 | $chain | FAILED: $(tail -1 "$out/s.txt") |" >> "$md"; return; }
  "$bench" --code "$code" --decoder "$dec" --iterations "$it" $flags --ebn0 "$ebn0" --early-stop --frames 8192 --repeat 5 \
           --backend cuda --json "$out/b.json" > "$out/b.txt" 2>&1 || echo "bench failed: $(tail -1 "$out/b.txt")" >> "$md"
  python3 - "$out/s.json" "$out/b.json" "$code" "$dec $it it $flags" "$ebn0" "${chain:-random codewords, $threads threads}" >> "$md" <<'PY'
import json, sys
s = json.load(open(sys.argv[1]))["points"][0]
try:
    b = json.load(open(sys.argv[2]))
    bt, bk = b["info_gbps"] * 1000, b["kernel_coded_gbps"] * b["k"] / b["n"] * 1000
except Exception:
    bt = bk = float("nan")
print(f"| {sys.argv[3]} | {sys.argv[4]} | {sys.argv[5]} | {sys.argv[6]} | {s['simulated_mbps']:.0f} | {s['decoder_mbps']:.0f} | "
      f"{bt:.0f} | {bk:.0f} | {100 * s['simulated_mbps'] / bk:.0f}% | {s['frames']} | {s['fer']:.2e} |")
PY
}
row dvbs2-normal-1_2 nms 2.7 10 "--precision float32" --all-zero
row 5gnr-bg1-z384 nms 1.4 10 "--precision float32" --all-zero
row lte-turbo-6144 maxlogmap 0.8 6 "--param arithmetic=float --param subblocks=64" --all-zero
row nb-gf64-5040 fft-bp 2.1 10 "" --all-zero
row dvbs2-normal-1_2 nms 2.7 10 "--precision int8" "" 2
row 5gnr-bg1-z384 nms 1.6 10 "--precision int8" "" 2
row dvbs2-normal-1_2 nms 2.7 10 "--precision float32" "" 2
row wifi-1944-1_2 nms 2.4 10 "--precision int8" "" 2
row lte-turbo-6144 maxlogmap 0.8 6 "--param arithmetic=float --param subblocks=64" "" 2
row nb-gf64-5040 fft-bp 2.1 10 "" "" 2
row mackay-8000-4000 nms 2.0 10 "--precision float32" "" 2
row dvbs2-normal-1_2 nms 2.7 10 "--precision int8 --batch 1024" --host-encoder 16
cp "$out/b.json" "$out/bench_last.json" 2>/dev/null
cat "$md"
