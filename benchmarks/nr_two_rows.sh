#!/usr/bin/env bash
# Edge pairs with orthogonal layers two rows per thread (ep_two, int8) against one layer per
# step (cuda_tuning 2097152, NO_LAYER_MERGE), and optionally against another build's library
# with the same bench binary (OLD_LIB: a directory holding its libgpufec.so.0), two rounds.
# Kernel-only, NMS, 10 iterations. Run from the repository root on the GPU machine:
#   bash benchmarks/nr_two_rows.sh [BUILD]        OLD_LIB=/path bash benchmarks/nr_two_rows.sh
build=${1:-build}
B=$build/apps/gpufec-bench
NEW=$build/lib
R079="--code 5gnr-bg1-z384:k=8448:e=10752:qm=2 --decoder nms --backend cuda --iterations 10"
R13="--code 5gnr-bg1-z384 --decoder nms --backend cuda --iterations 10"
B2="--code 5gnr-bg2-z384 --decoder nms --backend cuda --iterations 10"
. "$(dirname "${BASH_SOURCE[0]}")/bench_lib.sh"
KEEP="kernel-only coded|error"
bench_gpu
for round in 1 2; do
  for lib in ${OLD_LIB:+$OLD_LIB} $NEW; do
    for p in int8 float16; do
      bench_lib $lib $R13 --frames 1 --repeat 41 --precision $p
      bench_lib $lib $B2 --frames 1 --repeat 41 --precision $p
    done
    bench_lib $lib $R079 --frames 1 --repeat 41 --precision int8
    bench_lib $lib $R13 --frames 8192 --repeat 5 --precision int8
  done
  bench_lib $NEW $R13 --frames 1 --repeat 41 --precision int8 --cuda-tuning 2097152
  bench_lib $NEW $B2 --frames 1 --repeat 41 --precision int8 --cuda-tuning 2097152
done
