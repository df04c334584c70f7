#!/usr/bin/env bash
# GF(q) LDPC error-rate curves for docs/nbldpc.md (issue 11): nb-qc-gf32-744 min-max layered,
# 15 iterations (beside seed 001's figure 8); the GF(64) code nb-gf64-1152 (N = 2304 bits, rate
# 1/2) with FFT-BP beside the binary WiMAX 2304 rate-1/2 code with SPA, 50 iterations each.
# Usage: bash benchmarks/nbldpc_curves.sh [BUILD_DIR]; BACKEND (default cuda), MIN_ERRORS,
# MAX_FRAMES from the environment; writes $OUT/nb_curve_*.json (or ./bench-out), then
# benchmarks/plot_nbldpc.py draws docs/nbldpc_fer.png.
set -uo pipefail
build=${1:-build}
out=${OUT_DIR:-${OUT:-bench-out}}
backend=${BACKEND:-cuda}
min_err=${MIN_ERRORS:-100}
max_frames=${MAX_FRAMES:-100000}
mkdir -p "$out"
sim() { # name code decoder iterations schedule ebn0
  "$build/apps/gpufec-sim" --code "$2" --decoder "$3" --iterations "$4" --schedule "$5" --ebn0 "$6" \
    --min-frame-errors "$min_err" --max-frames "$max_frames" --backend "$backend" --threads 1 --batch 2048 \
    --json "$out/nb_curve_$1.json" | tail -n +2
}
sim qc744_minmax nb-qc-gf32-744 min-max 15 layered 3.4:4.6:0.2
sim gf64_1152_fftbp nb-gf64-1152 fft-bp 50 flooding 0.6:1.8:0.2
sim wimax2304_spa wimax-2304-1_2 spa 50 flooding 0.6:2.2:0.2
