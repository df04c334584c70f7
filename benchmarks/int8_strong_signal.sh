#!/usr/bin/env bash
# The eighteenth pass of docs/performance.md and docs/codes.md "int8 at a strong signal": the int8
# rule with channel values at most 32 steps and minima from 48. Part "fer": frame error rates
# from gpufec-sim on the GPU (the CPU reference gives the same decisions, only slower; pass
# --backend cpu in SIM_ARGS for it) at weak and strong signals; part "speed": gpufec-bench for each
# library given (A/B in one lease). Run from the repository root on the GPU machine:
#   bash benchmarks/int8_strong_signal.sh fer SIM
#   bash benchmarks/int8_strong_signal.sh speed BENCH LIBDIR [LIBDIR...]
# (SIM, BENCH: gpufec-sim and gpufec-bench binaries; each LIBDIR holds a libgpufec.so.0)
set -u
what=$1
shift
if [ "$what" = fer ]; then
  S=$1
  fer() {
    local c=$1 e=$2 mf=$3
    shift 3
    "$S" --code "$c" --decoder nms --iterations 10 --ebn0 "$e" --backend cuda --max-frames "$mf" \
      --min-frame-errors 300 --keep-going --no-progress --seed 9 ${SIM_ARGS:-} "$@" 2>&1 | grep -v "^#" | sed "s/^/$c $* | /"
  }
  fer 5gnr-bg1-z384 1.0:1.3:0.1 200000 --precision int8
  fer 5gnr-bg1-z384:k=8448:e=10752:qm=2 2.8:4.4:0.2 200000 --precision int8
  fer 5gnr-bg1-z384:k=8448:e=10752:qm=2 2.8:4.4:0.2 200000 --precision int8 --quant-step 0.25
  fer 5gnr-bg2-z384:k=3840:e=11520 1.1:1.7:0.2 200000 --precision int8
  fer dvbs2-short-1_2 1.8:2.2:0.2 200000 --precision int8 --iterations 20
  fer dvbs2-short-1_2 5:9:1 200000 --precision int8 --iterations 20
  fer wifi-1944-5_6 3.5:5.0:0.5 1000000 --precision int8 --iterations 20
  fer wifi-1944-5_6 3.5:5.0:0.5 1000000 --precision float32 --iterations 20
  fer wimax-576-1_2 6:8:1 2000000 --precision int8 --iterations 20
else
  . "$(dirname "${BASH_SOURCE[0]}")/bench_lib.sh"
  bench_ab "$1"
  shift
  I="--decoder nms --backend cuda --precision int8 --iterations 10 --seed 7"
  for lib in "$@"; do
    bench_lib "$lib" --code 5gnr-bg1-z384 $I --frames 8192 --repeat 5 --ebn0 0.8
    bench_lib "$lib" --code 5gnr-bg1-z384:k=8448:e=10752:qm=2 $I --frames 8192 --repeat 5
    bench_lib "$lib" --code 5gnr-bg1-z384:k=8448:e=10752:qm=2 $I --frames 152 --repeat 20 --ebn0 3.4 --early-stop
    bench_lib "$lib" --code 5gnr-bg1-z384:k=8448:e=10752:qm=2 $I --frames 1 --repeat 50 --ebn0 2.0
    bench_lib "$lib" --code dvbs2-normal-1_2 $I --frames 4096 --repeat 3
    bench_lib "$lib" --code dvbs2-short-1_2 $I --frames 16384 --repeat 3
  done
fi
