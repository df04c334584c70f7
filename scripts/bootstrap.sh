#!/usr/bin/env bash
# gr-gpufec set-up on a fresh Debian 12 / Ubuntu 24.04 machine, then one job:
#   bash scripts/bootstrap.sh demo   install packages, build, install, run the demo flowgraph
#   bash scripts/bootstrap.sh test   install packages, build, install, run every test
# Environment: BUILD_DIR (default ./build), PREFIX (default /usr/local), JOBS (default nproc),
# CMAKE_ARGS (extra configure flags, e.g. -DCMAKE_CUDA_ARCHITECTURES=90).
set -euo pipefail

job=${1:-}
case "$job" in demo|test) ;; *) echo "usage: bash scripts/bootstrap.sh demo|test" >&2; exit 2 ;; esac

top=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
build=${BUILD_DIR:-$top/build}
prefix=${PREFIX:-/usr/local}
jobs=${JOBS:-$(nproc)}
# GNU Radio's Python modules live in the system Python; another python3 on PATH cannot import them.
python=/usr/bin/python3
sudo=""
[ "$(id -u)" -eq 0 ] || sudo=sudo

packages=(build-essential cmake pkg-config git gnuradio gnuradio-dev pybind11-dev python3-pybind11
          python3-numpy python3-matplotlib libgmp-dev libspdlog-dev libfmt-dev libsndfile1-dev
          libopenmpi-dev openmpi-bin)
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  echo "== installing packages: ${missing[*]}"
  $sudo apt-get update -q
  $sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends "${missing[@]}"
fi

# Without a GPU no kernel runs here: compile them once, for sm_90, unless CMAKE_ARGS names the
# architectures. Each architecture is a full pass of ptxas over every kernel, which on a 2-core
# machine is most of the build (CMakeLists.txt's default: 75-real 80-real 90).
arch=()
if [[ "${CMAKE_ARGS:-}" != *CMAKE_CUDA_ARCHITECTURES* ]] && ! nvidia-smi -L >/dev/null 2>&1; then
  arch=(-DCMAKE_CUDA_ARCHITECTURES=90-real)
  echo "== no GPU found: CUDA kernels (if a toolkit is found) compiled for sm_90 only"
fi
echo "== configure ($build)"
cmake -S "$top" -B "$build" -DCMAKE_BUILD_TYPE=Release -DCMAKE_INSTALL_PREFIX="$prefix" \
      -DPYTHON_EXECUTABLE="$python" ${arch[@]+"${arch[@]}"} ${CMAKE_ARGS:-}
echo "== build"
cmake --build "$build" -j "$jobs"
echo "== install ($prefix)"
$sudo cmake --install "$build"
$sudo ldconfig

if [ "$job" = demo ]; then
  echo "== demo: random bits -> ldpc_encoder -> BPSK -> AWGN -> soft demodulator -> ldpc_decoder"
  cd /tmp && exec "$python" "$top/examples/ldpc_awgn_demo.py" "${@:2}"
fi

echo "== tests: build tree (C core, conformance, GNU Radio QA)"
(cd "$build" && ctest --output-on-failure -j "$jobs")

echo "== tests: installed module"
(cd / && "$python" -c "from gnuradio import gpufec; print('gnuradio.gpufec', gpufec.version(), 'from', gpufec.__file__)")
out=$(mktemp -d)
grcc -o "$out" "$top/examples/ldpc_awgn_demo.grc" >/dev/null
(cd "$out" && "$python" ldpc_awgn_demo_grc.py >/dev/null 2>&1)
echo "installed GRC blocks: example compiled and ran"
rm -rf "$out"
bash "$top/tests/installed/check.sh" "$prefix"

echo "== tests: C core alone (no GNU Radio, no CUDA, no MPI) under AddressSanitizer + UBSan"
san="$build-core-sanitize"
cmake -S "$top" -B "$san" -DCMAKE_BUILD_TYPE=Debug -DENABLE_GNURADIO=OFF -DENABLE_CUDA=OFF -DENABLE_MPI=OFF \
      -DGPUFEC_SANITIZE=ON >/dev/null
cmake --build "$san" -j "$jobs" >/dev/null
(cd "$san" && ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1 \
   ctest --output-on-failure -j "$jobs" -LE conformance)
echo "== all tests passed"
