#!/usr/bin/env bash
# The nineteenth pass of docs/performance.md: the row state fetched into L2 two layers ahead (the
# pair kernel at float16, the lean kernel at float32), 5G NR and Wi-Fi in bulk at each precision
# for each library given (A/B in one lease). Run from the repository root on the GPU machine:
#   bash benchmarks/pair_prefetch.sh BENCH LIBDIR [LIBDIR...]
# (BENCH: a gpufec-bench binary; each LIBDIR holds a libgpufec.so.0)
set -u
. "$(dirname "${BASH_SOURCE[0]}")/bench_lib.sh"
bench_ab "$1"
shift
I="--decoder nms --backend cuda --iterations 10 --seed 7 --frames 8192 --repeat 5"
for r in 1 2; do
  for lib in "$@"; do
    bench_lib "$lib" --code 5gnr-bg1-z384 $I --precision int8 --ebn0 0.8
    bench_lib "$lib" --code 5gnr-bg1-z384 $I --precision float16 --ebn0 0.8
    bench_lib "$lib" --code 5gnr-bg2-z384 $I --precision int8 --ebn0 0.8
    bench_lib "$lib" --code 5gnr-bg2-z384 $I --precision float16 --ebn0 0.8
    bench_lib "$lib" --code 5gnr-bg1-z384:k=8448:e=10752:qm=2 $I --precision int8
    bench_lib "$lib" --code 5gnr-bg1-z384 $I --precision float32 --ebn0 0.8
    bench_lib "$lib" --code 5gnr-bg2-z384 $I --precision float32 --ebn0 0.8
    bench_lib "$lib" --code 5gnr-bg1-z384:k=8448:e=10752:qm=2 $I --precision float32
    bench_lib "$lib" --code wifi-1944-1_2 --decoder nms --backend cuda --iterations 10 --seed 7 --frames 32768 \
      --repeat 3 --precision float32
  done
done
