#!/bin/bash
# A synchronous decode call with transfers, as a receiver makes it: one 5G NR BG1 R = 0.79 block
# and a slot of 152, float32 and int8 soft bits in, the builds given interleaved over three rounds
# (docs/performance.md, thirty-sixth pass). Each argument is BENCH:LIBDIR, a gpufec-bench and the
# folder of the libgpufec.so.0 it runs with (a bench binary goes with the library it was built
# against: the options struct is shared). Prints each run's median call.
#   bash benchmarks/call_overhead.sh build/apps/gpufec-bench:build/lib
set -u
BUILDS="$*"
C="--code 5gnr-bg1-z384:k=8448:e=10752:qm=2 --decoder nms --backend cuda --iterations 10 --seed 7 --precision int8p16"
for round in 1 2 3; do
  for cf in "1 float32 201" "1 int8 201" "152 int8 101" "152 float32 101"; do
    set -- $cf
    for bl in $BUILDS; do
      b=${bl%%:*} lib=${bl#*:}
      LD_LIBRARY_PATH=$lib $b $C --frames $1 --input $2 --repeat $3 |
        awk -v l="$lib x$1 $2" '/^coded/{printf "%s :: call %s ms, per frame %s us\n", l, $11, $16}'
    done
  done
done
