#!/usr/bin/env bash
# The pair and lean rows' straight window (ROW_PROFILE_MAX_EDGES, qc_layer_profile.cuh) A/B:
# each library (a directory holding a libgpufec.so.0 built with its own window) with the same
# bench binary, interleaved, two rounds. Kernel-only, NMS, 10 iterations, --seed 7; the cases
# of docs/performance.md's thirty-fourth pass (data/row_window.md). Run on the GPU machine:
#   bash benchmarks/row_window.sh BUILD/apps/gpufec-bench LIBDIR_A LIBDIR_B [...]
set -u
[ $# -ge 2 ] || { echo "usage: $0 BENCH LIBDIR..." >&2; exit 2; }
. "$(dirname "${BASH_SOURCE[0]}")/bench_lib.sh"
bench_ab "$1"
shift
R13="--code 5gnr-bg1-z384"; R079="--code 5gnr-bg1-z384:k=8448:e=10752:qm=2"; BG2="--code 5gnr-bg2-z384"
R12="--code 5gnr-bg1-z384:k=8448:e=16896:qm=2"; R23="--code 5gnr-bg1-z384:k=8448:e=12672:qm=2"
C="--decoder nms --backend cuda --iterations 10 --seed 7"
for round in 1 2; do
  for L in "$@"; do
    for p in int8p16 int8 float16 float32; do
      bench_lib $L $R13 $C --precision $p --frames 8192
      bench_lib $L $BG2 $C --precision $p --frames 8192
    done
    bench_lib $L $R12 $C --precision int8p16 --frames 8192
    bench_lib $L $R23 $C --precision int8p16 --frames 8192
    bench_lib $L $R079 $C --precision int8p16 --frames 8192
    bench_lib $L $R13 $C --precision int8p16 --frames 152
    bench_lib $L $R13 $C --precision float32 --frames 1 --repeat 21
  done
done
