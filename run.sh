#!/usr/bin/env bash
# Builds HistoScope and runs it on the bundled sample image, installing missing Debian packages first.
# Without a display it runs histoscope-cli on the sample instead. Extra arguments go to the program
# (e.g. ./run.sh --device 0:1 --strategy serial). HISTOSCOPE_BUILD_DIR picks the build folder (default: build).
set -euo pipefail
cd "$(dirname "$(readlink -f "$0")")"
source scripts/dependencies.sh
install_missing_packages

build=${HISTOSCOPE_BUILD_DIR:-build}
cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release
cmake --build "$build" -j"$(nproc)"

sample="$build/share/histoscope/sample.png"
if [ -n "${DISPLAY:-}${WAYLAND_DISPLAY:-}" ] && [ -x "$build/bin/histoscope" ]; then
    exec "$build/bin/histoscope" --open "$sample" "$@"
fi
if [ -z "${DISPLAY:-}${WAYLAND_DISPLAY:-}" ]; then
    echo "no display: running histoscope-cli on the sample instead"
else
    echo "the desktop app was not built: running histoscope-cli on the sample instead"
fi
exec "$build/bin/histoscope-cli" histogram "$sample" "$@"
