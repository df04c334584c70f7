#!/usr/bin/env bash
# The twenty-fourth pass of docs/performance.md: 5G NR's many-group pair kernels with the base
# graph's entries compiled at Z = 384 (qc_nr_z384.cuh), against the same library reading them
# (cuda_tuning 16777216, NO_CONST_ENTRIES), in one lease. Run from the repository root on the
# GPU machine:
#   bash benchmarks/nr_z384_entries.sh BENCH [LIBDIR]
set -u
. "$(dirname "${BASH_SOURCE[0]}")/bench_lib.sh"
bench_ab "$1"
lib=${2:-}
R079=5gnr-bg1-z384:k=8448:e=10752:qm=2
for r in 1 2; do
  for t in 0 16777216; do
    for p in int8 float16; do
      I="--decoder nms --backend cuda --iterations 10 --seed 7 --precision $p --cuda-tuning $t"
      bench_lib "$lib" --code $R079 $I --frames 8192 --repeat 5
      bench_lib "$lib" --code 5gnr-bg2-z384:k=3840:e=9600:qm=4 $I --frames 8192 --repeat 5 --ebn0 1.4
    done
    I="--decoder nms --backend cuda --iterations 10 --seed 7 --precision int8 --cuda-tuning $t"
    bench_lib "$lib" --code 5gnr-bg1-z384 $I --frames 8192 --repeat 5 --ebn0 0.8
  done
done
