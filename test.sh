#!/usr/bin/env bash
# Builds HistoScope and runs every test (ctest), installing missing Debian packages first.
# HISTOSCOPE_BUILD_DIR picks the build folder (default: build).
set -euo pipefail
cd "$(dirname "$(readlink -f "$0")")"
source scripts/dependencies.sh
install_missing_packages

build=${HISTOSCOPE_BUILD_DIR:-build}
cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release -DHISTOSCOPE_WERROR=ON
cmake --build "$build" -j"$(nproc)"
ctest --test-dir "$build" --output-on-failure -j"$(nproc)"
