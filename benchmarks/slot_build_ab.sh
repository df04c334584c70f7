#!/bin/bash
# A chunk of one group per SM (133 to 264 5G NR blocks at Z = 384, int8p16): the default build
# against the one-wave build (cuda_tuning 67108864, ONE_WAVE_BUILD), each kernel's own duration
# under Nsight Compute (12 launches after two) and the event figures and call time of gpufec-bench
# (two rounds); then the slot with packed output, whole and in chunks of 76 (docs/performance.md,
# thirty-ninth pass). Run on the GPU machine with the library on LD_LIBRARY_PATH:
#   bash benchmarks/slot_build_ab.sh build/apps/gpufec-bench
set -u
B=${1:?usage: $0 BENCH}
C="--decoder nms --backend cuda --iterations 10 --seed 7 --precision int8p16"
CASES=("5gnr-bg1-z384:k=8448:e=10752:qm=2 152 int8" "5gnr-bg1-z384:k=8448:e=10752:qm=2 152 float32"
       "5gnr-bg1-z384:k=8448:e=10752:qm=2 264 int8" "5gnr-bg1-z384:k=8448:e=10752:qm=2 133 int8"
       "5gnr-bg1-z384:k=8448:e=15360:qm=2 152 int8" "5gnr-bg2-z384:k=3840:e=4800:qm=2 152 int8"
       "5gnr-bg2-z384:k=3840:e=4800:qm=2 264 int8")
T=$(mktemp)
if command -v ncu > /dev/null; then
  for cs in "${CASES[@]}"; do
    read -r code f inp <<< "$cs"
    for t in 0 67108864; do
      timeout 100 ncu --cache-control none --clock-control none --metrics gpu__time_duration.sum -k regex:k_qc \
        --launch-skip 2 --launch-count 12 --csv "$B" --code "$code" $C --frames "$f" --input "$inp" \
        --cuda-tuning $t --repeat 11 > "$T" 2>&1
      grep gpu__time_duration "$T" | awk -F'","' '{print $NF}' | tr -d '",' | sort -n |
        awk -v t="ncu $code x$f $inp t$t" '{v[NR] = $1} END {if (NR == 0) print t " :: none"; else
          printf "%s :: n %d min %.1f median %.1f max %.1f us\n", t, NR, v[1] / 1000, v[int((NR + 1) / 2)] / 1000, v[NR] / 1000}'
      grep -m1 -o 'k_qc[^"]*' "$T" | cut -c1-120
    done
  done
fi
for round in 1 2; do
  for cs in "${CASES[@]}"; do
    read -r code f inp <<< "$cs"
    for t in 0 67108864; do
      "$B" --code "$code" $C --frames "$f" --input "$inp" --cuda-tuning $t --repeat 21 > "$T" 2>&1
      echo "$code x$f $inp t$t :: $(grep -o 'batch latency [0-9.]* ms' "$T") :: $(grep -o 'kernel-only spread.*' "$T" | cut -c1-60)"
    done
  done
  for t in 0 67108864; do
    for mb in 0 76; do
      P=""
      [ $mb -gt 0 ] && P="--param max_batch=$mb"
      "$B" --code 5gnr-bg1-z384:k=8448:e=10752:qm=2 $C --frames 152 --input int8 --cuda-tuning $t --repeat 41 \
        --param output=info-packed $P > "$T" 2>&1
      echo "slot packed max_batch $mb t$t :: $(grep -o 'batch latency [0-9.]* ms' "$T") :: $(grep -o 'kernel-only spread.*' "$T" | cut -c1-60)"
    done
  done
done
rm -f "$T"
