#!/bin/bash
# One run on the lent GPU machine (../shared/gpu/README.md), everything under $OUT (at most 8 files come
# back): builds the engine, its tests and histoscope-bench without Qt (build.log), runs the engine tests
# (tests.log), reports the kernels' registers, local memory and spills from their PTX (ptxas.txt; Nsight
# Compute there profiles no OpenCL kernel: "No kernels were profiled") and runs the bench (bench.txt; the JSON
# of the main run as bench.json). From the project root, with .gpu carried:
#   source .gpu/env.sh; bench/gpu_run.sh [STEPS]
# STEPS (default "tests ptx bench"): any of tests, ptx, bench (histogram and frame suites), all-suites (every
# suite at 256 MiB), transforms (the visual-words figure of issue 9, 65536 descriptors, as bow.json/bow.txt,
# and the rotate and convolve suites at 256 MiB, median of 20, as transforms.json/transforms.txt), scopes
# (issue 25: every scope strategy on the 3840x2160 frame of each pattern beside the streaming read of the same
# buffer, median of 20, as scope.json/scope.txt), scope-tunings (the scope suite's local-atomic once per
# line of bench/scope_tunings.txt (or of $SCOPE_TUNINGS), its tunables set through the tuning file of ops/tuning.hpp, each beside
# the streaming read of its own run, as scope-tunings.txt), sweeps (issue 24: every histogram, rotation and convolution
# strategy's tunables swept on the 3840x2160 frame, each grid point checked against the CPU reference, then
# the strategy with its own choice and with the grid's best measured one after the other in the same run,
# median of 20, as sweep.json/sweep.txt; the before/after lines printed).
set -uo pipefail
source "$(dirname "$0")/gpu_lib.sh"
out=${OUT:-out}
mkdir -p "$out"
steps=${1:-tests ptx bench}
build=build-gpu
export HISTOSCOPE_CACHE_DIR=$PWD/$build/cache
bench=$build/bin/histoscope-bench
has() { [[ " $steps " == *" $1 "* ]]; }

nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,temperature.gpu --format=csv >"$out/build.log" 2>&1
{ cmake -S . -B $build -G Ninja -DCMAKE_BUILD_TYPE=Release -DHISTOSCOPE_WITH_QT=OFF &&
    cmake --build $build -j16 --target engine_tests histoscope-bench; } >>"$out/build.log" 2>&1 ||
    { tail -40 "$out/build.log"; exit 1; }
rm -rf "$HISTOSCOPE_CACHE_DIR"

if has tests; then
    "$(find $build -name engine_tests -type f -perm -u+x | head -1)" >"$out/tests.log" 2>&1
    tail -4 "$out/tests.log"
fi

if has ptx; then
    # A small run builds the programs of every suite; NVIDIA's program binaries are PTX.
    $bench --sizes 1 --patterns uniform --repetitions 1 >/dev/null 2>&1
    ptxas=$(find_ptxas)
    for file in "$HISTOSCOPE_CACHE_DIR"/programs/*.bin; do
        ptx=/tmp/$(basename "$file").ptx
        cached_ptx "$file" >"$ptx"
        [ -s "$ptx" ] || continue
        echo "== $(grep -aoE -- '-D [A-Z_]+=[0-9]+( -D [A-Z_]+=[0-9]+)*' "$file" | head -1)"
        "$ptxas" -arch=sm_90 -v "$ptx" -o /dev/null 2>&1 | grep -E "Compiling|registers|spill|rror|atal"
    done >"$out/ptxas.txt" 2>&1
fi
if has bench; then
    {
        $bench --suites histogram,frame --sizes 64,256 --repetitions 20 \
            --strategies local-atomic,partial-reduce,private-uchar,auto --json "$out/bench.json"
        for bins in 16 64; do
            $bench --suites histogram --sizes 256 --bins $bins --repetitions 20 \
                --strategies local-atomic,partial-reduce,private-uchar,auto
        done
    } >"$out/bench.txt" 2>&1
    cat "$out/bench.txt"
fi
if has all-suites; then
    $bench --sizes 256 --repetitions 20 --json "$out/bench.json" >"$out/bench.txt" 2>&1
    cat "$out/bench.txt"
fi
if has transforms; then
    $bench --suites bow --sizes 16 --repetitions 25 --json "$out/bow.json" >"$out/bow.txt" 2>&1
    $bench --suites rotate,convolve --sizes 256 --repetitions 20 --json "$out/transforms.json" \
        >"$out/transforms.txt" 2>&1
    grep -E "^(bow +bow-(tiled|tensor|gpu1)|rotate|convolve|baseline)" "$out/bow.txt" "$out/transforms.txt"
fi
if has scope-tunings; then
    key=$(tuning_device_key $bench)
    mkdir -p "$HISTOSCOPE_CACHE_DIR"
    grep -v '^#' "${SCOPE_TUNINGS:-bench/scope_tunings.txt}" | while read -r values; do
        echo "== ${values}"
        if [ "$values" = defaults ]; then
            rm -f "$HISTOSCOPE_CACHE_DIR/tuning.txt"
        else
            printf '%s\tscope/local-atomic\t%s\n' "$key" "$values" >"$HISTOSCOPE_CACHE_DIR/tuning.txt"
        fi
        $bench --suites scope --sizes 1 --repetitions 20 --strategies local-atomic 2>&1 |
            grep -E "^(scope|baseline stream_read +[1-9][0-9])"
    done >"$out/scope-tunings.txt" 2>&1
    rm -f "$HISTOSCOPE_CACHE_DIR/tuning.txt"
    cat "$out/scope-tunings.txt"
fi
if has scopes; then
    # --sizes 1: the other inputs are not measured; the scope suite makes its frame at --frame's size.
    $bench --suites scope --sizes 1 --repetitions 20 --json "$out/scope.json" >"$out/scope.txt" 2>&1
    grep -E "^(scope|baseline stream_read)" "$out/scope.txt"
fi
if has sweeps; then
    # --sizes 1: the other inputs are not measured; the sweep suite makes its frame at --frame's size.
    $bench --suites sweep --sizes 1 --patterns natural --repetitions 20 --json "$out/sweep.json" \
        >"$out/sweep.txt" 2>&1
    grep -E "^sweep .*(before|after)" "$out/sweep.txt"
fi
