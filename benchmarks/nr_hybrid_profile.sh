#!/usr/bin/env bash
# One 5G NR block at int8 with edge pairs, libraries side by side in one lease: each library
# directory given (e.g. main before and after a change to the layer profiles) runs BG1 at 8, 32
# and 46 layers (the last: its first layer_profile_straight() layers straight, the rest in the
# loop) and BG2 at 17 and 42, three rounds; then a slot of 152 R = 0.79 blocks, 8192 R = 1/3
# blocks and 4096 DVB-S2 normal 1/2 frames with the first two. Kernel-only, NMS, 10 iterations.
# Run from the repository root on the GPU machine:
#   bash benchmarks/nr_hybrid_profile.sh BENCH LIBDIR [LIBDIR...]
# (BENCH: a gpufec-bench binary; each LIBDIR holds a libgpufec.so.0, which LD_LIBRARY_PATH picks)
B=$1
shift
X="--decoder nms --backend cuda --iterations 10 --precision int8"
. "$(dirname "${BASH_SOURCE[0]}")/bench_lib.sh"
KEEP="kernel-only coded|error"
bench_gpu
for round in 1 2 3; do
  for c in 5gnr-bg1-z384:k=8448:e=10752:qm=2 5gnr-bg1-z384:k=8448:e=19968:qm=2 5gnr-bg1-z384 \
           5gnr-bg2-z384:k=3840:e=9600:qm=4 5gnr-bg2-z384; do
    for lib in "$@"; do bench_lib $lib --code $c $X --frames 1 --repeat 41; done
  done
done
for lib in "${@:1:2}"; do
  bench_lib $lib --code 5gnr-bg1-z384:k=8448:e=10752:qm=2 $X --frames 152 --repeat 21
  bench_lib $lib --code 5gnr-bg1-z384 $X --frames 8192 --repeat 5
  bench_lib $lib --code dvbs2-normal-1_2 $X --frames 4096 --repeat 3
done
