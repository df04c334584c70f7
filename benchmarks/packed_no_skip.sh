#!/usr/bin/env bash
# The twenty-second and twenty-third passes of docs/performance.md: the packed QC kernel (int8,
# rows that are not whole layers: DVB-S2, CCSDS C2) with rows compiled without skip tests in the
# layers that skip no edge, and without frozen-frame merges. The speed cases, kernel-only and with
# transfers, for the library LD_LIBRARY_PATH finds or LIBDIR's; run once per library to compare (a
# lease carries one library). From the repository
# root on the GPU machine:
#   bash benchmarks/packed_no_skip.sh BENCH [LIBDIR]
# (BENCH: a gpufec-bench binary; LIBDIR: where its libgpufec.so.0 is)
set -u
. "$(dirname "${BASH_SOURCE[0]}")/bench_lib.sh"
bench_ab "$1"
lib=${2:-}
I="--decoder nms --backend cuda --iterations 10 --seed 7 --precision int8"
for r in 1 2; do
  bench_lib "$lib" --code dvbs2-normal-1_2 $I --frames 4096 --repeat 5 --ebn0 1.5
  bench_lib "$lib" --code dvbs2-normal-2_3 $I --frames 4096 --repeat 3 --ebn0 2.5
  bench_lib "$lib" --code dvbs2-normal-9_10 $I --frames 4096 --repeat 3
  bench_lib "$lib" --code dvbs2-short-1_2 $I --frames 16384 --repeat 3
  bench_lib "$lib" --code dvbs2-short-3_5 $I --frames 16384 --repeat 3
  bench_lib "$lib" --code dvbs2-short-8_9 $I --frames 16384 --repeat 3
  bench_lib "$lib" --code ccsds-c2 $I --frames 16384 --repeat 3
done
bench_lib "$lib" --code dvbs2-normal-1_2 $I --frames 6336 --repeat 3 --ebn0 1.5 --input int8
