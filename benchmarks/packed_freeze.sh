#!/usr/bin/env bash
# The twenty-third pass of docs/performance.md, lease 5: frozen frames' output bits stored when
# they freeze. The cases where frames freeze (DVB-S2 normal 1/2 and a 5G NR slot under early
# stopping) and the 5G NR cases of the pair kernel (one block, a slot, 8192 blocks), kernel-only
# and with transfers, for the library LD_LIBRARY_PATH finds or LIBDIR's; run once per library to
# compare (a lease carries one library). From the repository root on the GPU machine:
#   bash benchmarks/packed_freeze.sh BENCH [LIBDIR]
# (BENCH: a gpufec-bench binary; LIBDIR: where its libgpufec.so.0 is)
set -u
. "$(dirname "${BASH_SOURCE[0]}")/bench_lib.sh"
bench_ab "$1"
lib=${2:-}
R079="--code 5gnr-bg1-z384:k=8448:e=10752:qm=2 --decoder nms --iterations 10 --backend cuda"
R13="--code 5gnr-bg1-z384 --decoder nms --iterations 10 --backend cuda"
for r in 1 2; do
  bench_lib "$lib" $R079 --frames 1 --repeat 41 --precision int8
  bench_lib "$lib" $R13 --frames 1 --repeat 21 --precision int8
  bench_lib "$lib" $R079 --frames 152 --repeat 41 --precision int8
  bench_lib "$lib" $R079 --frames 152 --repeat 41 --precision int8 --early-stop --ebn0 3.4 --seed 1
  bench_lib "$lib" $R079 --frames 8192 --precision int8
  bench_lib "$lib" $R13 --frames 8192 --precision int8
  bench_lib "$lib" $R079 --frames 8192 --precision float16
  bench_lib "$lib" --code dvbs2-normal-1_2 --decoder nms --backend cuda --iterations 10 --seed 7 --precision int8 \
    --frames 4096 --repeat 3 --ebn0 2.2 --early-stop
done
