# Sourced by the benchmarks/*.sh scripts that run gpufec-bench case after case: one run, printed
# as its command line ("== [LIBDIR] ARGS") and the lines that carry its result, so that every
# script's raw output reads the same.
#   B             the gpufec-bench binary (each script sets it)
#   KEEP          the lines kept, a grep -E pattern (default: the throughput lines and errors)
#   BENCH_TIMEOUT seconds per run (default 120), so that a hung case cannot eat a lease

# bench_lib LIBDIR ARGS...: with LIBDIR's libgpufec.so.0 first on LD_LIBRARY_PATH ("": as it is)
bench_lib() {
  local lib=$1
  shift
  echo "== ${lib:+$lib }$*"
  LD_LIBRARY_PATH=${lib:+$lib:}${LD_LIBRARY_PATH:-} timeout "${BENCH_TIMEOUT:-120}" "$B" "$@" 2>&1 |
    grep -E "${KEEP:-^coded|kernel-only coded|rror}" | sed 's/ *| LLR rate.*//'
}

# bench ARGS...: the same with the library LD_LIBRARY_PATH already finds
bench() { bench_lib "" "$@"; }

# The GPU and its clock, the first line of a lease's raw output
bench_gpu() { nvidia-smi --query-gpu=name,clocks.max.sm --format=csv 2>/dev/null || echo "no nvidia-smi"; }

# bench_ab BENCH: the start of a script that compares libraries (A/B in one lease): B is BENCH,
# the lines kept are the throughput, the device's ceilings and errors, and the GPU line first
bench_ab() {
  B=$1
  KEEP="^coded|kernel-only|ceilings|rror"
  bench_gpu
}
