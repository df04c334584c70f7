#!/usr/bin/env bash
# One block's kernel time as the GPU measures it: each decoder kernel's own duration under Nsight
# Compute (gpu__time_duration; caches and clocks left as they are), the median of a run's
# launches after its first two (the first decoder's warm-up and first call; the second decoder's
# warm-up is among those counted, and the median passes over it). gpufec-bench's kernel-only figure comes from
# events around the chunk's work and also holds the time between them and the kernel (docs/
# performance.md, thirty-fifth pass). Each library (a directory holding a libgpufec.so.0) with
# the same bench binary, interleaved, two rounds. Run on the GPU machine:
#   bash benchmarks/kernel_duration.sh BUILD/apps/gpufec-bench LIBDIR...
set -u
[ $# -ge 2 ] || { echo "usage: $0 BENCH LIBDIR..." >&2; exit 2; }
B=$1
shift
LIBS=("$@")
command -v ncu > /dev/null || { echo "no ncu on PATH" >&2; exit 2; }
nvidia-smi --query-gpu=name,uuid,clocks.max.sm --format=csv 2>/dev/null || echo "no nvidia-smi"
C="--decoder nms --backend cuda --iterations 10 --seed 7 --frames 1 --repeat 21"
CASES=("5gnr-bg1-z384:k=8448:e=10752:qm=2 int8p16" "5gnr-bg2-z384 int8p16" "5gnr-bg1-z384 int8p16"
       "5gnr-bg1-z384:k=8448:e=10752:qm=2 int8")
T=$(mktemp)
for round in 1 2; do
  for L in "${LIBS[@]}"; do
    for cp in "${CASES[@]}"; do
      read -r code prec <<< "$cp"
      LD_LIBRARY_PATH=$L${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH} timeout 120 ncu --cache-control none \
        --clock-control none --metrics gpu__time_duration.sum -k regex:k_qc --launch-skip 2 --csv \
        "$B" --code "$code" --precision "$prec" $C > "$T" 2>&1
      grep gpu__time_duration "$T" | awk -F'","' '{print $NF}' | tr -d '",' | sort -n |
        awk -v t="$L $code $prec" '{v[NR] = $1} END {if (NR == 0) print t " :: no launch measured"; else
          printf "%s :: n %d min %.1f median %.1f max %.1f us\n", t, NR, v[1] / 1000, v[int((NR + 1) / 2)] / 1000, v[NR] / 1000}'
    done
  done
done
rm -f "$T"
