#!/usr/bin/env bash
# The seventeenth pass of docs/performance.md: the packed QC kernel (int8, rows that are not whole
# layers) on DVB-S2 normal and short frames at every rate it changed, and CCSDS C2, for each
# library given; then, with the first library, four frames per word forced (--cuda-tuning 256)
# on DVB-S2 normal's long rows. Kernel-only and with transfers, with the device's ceilings. Run
# from the repository root on the GPU machine:
#   bash benchmarks/packed_seventeenth.sh BENCH LIBDIR [LIBDIR...]
# (BENCH: a gpufec-bench binary; each LIBDIR holds a libgpufec.so.0, which LD_LIBRARY_PATH picks)
set -u
. "$(dirname "${BASH_SOURCE[0]}")/bench_lib.sh"
bench_ab "$1"
shift
I="--decoder nms --backend cuda --precision int8 --iterations 10 --seed 7"
for lib in "$@"; do
  bench_lib "$lib" --code dvbs2-normal-1_2 $I --frames 4096 --repeat 3
  bench_lib "$lib" --code dvbs2-normal-1_2 $I --frames 6336 --repeat 3 --input int8
  for r in 1_4 3_5 2_3 3_4 4_5 5_6 8_9 9_10; do
    bench_lib "$lib" --code dvbs2-normal-$r $I --frames 3168 --repeat 2
  done
  for r in 1_2 3_5 2_3 8_9; do
    bench_lib "$lib" --code dvbs2-short-$r $I --frames 16384 --repeat 3
  done
  bench_lib "$lib" --code ccsds-c2 $I --frames 16384 --repeat 3
done
for r in 1_2 5_6 8_9 9_10; do
  bench_lib "$1" --code dvbs2-normal-$r $I --frames 3168 --repeat 2 --cuda-tuning 256
done
