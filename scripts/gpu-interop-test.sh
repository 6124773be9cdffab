#!/bin/bash
# Builds the engine and the interop display library without Qt, then runs the GLX harness verbosely (the
# decision and its reason, both paths checked against the pattern and each other, present() timings).
# On the GPU machine, from the project root, with .gpu carried:
#   source .gpu/env.sh; source .gpu/xvfb-nvidia.sh; scripts/gpu-interop-test.sh
# The GPU machine has no GL or X11 headers. Once, on the development machine, add the Debian packages that
# provide them (and the libraries the linker resolves them against) to .gpu/, which env.sh unpacks:
#   (cd .gpu && apt-get download libgl-dev libglx-dev libopengl-dev libx11-dev x11proto-dev libgl1 libglx0 \
#        libopengl0 libglvnd0 libx11-6 libxcb1 libxau6 libxdmcp6 libbsd0 libmd0)
# HISTOSCOPE_EXPECT_INTEROP (default shared) is the path the decision must choose; the first argument is the
# build folder (default build-gpu-interop).
set -euo pipefail
build=${1:-build-gpu-interop}

[ -n "${DISPLAY:-}" ] || { echo "gpu-interop-test: DISPLAY is not set: source .gpu/xvfb-nvidia.sh first" >&2; exit 1; }
found_glx=
for include in ${CPATH//:/ } /usr/include; do [ -f "$include/GL/glx.h" ] && found_glx=1; done
[ -n "$found_glx" ] || { echo "gpu-interop-test: GL/glx.h not found: add the GL/X11 .debs to .gpu/ (see $0)" >&2; exit 1; }

cmake -S . -B "$build" -DCMAKE_BUILD_TYPE=Release -DHISTOSCOPE_WITH_QT=OFF -DHISTOSCOPE_WITH_INTEROP=ON
cmake --build "$build" -j"$(nproc)" --target interop_tests

export HISTOSCOPE_EXPECT_INTEROP=${HISTOSCOPE_EXPECT_INTEROP:-shared}
export HISTOSCOPE_CACHE_DIR=$PWD/$build/test-cache
echo "expecting the $HISTOSCOPE_EXPECT_INTEROP path on DISPLAY=$DISPLAY"
"$build/bin/interop_tests"
