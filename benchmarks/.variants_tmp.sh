#!/usr/bin/env bash
# usage: variants.sh LIBDIR LABEL
lib=$1; label=$2
for P in ${PS:-64 192}; do for T in ${TS:-0 16}; do for F in 2048 1; do
  LD_LIBRARY_PATH=$lib ./build/apps/gpufec-bench --code lte-turbo-6144 --decoder maxlogmap --iterations 6 --backend cuda --frames $F --param subblocks=$P --cuda-tuning $T --json /tmp/v.json > /tmp/v.txt 2>&1 || { echo "$label P=$P T=$T F=$F FAILED $(tail -1 /tmp/v.txt)"; continue; }
  python3 -c "import json; j=json.load(open('/tmp/v.json')); print('$label P=$P tuning=$T frames=$F', 'kernel %.3f Gb/s' % (j['kernel_coded_gbps']*j['k']/j['n']), 'with transfers %.3f' % j['info_gbps'], 'frame %.1f us' % j['frame_latency_us'])"
done; done; done
