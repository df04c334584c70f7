#!/bin/bash
# A call of more 5G NR blocks than SMs and fewer than two per SM, with transfers: split in two
# chunks (default: the first in groups of two frames, the rest one per block beside them,
# qc_head_frames) against one chunk (cuda_tuning 268435456, NO_SPLIT), the two interleaved over
# three rounds; gpufec-bench's batch latency (median call of 41) and its kernel-only figure
# (which never splits: a timed call stays one chunk). docs/performance.md, fortieth pass. Run on
# the GPU machine with the library on LD_LIBRARY_PATH:
#   bash benchmarks/slot_split_ab.sh build/apps/gpufec-bench
set -u
B=${1:?usage: $0 BENCH}
C="--decoder nms --backend cuda --iterations 10 --seed 7 --precision int8p16 --repeat 41"
R079=5gnr-bg1-z384:k=8448:e=10752:qm=2
CASES=("$R079 152 int8 info-packed" "$R079 152 int8 info" "$R079 152 float32 info-packed"
       "$R079 133 int8 info-packed" "$R079 200 int8 info-packed" "$R079 264 int8 info-packed"
       "5gnr-bg2-z384:k=3840:e=4800:qm=2 152 int8 info-packed" "5gnr-bg1-z384:k=8448:e=15360:qm=2 152 int8 info-packed")
T=$(mktemp)
for round in 1 2 3; do
  for cs in "${CASES[@]}"; do
    read -r code f inp out <<< "$cs"
    for t in 0 268435456; do
      "$B" --code "$code" $C --frames "$f" --input "$inp" --cuda-tuning $t --param output=$out > "$T" 2>&1
      echo "$code x$f $inp $out t$t :: $(grep -o 'batch latency [0-9.]* ms' "$T") :: $(grep -o 'kernel-only spread.*' "$T" | cut -c1-60)"
    done
  done
done
rm -f "$T"
