#!/usr/bin/env bash
# The twenty-fifth pass of docs/performance.md: the int8p16 precision (int8's messages, 16-bit
# posteriors; the half2 kernels without the posterior clamp, lanes_h2w) against int8, in one
# lease, two rounds. Run from the repository root on the GPU machine:
#   bash benchmarks/int8p16.sh speed BENCH [LIBDIR]
#   bash benchmarks/int8p16.sh fer SIM [MAX_FRAMES]   (frame error rates, int8p16 beside int8 and
#                                                      float32, the same noise for each; GPU)
set -u
. "$(dirname "${BASH_SOURCE[0]}")/bench_lib.sh"
mode=$1
R079=5gnr-bg1-z384:k=8448:e=10752:qm=2
if [ "$mode" = speed ]; then
  bench_ab "$2"
  lib=${3:-}
  for r in 1 2; do
    for p in int8 int8p16; do
      I="--decoder nms --backend cuda --iterations 10 --seed 7 --precision $p"
      bench_lib "$lib" --code $R079 $I --frames 8192 --repeat 5
      bench_lib "$lib" --code 5gnr-bg1-z384 $I --frames 8192 --repeat 5 --ebn0 0.8
      bench_lib "$lib" --code 5gnr-bg2-z384:k=3840:e=9600:qm=4 $I --frames 8192 --repeat 5 --ebn0 1.4
      bench_lib "$lib" --code $R079 $I --frames 152 --repeat 200
      bench_lib "$lib" --code $R079 $I --frames 1 --repeat 200
      bench_lib "$lib" --code 5gnr-bg1-z384 $I --frames 1 --repeat 50 --ebn0 0.8
      bench_lib "$lib" --code dvbs2-normal-1_2 $I --frames 4096 --repeat 5 --ebn0 1.5
      bench_lib "$lib" --code dvbs2-short-1_2 $I --frames 16384 --repeat 3
      bench_lib "$lib" --code wifi-1944-1_2 $I --frames 8192 --repeat 3
    done
  done
  exit 0
fi
sim=$2
max=${3:-1000000}
curve() { # code range
  for p in float32 int8 int8p16; do
    echo "== $1 $p $2"
    rm -f /tmp/int8p16_fer.json
    timeout -s INT "${FER_TIMEOUT:-150}" "$sim" --code "$1" --decoder nms --iterations 10 --precision "$p" --ebn0 "$2" \
      --min-frame-errors 300 --max-frames "$max" --backend cuda --keep-going --no-progress --seed 1 \
      --json /tmp/int8p16_fer.json > /dev/null 2>&1 || echo "(stopped: $?)"
    python3 - /tmp/int8p16_fer.json <<'PY' || echo "(no result)"
import json, sys
j = json.load(open(sys.argv[1]))
print(", ".join("%.2f dB: %.2e (%d)" % (p["ebn0"], p["fer"], p["frames"]) for p in j["points"]))
PY
  done
}
curve 5gnr-bg1-z384 1.0:1.3:0.1
curve $R079 2.8:3.4:0.2
curve 5gnr-bg2-z384:k=3840:e=11520 1.1:1.7:0.2
curve dvbs2-short-1_2 2.5:7.0:1.5
curve wifi-1944-5_6 4.0:5.0:0.5
