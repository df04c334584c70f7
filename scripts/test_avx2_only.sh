#!/bin/bash
# The build's C tests on an emulated AVX2-only CPU (AMD EPYC Rome: AVX2 and BMI2, no AVX-512),
# so that the run-time dispatch takes the paths an AVX2-only CI machine takes. Needs qemu-user
# (apt-get install qemu-user; its TCG runs AVX2 since QEMU 7.2). About 20 minutes for a CPU-only
# build's tests, most of it test_decoder's SIMD group; a test that needs a GPU skips (77).
#   cmake -S . -B build-cpu -DENABLE_CUDA=OFF -DENABLE_GNURADIO=OFF -DENABLE_MPI=OFF && make -C build-cpu -j
#   bash scripts/test_avx2_only.sh build-cpu
set -u
BUILD=$(cd "${1:?usage: $0 BUILD_DIR}" && pwd)
CPU=${QEMU_CPU:-EPYC-Rome}
command -v qemu-x86_64 > /dev/null || { echo "qemu-x86_64 not found (apt-get install qemu-user)"; exit 2; }
LIST=$(mktemp)
(cd "$BUILD" && ctest --show-only=json-v1) > "$LIST"
/usr/bin/python3 - "$LIST" << 'PY' | while IFS=$'\t' read -r name dir envs cmd; do
import json, shlex, sys
for t in json.load(open(sys.argv[1]))["tests"]:
    if not t["name"].startswith("c_"):
        continue
    props = {p["name"]: p["value"] for p in t.get("properties", [])}
    env = " ".join(shlex.quote(e) for e in props.get("ENVIRONMENT", []))
    print("\t".join([t["name"], props.get("WORKING_DIRECTORY", "."), env or "-", shlex.join(t["command"])]))
PY
  [ "$envs" = "-" ] && envs=""
  start=$(date +%s)
  (cd "$dir" && eval env $envs qemu-x86_64 -cpu "$CPU" $cmd) > "$BUILD/avx2_only_$name.log" 2>&1
  rc=$?
  echo "$name rc=$rc $(( $(date +%s) - start ))s"
  [ $rc -eq 0 ] || [ $rc -eq 77 ] || echo "$name" >> "$LIST.failed"
done
rm -f "$LIST"
if [ -s "$LIST.failed" ]; then
  echo "failed on $CPU: $(tr '\n' ' ' < "$LIST.failed")(logs: $BUILD/avx2_only_*.log)"
  rm -f "$LIST.failed"
  exit 1
fi
echo "all C tests passed or skipped on $CPU"
