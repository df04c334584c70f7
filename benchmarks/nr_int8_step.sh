#!/usr/bin/env bash
# docs/codes.md "Normalisation by code and rate": 5G NR at rates 0.6 to 0.89, int8 at steps of 0.25
# and 0.5 against float32 (layered NMS at the default norm, 10 iterations, early stop, 300 frame
# errors or 200,000 frames a point, seed 11). Run from the repository root on the GPU machine:
#   bash benchmarks/nr_int8_step.sh SIM
# (SIM: a gpufec-sim binary; pass SIM_ARGS="--backend cpu" for the CPU reference, same decisions)
set -u
S=$1
fer() {
  local c=$1 e=$2
  shift 2
  "$S" --code "$c" --decoder nms --iterations 10 --ebn0 "$e" --backend cuda --max-frames 200000 \
    --min-frame-errors 300 --keep-going --no-progress --seed 11 ${SIM_ARGS:-} "$@" 2>&1 | grep -v "^#" | sed "s/^/$c $* | /"
}
for ce in "5gnr-bg1-z384:k=8448:e=14080:qm=2 1.4:3.2:0.2" "5gnr-bg1-z384:k=8448:e=12672:qm=2 1.8:3.6:0.2" \
  "5gnr-bg1-z384:k=8448:e=10752:qm=2 2.6:4.4:0.2" "5gnr-bg1-z384:k=8448:e=9492:qm=2 3.2:5.0:0.2" \
  "5gnr-bg2-z384:k=3840:e=5760:qm=2 1.8:3.6:0.2" "5gnr-bg2-z384:k=3840:e=4800:qm=2 2.6:4.4:0.2"; do
  set -- $ce
  fer "$1" "$2" --precision float32
  fer "$1" "$2" --precision int8 --quant-step 0.25
  fer "$1" "$2" --precision int8 --quant-step 0.5
done
