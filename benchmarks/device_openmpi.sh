#!/usr/bin/env bash
# Packs this machine's Open MPI (mpirun, orted, their plugins and help files, and PMIx's) under DIR
# (default .device/ompi), so that `mpirun -np 2 gpufec-sim ...` runs on the GPU machine, which has
# no MPI. Then `device-bundle.sh DIR` collects the shared libraries they need. On that machine:
#   export OPAL_PREFIX=$PWD/DIR PMIX_INSTALL_PREFIX=$PWD/DIR/pmix2 PATH=$PWD/DIR/bin:$PATH
# (Open MPI and PMIx find their plugins under the prefixes they are given, relocated.)
set -euo pipefail
dst=${1:-.device/ompi}
lib=/usr/lib/x86_64-linux-gnu
mkdir -p "$dst/bin" "$dst/lib/x86_64-linux-gnu/openmpi/lib" "$dst/share" "$dst/pmix2/lib"
cp -L /usr/bin/orterun /usr/bin/orted "$dst/bin/"
ln -sf orterun "$dst/bin/mpirun"
cp -rL "$lib/openmpi/lib/openmpi3" "$dst/lib/x86_64-linux-gnu/openmpi/lib/"
cp -rL /usr/share/openmpi "$dst/share/"
cp -rL "$lib/pmix2/lib/pmix" "$dst/pmix2/lib/"
cp -rL "$lib/pmix2/share" "$dst/pmix2/"
du -sh "$dst"
