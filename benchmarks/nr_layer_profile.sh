#!/usr/bin/env bash
# Edge pairs at int8 compiled per layer for a 5G NR base graph (qc_layer_profile.cuh; the default
# where it fits) against the loop over layers (cuda_tuning 4194304, NO_LAYER_PROFILE), one block,
# BG1 at 8, 20, 32 and 46 layers (the last above the profiles' 256 edges: the loop both ways) and
# BG2 at 17 and 42, two rounds. Kernel-only, NMS, 10 iterations. Run from the repository root on
# the GPU machine: bash benchmarks/nr_layer_profile.sh [BUILD]
build=${1:-build}
B=$build/apps/gpufec-bench
X="--decoder nms --backend cuda --iterations 10 --frames 1 --repeat 41 --precision int8"
. "$(dirname "${BASH_SOURCE[0]}")/bench_lib.sh"
KEEP="kernel-only coded|error"
bench_gpu
for round in 1 2; do
  for c in 5gnr-bg1-z384:k=8448:e=10752:qm=2 5gnr-bg1-z384:k=8448:e=15360:qm=2 5gnr-bg1-z384:k=8448:e=19968:qm=2 \
           5gnr-bg1-z384 5gnr-bg2-z384:k=3840:e=9600:qm=4 5gnr-bg2-z384; do
    bench --code $c $X
    bench --code $c $X --cuda-tuning 4194304
  done
done
