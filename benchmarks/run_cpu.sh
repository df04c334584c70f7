#!/usr/bin/env bash
# Reproduces the CPU table of docs/performance.md (needs the project built in BUILD_DIR, default
# ./build, and installed so that GNU Radio can import gnuradio.gpufec).
set -euo pipefail
top=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
build=${BUILD_DIR:-$top/build}
/usr/bin/python3 "$top/benchmarks/cpu_vs_grfec.py" --bench "$build/apps/gpufec-bench" \
  --info "$build/apps/gpufec-info" --markdown "${1:-/dev/stdout}" "${@:2}"
