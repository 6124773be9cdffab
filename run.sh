#!/usr/bin/env bash
# Builds HistoScope's two programs and runs the app on the bundled sample image, installing missing Debian
# packages first. Without a display it runs histoscope-cli on the sample instead. Extra arguments go to the
# program (e.g. ./run.sh --device 0:1 --strategy serial). HISTOSCOPE_BUILD_DIR picks the build folder (default:
# build, the one ./test.sh uses too).
set -euo pipefail
cd "$(dirname "$(readlink -f "$0")")"
source scripts/dependencies.sh
install_missing_packages

build=${HISTOSCOPE_BUILD_DIR:-build}
cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release -DCMAKE_CXX_COMPILER="$histoscope_compiler"
# Only what runs here: the tests are built by ./test.sh, in the same folder, from what this builds.
# Two jobs more than cores, as test.sh builds (a larger share of cores that other processes keep busy).
cmake --build "$build" -j"$(($(nproc) + 2))" --target histoscope histoscope-cli histoscope_sample

sample="$build/share/histoscope/sample.png"
if [ -n "${DISPLAY:-}${WAYLAND_DISPLAY:-}" ]; then
    exec "$build/bin/histoscope" --open "$sample" "$@"
fi
# 16 bins: a table that fits a terminal, followed by the strategy that ran and the kernel times. Given
# arguments come after, so that --bins 256 still wins.
echo "no display: running histoscope-cli on the sample instead"
exec "$build/bin/histoscope-cli" histogram "$sample" --bins 16 "$@"
