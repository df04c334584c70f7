#!/usr/bin/env bash
# The twentieth pass of docs/performance.md: the int8 and float16 pair kernel's and the float32 lean kernel's
# rows compiled layer by layer for a 5G NR base graph, against the loop (cuda_tuning 4194304,
# NO_LAYER_PROFILE), in one library. Run from the repository root on the GPU machine:
#   bash benchmarks/layer_profile_rows.sh BENCH [LIBDIR]
# (BENCH: a gpufec-bench binary; LIBDIR: where its libgpufec.so.0 is, if not on the library path)
set -u
. "$(dirname "${BASH_SOURCE[0]}")/bench_lib.sh"
bench_ab "$1"
lib=${2:-}
R079=5gnr-bg1-z384:k=8448:e=10752:qm=2
I="--decoder nms --backend cuda --iterations 10 --seed 7"
for r in 1 2; do
  for p in int8 float16 float32; do
    for t in 0 4194304; do
      bench_lib "$lib" --code $R079 $I --precision $p --frames 8192 --repeat 5 --cuda-tuning $t
      bench_lib "$lib" --code 5gnr-bg1-z384 $I --precision $p --frames 8192 --repeat 5 --ebn0 0.8 --cuda-tuning $t
      bench_lib "$lib" --code 5gnr-bg2-z384 $I --precision $p --frames 8192 --repeat 5 --ebn0 0.8 --cuda-tuning $t
      bench_lib "$lib" --code 5gnr-bg2-z384:k=3840:e=9600:qm=4 $I --precision $p --frames 8192 --repeat 5 --ebn0 1.4 \
        --cuda-tuning $t
      bench_lib "$lib" --code $R079 $I --precision $p --frames 152 --repeat 200 --cuda-tuning $t
      bench_lib "$lib" --code $R079 $I --precision $p --frames 152 --repeat 200 --early-stop --ebn0 3.4 --cuda-tuning $t
      bench_lib "$lib" --code $R079 $I --precision $p --frames 1 --repeat 50 --cuda-tuning $t
      bench_lib "$lib" --code 5gnr-bg1-z384 $I --precision $p --frames 1 --repeat 50 --ebn0 0.8 --cuda-tuning $t
    done
  done
done
