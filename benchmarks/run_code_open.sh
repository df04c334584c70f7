#!/usr/bin/env bash
# Reproduces the "Opening codes" table of docs/performance.md: time and peak memory of opening
# regular (3,6) codes and of their first encode, one process per code (needs BUILD_DIR, default
# ./build).
set -euo pipefail
top=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
build=${BUILD_DIR:-$top/build}
"$build/benchmarks/code_open_bench" regular-3-6-16000 regular-3-6-64000 regular-3-6-256000 \
  regular-3-6-1000000 "$@"
