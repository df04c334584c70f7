#!/usr/bin/env bash
# Seed 002's sub-block study on our decoder: FER and BER of lte-turbo-6144 (rate 1/3, Max-Log-MAP,
# 6 full iterations, early stop off) for P in {1, 32, 64, 96, 128, 192} x {PIVI, PIVIDSTW g=5},
# BPSK over AWGN, on the GPU (the CPU gives the same decisions for the same P and guard).
# Usage: bash benchmarks/turbo_study.sh [BUILD_DIR]; writes $OUT/turbo_study.json (or ./bench-out);
# benchmarks/plot_turbo_study.py turns it into docs/turbo_study_fer.png and _ber.png. The defaults
# are the waterfall study; the FER 1e-3 comparison of docs/turbo.md ran with
# PS="1 64 128 192" EBN0=0.6:1.1:0.05 MIN_ERRORS=100 MAX_FRAMES=131072.
set -uo pipefail
build=${1:-build}
out=${OUT_DIR:-${OUT:-bench-out}}
PS=${PS:-1 32 64 96 128 192}
EBN0=${EBN0:-0.0:1.0:0.1}
MIN_ERRORS=${MIN_ERRORS:-60}
MAX_FRAMES=${MAX_FRAMES:-8192}
mkdir -p "$out/study"
for guard in pivi pividstw; do
  for P in $PS; do
    [ "$P" = 1 ] && [ "$guard" != pivi ] && continue # one sub-block: no edges to guard
    timeout 120 "$build/apps/gpufec-sim" --code lte-turbo-6144 --decoder maxlogmap --iterations 6 --no-early-stop \
      --ebn0 "$EBN0" --min-frame-errors "$MIN_ERRORS" --max-frames "$MAX_FRAMES" --backend cuda --threads 1 --batch 2048 \
      --param subblocks=$P --param guard=$guard --param window=5 --json "$out/study/P${P}_${guard}.json" \
      > "$out/study/P${P}_${guard}.txt" 2>&1 || echo "P=$P $guard: failed or cut short"
  done
done
python3 - "$out" <<'PY'
import glob, json, os, sys
out = sys.argv[1]
runs = {}
for f in sorted(glob.glob(os.path.join(out, "study", "*.json"))):
    try:
        runs[os.path.basename(f)[:-5]] = json.load(open(f))
    except ValueError:
        pass
json.dump(runs, open(os.path.join(out, "turbo_study.json"), "w"), indent=1)
print(len(runs), "runs")
PY
