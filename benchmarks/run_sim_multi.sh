#!/usr/bin/env bash
# Issue 22 on a machine with two GPUs: one GPU, two GPUs in one process (--devices 0,1) and two
# MPI ranks with a GPU each (mpirun -np 2), the same points: the statistics must be identical and
# the rates scale. Usage: bash benchmarks/run_sim_multi.sh [BUILD_DIR]; writes $OUT/multi.md.
# Where Open MPI is not installed (the lent GPU machines), pack it here first with
# benchmarks/device_openmpi.sh and device-bundle.sh; this script then finds it under .device/ompi.
set -uo pipefail
top=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
build=${1:-$top/build}
out=${OUT_DIR:-${OUT:-$top/bench-out}}
mkdir -p "$out"
if ! command -v mpirun > /dev/null && [ -d "$top/.device/ompi" ]; then
  export OPAL_PREFIX=$top/.device/ompi PMIX_INSTALL_PREFIX=$top/.device/ompi/pmix2 PATH=$top/.device/ompi/bin:$PATH
fi
# as root, on one host, without ssh
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_plm=isolated \
       OMPI_MCA_btl_vader_single_copy_mechanism=none OMPI_MCA_rmaps_base_oversubscribe=1
sim=$build/apps/gpufec-sim
md=$out/multi.md
echo "$(nvidia-smi --query-gpu=name --format=csv,noheader | sort | uniq -c | xargs); $(date -u +%F)" > "$md"
counts() { python3 -c "import json,sys; d=json.load(open(sys.argv[1])); p=d['points']; print([(q['frames'],q['frame_errors'],q['bit_errors'],q['iterations']) for q in p], 'simulated %.0f Mb/s, decoder %.0f Mb/s, %.1f s' % (p[-1]['simulated_mbps'], p[-1]['decoder_mbps'], p[-1]['seconds']))" "$1"; }
while read -r code ebn0 stop; do
  args="--code $code --decoder nms --iterations 10 --precision int8 --ebn0 $ebn0:$ebn0:1 $stop --seed 11 --no-progress"
  echo "## $code NMS-10 int8, $ebn0 dB, random codewords made and encoded on the GPU ($stop)" >> "$md"
  timeout 300 "$sim" $args --devices 0 --json "$out/a.json" > /dev/null 2>&1; echo "- one GPU: rc $? $(counts "$out/a.json")" >> "$md"
  timeout 300 "$sim" $args --devices 0,1 --json "$out/b.json" > /dev/null 2>&1; echo "- two GPUs: rc $? $(counts "$out/b.json")" >> "$md"
  timeout 300 mpirun -np 2 "$sim" $args --json "$out/c.json" > /dev/null 2>&1; echo "- mpirun -np 2: rc $? $(counts "$out/c.json")" >> "$md"
done <<'LIST'
5gnr-bg1-z384 1.6 --min-frame-errors=300 --max-frames=8000000
dvbs2-normal-1_2 2.7 --min-frame-errors=5000 --max-frames=8000000
LIST
rm -f "$out"/[abc].json
cat "$md"
