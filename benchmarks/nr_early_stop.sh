#!/usr/bin/env bash
# The syndrome check with early stopping (docs/performance.md, fourteenth pass): 5G NR BG1 and
# DVB-S2 at int8 with and without early stop, the same frames in every run (--seed), for each
# library given, two rounds. Usage: bash benchmarks/nr_early_stop.sh BENCH LIBDIR... (a LIBDIR
# holds libgpufec.so.0; the bench must know --seed).
set -u
B=$1; shift
. "$(dirname "${BASH_SOURCE[0]}")/bench_lib.sh"
R079=5gnr-bg1-z384:k=8448:e=10752:qm=2
R13=5gnr-bg1-z384
I="--decoder nms --backend cuda --precision int8 --iterations 10 --seed 7"
KEEP="^coded|kernel-only|rror"
for round in 1 2; do
  for lib in "$@"; do
    bench_lib "$lib" --code $R079 $I --frames 1 --repeat 300
    bench_lib "$lib" --code $R079 $I --frames 1 --repeat 300 --early-stop --ebn0 3.4
    bench_lib "$lib" --code $R079 $I --frames 1 --repeat 300 --early-stop --ebn0 2.0
    bench_lib "$lib" --code $R079 --decoder nms --backend cuda --iterations 10 --seed 7 --frames 1 --repeat 300 --early-stop --ebn0 3.4
    bench_lib "$lib" --code $R079 $I --frames 152 --repeat 200
    bench_lib "$lib" --code $R079 $I --frames 152 --repeat 200 --early-stop --ebn0 3.4
    bench_lib "$lib" --code $R079 $I --frames 8192 --repeat 5
    bench_lib "$lib" --code $R079 $I --frames 8192 --repeat 5 --early-stop --ebn0 3.4
    bench_lib "$lib" --code $R13 $I --frames 1 --repeat 100 --early-stop --ebn0 1.4
    bench_lib "$lib" --code $R13 $I --frames 1 --repeat 100 --early-stop --ebn0 0.8
    bench_lib "$lib" --code $R13 $I --frames 8192 --repeat 3
    bench_lib "$lib" --code $R13 $I --frames 8192 --repeat 3 --early-stop --ebn0 1.4
    bench_lib "$lib" --code dvbs2-normal-1_2 $I --frames 4096 --repeat 3 --early-stop --ebn0 1.3
  done
done
