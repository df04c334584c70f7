#!/usr/bin/env bash
# The twenty-first pass of docs/performance.md: the int8 rule whose posterior saturates once
# (ldpc_i8_sat). The speed cases, for the library LD_LIBRARY_PATH finds or LIBDIR's; run once per
# library to compare (a lease carries one library). Run from the repository root on the GPU machine:
#   bash benchmarks/int8_saturate_once.sh BENCH [LIBDIR]
# (BENCH: a gpufec-bench binary; LIBDIR: where its libgpufec.so.0 is). The error rates with the
# same frames as before: bash benchmarks/int8_strong_signal.sh fer SIM
set -u
. "$(dirname "${BASH_SOURCE[0]}")/bench_lib.sh"
bench_ab "$1"
lib=${2:-}
I="--decoder nms --backend cuda --iterations 10 --seed 7 --precision int8"
R079=5gnr-bg1-z384:k=8448:e=10752:qm=2
for r in 1 2; do
  bench_lib "$lib" --code $R079 $I --frames 8192 --repeat 5
  bench_lib "$lib" --code 5gnr-bg1-z384 $I --frames 8192 --repeat 5 --ebn0 0.8
  bench_lib "$lib" --code 5gnr-bg2-z384 $I --frames 8192 --repeat 5 --ebn0 0.8
  bench_lib "$lib" --code 5gnr-bg2-z384:k=3840:e=9600:qm=4 $I --frames 8192 --repeat 5 --ebn0 1.4
  bench_lib "$lib" --code $R079 $I --frames 152 --repeat 200
  bench_lib "$lib" --code $R079 $I --frames 152 --repeat 200 --early-stop --ebn0 3.4
  bench_lib "$lib" --code $R079 $I --frames 1 --repeat 200
  bench_lib "$lib" --code 5gnr-bg1-z384 $I --frames 1 --repeat 50 --ebn0 0.8
  bench_lib "$lib" --code dvbs2-normal-1_2 $I --frames 4096 --repeat 5 --ebn0 1.5
  bench_lib "$lib" --code dvbs2-short-1_2 $I --frames 16384 --repeat 3
  bench_lib "$lib" --code dvbs2-short-8_9 $I --frames 16384 --repeat 3
  bench_lib "$lib" --code dvbs2-normal-9_10 $I --frames 4096 --repeat 3
  bench_lib "$lib" --code ccsds-c2 $I --frames 16384 --repeat 3
  bench_lib "$lib" --code wifi-1944-1_2 $I --frames 8192 --repeat 3
done
