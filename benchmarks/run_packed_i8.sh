#!/usr/bin/env bash
# int8 QC layered on the GPU (issue 12): two frames per word in half2 (--cuda-tuning 512,
# GPUFEC_CUDA_PACKED_HALF2), four per word in bytes (--cuda-tuning 256, GPUFEC_CUDA_PACKED_BYTES;
# the default picks half2 for rows up to 16 edges, else bytes) and one frame per thread
# (--cuda-tuning 128, GPUFEC_CUDA_NO_PACKED_I8), NMS-10 (norm 0.75), early stop off, on
# the codes issue 12 names; then an early-stopped operating point. Runs on the GPU machine.
# Usage: bash benchmarks/run_h2_i8.sh [BENCH_BINARY_DIR]   (gpufec-bench there or in apps/)
# Writes $OUT/packed_i8_table.md (or ./bench-out) and the ceilings line of the first run.
set -uo pipefail
dir=${1:-build}
bench="$dir/gpufec-bench"
[ -x "$bench" ] || bench="$dir/apps/gpufec-bench"
out=${OUT_DIR:-${OUT:-bench-out}}
mkdir -p "$out"
table="$out/packed_i8_table.md"
{
  echo "GPU: $(nvidia-smi --query-gpu=name --format=csv,noheader 2>/dev/null | head -1); $(date -u +%F); int8 storage,"
  echo "layered NMS-10 unless stated; \"with transfers\" = pinned buffers, H2D + kernels + D2H, two streams."
  echo
  echo "| code | kernel | input | early stop | frames | coded Gb/s with transfers | kernel-only coded Gb/s | per frame (us) | mean it |"
  echo "|---|---|---|---|---:|---:|---:|---:|---:|"
} > "$table"
row() { # id code kernel(h2|b4|one) input frames extra...
  local id=$1 code=$2 kern=$3 input=$4 frames=$5
  shift 5
  local tune=512
  [ "$kern" = one ] && tune=128
  [ "$kern" = b4 ] && tune=256
  "$bench" --code "$code" --decoder nms --iterations 10 --backend cuda --precision int8 --input "$input" \
    --frames "$frames" --cuda-tuning $tune --json "$out/$id.json" "$@" > "$out/$id.txt" 2>&1 ||
    { echo "| $code | $kern | $input | | $frames | FAILED: $(tail -1 "$out/$id.txt") | | | |" >> "$table"; return; }
  python3 - "$out/$id.json" "$code" "$kern" "$input" "$*" >> "$table" <<'PY'
import json, sys
j = json.load(open(sys.argv[1]))
early = "on" if "--early-stop" in sys.argv[5] else "off"
k = j['kernel_coded_gbps']
names = {'h2': '2 frames/word (half2)', 'b4': '4 frames/word (bytes)', 'one': '1 frame/thread'}
print(f"| {sys.argv[2]} | {names[sys.argv[3]]} | {sys.argv[4]} | {early} | "
      f"{j['frames']} | {j['coded_gbps']:.2f} | {k:.2f} | {j['frame_latency_us']:.1f} | {j['mean_iterations']:.2f} |")
PY
}
for kern in h2 b4 one; do
  row "dvbs2n_$kern" dvbs2-normal-1_2 $kern float32 4096
  row "nr384_$kern" 5gnr-bg1-z384 $kern float32 8192
  row "wifi1944_$kern" wifi-1944-1_2 $kern float32 16384
  row "dvbs2s34_$kern" dvbs2-short-3_4 $kern float32 16384
done
row dvbs2n_h2_in8 dvbs2-normal-1_2 h2 int8 4096
row nr384_h2_in8 5gnr-bg1-z384 h2 int8 8192
row nr384_h2_single 5gnr-bg1-z384 h2 float32 1 --repeat 21
row nr384_one_single 5gnr-bg1-z384 one float32 1 --repeat 21
# Operating points: early stop (syndrome every iteration), int8 input, near the SNR where the
# int8 decoder's FER is 1e-3 (benchmarks/int8_fer.sh: DVB-S2 normal 1/2 1.9e-3 at 2.7 dB; 5G NR
# BG1 Z=384 1.2e-2 at 1.4 dB and 2e-5 at 1.6 dB).
row dvbs2n_h2_es dvbs2-normal-1_2 h2 int8 4096 --early-stop --ebn0 2.7
row nr384_b4_es 5gnr-bg1-z384 b4 int8 8192 --early-stop --ebn0 1.5
cat "$table"
grep -h "ceilings" "$out"/dvbs2n_h2.txt | head -1
