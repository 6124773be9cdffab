#!/usr/bin/env bash
# Builds HistoScope and runs it on the bundled sample image, installing missing Debian packages first.
set -euo pipefail
cd "$(dirname "$(readlink -f "$0")")"
source scripts/dependencies.sh
install_missing_packages

build=${HISTOSCOPE_BUILD_DIR:-build}
cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release
cmake --build "$build" -j"$(nproc)"
