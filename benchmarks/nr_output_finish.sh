#!/usr/bin/env bash
# Packed output and the CRC checked on the GPU (docs/performance.md, thirteenth pass): a slot of
# 152 and 8448 BG1 R = 0.79 blocks, int8 soft bits in, with transfers, for each library given.
# Usage: bash benchmarks/nr_output_finish.sh BENCH LIBDIR... (a LIBDIR holds libgpufec.so.0;
# libraries before the packed outputs run the unpacked lines only).
set -u
B=$1; shift
. "$(dirname "${BASH_SOURCE[0]}")/bench_lib.sh"
I="--decoder nms --backend cuda --iterations 10 --precision int8 --input int8"
R=5gnr-bg1-z384:k=8448:e=10752:qm=2
KEEP="coded|rror"
for round in 1 2; do
  for lib in "$@"; do
    for code in $R $R:crc=24b; do
      for out in info info-packed; do
        bench_lib "$lib" --code $code $I --frames 152 --repeat 200 --param output=$out
        bench_lib "$lib" --code $code $I --frames 8448 --repeat 5 --param output=$out
      done
    done
  done
done
