#!/usr/bin/env bash
# Builds tests/installed/consumer.c against the library installed under PREFIX, once with
# pkg-config and once with CMake's find_package(gpufec), and runs both.
#   bash tests/installed/check.sh PREFIX
set -euo pipefail
prefix=${1:?usage: check.sh PREFIX}
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
for d in "$prefix"/lib*/pkgconfig "$prefix"/lib/*/pkgconfig; do
  [ -d "$d" ] && PKG_CONFIG_PATH="$d:${PKG_CONFIG_PATH:-}"
done
export PKG_CONFIG_PATH
export LD_LIBRARY_PATH="$prefix/lib:${LD_LIBRARY_PATH:-}"
cc -std=c11 -Wall -Werror -o "$work/consumer-pc" "$here/consumer.c" $(pkg-config --cflags --libs gpufec)
"$work/consumer-pc"
cmake -S "$here" -B "$work/build" -DCMAKE_PREFIX_PATH="$prefix" >/dev/null
cmake --build "$work/build" >/dev/null
"$work/build/consumer"
# The README's C example, a whole program: compiled warning-free and run (exit 1 if a frame fails).
cc -std=c11 -Wall -Wextra -Werror -o "$work/c_decode" "$here/../../examples/c_decode.c" \
   $(pkg-config --cflags --libs gpufec) -lm
"$work/c_decode"
echo "installed C library: pkg-config and find_package(gpufec) builds ran, examples/c_decode.c ran"
