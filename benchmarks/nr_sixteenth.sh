#!/usr/bin/env bash
# The sixteenth pass of docs/performance.md: the settled check under early stopping (one block,
# the slot of 152, 8192 BG1 R = 1/3 blocks) and DVB-S2 normal 1/2 at the default chunk size and
# at fixed ones (max_batch), for each library given, two rounds; kernel-only and with transfers,
# with the device's ceilings. Run from the repository root on the GPU machine:
#   bash benchmarks/nr_sixteenth.sh BENCH LIBDIR [LIBDIR...]
# (BENCH: a gpufec-bench binary; each LIBDIR holds a libgpufec.so.0, which LD_LIBRARY_PATH picks)
set -u
. "$(dirname "${BASH_SOURCE[0]}")/bench_lib.sh"
bench_ab "$1"
shift
R079=5gnr-bg1-z384:k=8448:e=10752:qm=2
R13=5gnr-bg1-z384
I="--decoder nms --backend cuda --precision int8 --iterations 10 --seed 7"
for round in 1 2; do
  for lib in "$@"; do
    bench_lib "$lib" --code $R079 $I --frames 1 --repeat 300 --early-stop --ebn0 2.0
    bench_lib "$lib" --code $R079 $I --frames 152 --repeat 200 --early-stop --ebn0 3.4
    bench_lib "$lib" --code $R079 $I --frames 152 --repeat 200 --early-stop --ebn0 2.0
    bench_lib "$lib" --code $R079 $I --frames 152 --repeat 200
    bench_lib "$lib" --code $R13 $I --frames 8192 --repeat 3 --early-stop --ebn0 0.8
    bench_lib "$lib" --code $R13 $I --frames 8192 --repeat 3
    bench_lib "$lib" --code dvbs2-normal-1_2 $I --frames 4096 --repeat 3
    bench_lib "$lib" --code dvbs2-normal-1_2 $I --frames 6336 --repeat 3 --input int8
  done
done
for mb in 1584 3168 6336; do
  bench_lib "$1" --code dvbs2-normal-1_2 $I --frames 6336 --repeat 3 --param max_batch=$mb
done
