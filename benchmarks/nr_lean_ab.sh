#!/usr/bin/env bash
# The lean QC kernel (cuda/ldpc/qc_lean_kernel.cuh) against the generic one, same lease: a few
# frames (latency plan; cuda_tuning 8192 = the generic kernel) and many frames (default plan
# against cuda_tuning 16384 = the lean kernel, one frame per block). Kernel-only and with
# transfers. Run from the repository root on the GPU machine: bash benchmarks/nr_lean_ab.sh [BUILD]
build=${1:-build}
B=$build/apps/gpufec-bench
R079="--code 5gnr-bg1-z384:k=8448:e=10752:qm=2 --decoder nms --iterations 10 --backend cuda"
R13="--code 5gnr-bg1-z384 --decoder nms --iterations 10 --backend cuda"
BG2="--code 5gnr-bg2-z384:k=3840:e=4800:qm=2 --decoder nms --iterations 10 --backend cuda"
WIFI="--code wifi-1944-1_2 --decoder nms --iterations 10 --backend cuda"
DVB="--code dvbs2-normal-1_2 --decoder nms --iterations 10 --backend cuda"
. "$(dirname "${BASH_SOURCE[0]}")/bench_lib.sh"
KEEP="^coded|kernel-only coded|^variant|ran|rror"
for p in float32 float16 int8; do
  for t in 0 8192; do
    bench $R079 --frames 1 --repeat 41 --precision $p --cuda-tuning $t
    bench $R13 --frames 1 --repeat 21 --precision $p --cuda-tuning $t
  done
done
for t in 0 8192; do
  bench $R079 --frames 152 --repeat 41 --cuda-tuning $t
  bench $R079 --frames 132 --repeat 41 --precision int8 --cuda-tuning $t
  bench $BG2 --frames 1 --repeat 41 --cuda-tuning $t
  bench $WIFI --frames 1 --repeat 41 --cuda-tuning $t
done
for p in float32 int8; do
  for t in 0 16384; do
    bench $R079 --frames 8192 --precision $p --cuda-tuning $t
    bench $R13 --frames 8192 --precision $p --cuda-tuning $t
    bench $WIFI --frames 32768 --precision $p --cuda-tuning $t
  done
done
