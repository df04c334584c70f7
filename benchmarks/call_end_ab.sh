#!/bin/bash
# Packed output: the decoding kernel writes the packed bytes, and checks the code's CRC in the
# `:crc=24b` cases (forty-second pass), where the plan says so for the chunk (default; the QC
# plan: all but one group per SM, qc_writes_packed), against the engine's finishing kernel after
# every kernel (cuda_tuning 536870912, PACK_AFTER, the library's behaviour before the forty-first
# pass), interleaved over four rounds: gpufec-bench's batch latency (median call of 101,
# transfers included), its kernel-only spread and its coded throughput. 268435456 (NO_SPLIT)
# keeps the slot in one chunk. docs/performance.md, forty-first and forty-second passes. Run on
# the GPU machine with the library on LD_LIBRARY_PATH:
#   bash benchmarks/call_end_ab.sh build/apps/gpufec-bench
set -u
B=${1:?usage: $0 BENCH}
C="--decoder nms --backend cuda --iterations 10 --seed 7 --precision int8p16 --repeat 101"
R079=5gnr-bg1-z384:k=8448:e=10752:qm=2
CASES=("$R079 152 0" "$R079 152 268435456" "$R079 133 0" "5gnr-bg2-z384:k=3840:e=4800:qm=2 152 0"
       "$R079 1 0" "$R079 112 0" "$R079 8192 0" "dvbs2-normal-1_2 1024 0"
       "$R079:crc=24b 152 0" "$R079:crc=24b 1 0" "$R079:crc=24b 112 0")
T=$(mktemp)
for round in 1 2 3 4; do
  for cs in "${CASES[@]}"; do
    read -r code f extra <<< "$cs"
    for t in 0 536870912; do
      "$B" --code "$code" $C --frames "$f" --input int8 --cuda-tuning $((t + extra)) --param output=info-packed > "$T" 2>&1
      echo "$code x$f t$((t + extra)) :: $(grep -o 'coded [0-9.]* Gb/s | info' "$T" | head -1) :: $(grep -o 'batch latency [0-9.]* ms' "$T") :: $(grep -o 'kernel-only spread.*' "$T" | cut -c1-60)"
    done
  done
done
rm -f "$T"
