#!/usr/bin/env bash
# Runs on the GPU machine (see docs/install.md): CUDA tests, compute-sanitizer, quick throughput.
set -uo pipefail
B=${1:-build}
OUT=${OUT:-/tmp/gpufec-out}
mkdir -p "$OUT"
nvidia-smi --query-gpu=name,memory.total,clocks.max.sm --format=csv | tee "$OUT/gpu.txt"
(cd "$B" && GPUFEC_TEST_DATA=$PWD/../tests/data GPUFEC_QUICK=1 ctest --output-on-failure -L core -LE conformance -E sim_cli) 2>&1 | tee "$OUT/ctest.txt"
GPUFEC_TEST_DATA=$PWD/tests/data "$B/tests/c/test_cuda_equivalence" 2>&1 | tail -15
if command -v compute-sanitizer >/dev/null; then
  for tool in memcheck racecheck; do
    GPUFEC_QUICK=1 GPUFEC_TEST_DATA=$PWD/tests/data timeout 240 compute-sanitizer --tool $tool --error-exitcode 9 \
      "$B/tests/c/test_cuda_equivalence" > "$OUT/sanitizer_$tool.txt" 2>&1
    echo "compute-sanitizer $tool: rc=$? $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' "$OUT/sanitizer_$tool.txt" | tail -1)"
  done
fi
OUT_DIR="$OUT" bash benchmarks/run_gpu.sh "$B"
