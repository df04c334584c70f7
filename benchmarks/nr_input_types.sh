#!/usr/bin/env bash
# Soft-bit input types on the GPU, libraries side by side in one lease (the twelfth pass of
# docs/performance.md: the widening pass before and after): each library directory given runs
# int8 soft bits in on one BG1 R = 0.79 block, a slot of 152, 8192 blocks at R = 0.79 and 1/3
# and 4096 DVB-S2 normal 1/2 frames, float32 and float16 in at R = 1/3; two rounds. int8
# decoder, NMS, 10 iterations; kernel-only and with transfers. Run from the repository root on
# the GPU machine:
#   bash benchmarks/nr_input_types.sh BENCH LIBDIR [LIBDIR...]
# (BENCH: a gpufec-bench binary; each LIBDIR holds a libgpufec.so.0, which LD_LIBRARY_PATH picks)
B=$1
shift
I="--decoder nms --backend cuda --iterations 10 --precision int8"
R079=5gnr-bg1-z384:k=8448:e=10752:qm=2
. "$(dirname "${BASH_SOURCE[0]}")/bench_lib.sh"
KEEP="^coded|kernel-only coded|error"
bench_gpu
for round in 1 2; do
  for lib in "$@"; do
    bench_lib $lib --code $R079 $I --input int8 --frames 1 --repeat 41
    bench_lib $lib --code $R079 $I --input int8 --frames 152 --repeat 41
    bench_lib $lib --code $R079 $I --input int8 --frames 8192 --repeat 5
    bench_lib $lib --code 5gnr-bg1-z384 $I --input int8 --frames 8192 --repeat 5
    bench_lib $lib --code 5gnr-bg1-z384 $I --frames 8192 --repeat 5
    bench_lib $lib --code 5gnr-bg1-z384 $I --input float16 --frames 8192 --repeat 5
    bench_lib $lib --code dvbs2-normal-1_2 $I --input int8 --frames 4096 --repeat 3
  done
done
