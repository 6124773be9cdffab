#!/bin/bash
# Issue 11 experiment (branch gpuexp), kept as the way its figures are measured again: builds the engine, its
# tests and histoscope-bench without Qt, measures every rotate and convolve strategy at 8192x8192 RGBA in ONE
# run (median/min/max of 20, ratio to the same run's copy), reports the kernels' registers from their PTX and
# runs the engine's rotate and convolve tests on the same device (exactness against the CPU references). The
# variants it compared in two H100 runs on 2026-11-23 (registered only for those runs) are in bench/README.md.
#   bash bench/experiments/gpuexp.sh OUT_DIR        # from the project root; OpenCL set up (.gpu/env.sh)
# GPUEXP_MIB (default 256: 8192x8192 RGBA) sets the image size, GPUEXP_JOBS the build's parallelism. Writes
# into OUT_DIR: build.log, bench.txt/bench.json, summary.txt (the rows that decide), ptxas.txt (registers,
# local memory, spills of each program, from its PTX on NVIDIA), tests-<shard>.log and tests.txt (passed and
# failed counts, the failures). Finishes within about 2.5 minutes: the tests get what is left of 140 s.
set -uo pipefail
source "$(dirname "$0")/../gpu_lib.sh"
out=${1:?usage: gpuexp.sh OUT_DIR}
mkdir -p "$out"
start=$SECONDS
mib=${GPUEXP_MIB:-256}
jobs=${GPUEXP_JOBS:-$(nproc)}
build=build-gpu
export HISTOSCOPE_CACHE_DIR=$PWD/$build/cache

{ nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,temperature.gpu --format=csv 2>&1 || true; } >"$out/build.log"
{ cmake -S . -B $build -G Ninja -DCMAKE_BUILD_TYPE=Release -DHISTOSCOPE_WITH_QT=OFF &&
    cmake --build $build -j"$jobs" --target engine_tests histoscope-bench; } >>"$out/build.log" 2>&1 ||
    { tail -40 "$out/build.log"; exit 1; }
echo "build done after $((SECONDS - start)) s" | tee -a "$out/build.log"
rm -rf "$HISTOSCOPE_CACHE_DIR"
bench=$build/bin/histoscope-bench
tests=$(find $build -name engine_tests -type f -perm -u+x | head -1)

# Every rotate and convolve strategy, rotate at the bench's 33.3 degrees.
$bench --suites rotate,convolve --sizes "$mib" --repetitions 20 --json "$out/bench.json" >"$out/bench.txt" 2>&1
echo "bench done after $((SECONDS - start)) s"
{
    head -1 "$out/bench.txt"
    grep -E "^(suite|baseline)" "$out/bench.txt"
    grep -E "^rotate +(buffer|image-sampler linear image)" "$out/bench.txt"
    for size in 3x3 5x5 15x15; do grep -E "^convolve .* $size " "$out/bench.txt"; done
} >"$out/summary.txt"
cat "$out/summary.txt"

# Registers, local memory and spills of every program the bench built (NVIDIA's binaries are PTX).
ptxas=$(find_ptxas)
if [ -n "$ptxas" ]; then
    for file in "$HISTOSCOPE_CACHE_DIR"/programs/*.bin; do
        ptx=/tmp/gpuexp-$(basename "$file").ptx
        cached_ptx "$file" >"$ptx"
        [ -s "$ptx" ] || continue
        echo "== $(grep -aoE -- '-D [A-Z_0-9]+=[0-9]+( -D [A-Z_0-9]+=[0-9]+)*' "$file" | head -1)"
        "$ptxas" -arch=sm_90 -v "$ptx" -o /dev/null 2>&1 | grep -E "Compiling|registers|spill|rror|atal"
    done >"$out/ptxas.txt" 2>&1
fi

# The engine's rotate and convolve tests, every strategy, in what is left of 140 s:
# in parallel shards (each with its own program cache), the device shared.
left=$((140 - (SECONDS - start)))
[ $left -lt 20 ] && left=20
shards=${GPUEXP_TEST_SHARDS:-12}
for ((i = 0; i < shards; ++i)); do
    GTEST_TOTAL_SHARDS=$shards GTEST_SHARD_INDEX=$i HISTOSCOPE_CACHE_DIR=$PWD/$build/cache-test-$i \
        timeout "$left" "$tests" --gtest_filter='*Rotate*:*Convolve*' >"$out/tests-$i.log" 2>&1 &
done
status=0
for ((i = 0; i < shards; ++i)); do wait -n || status=$?; done
{
    echo "tests (shards: $shards) last failing exit $status after $((SECONDS - start)) s (limit ${left} s)"
    echo "passed: $(cat "$out"/tests-*.log | grep -cE '^\[       OK \] .* \([0-9]+ ms\)$')," \
        "failed: $(cat "$out"/tests-*.log | grep -cE '^\[  FAILED  \] .* \([0-9]+ ms\)$')"
    grep -hE '^\[  FAILED  \] .* \([0-9]+ ms\)$' "$out"/tests-*.log
    # One line per shard that finished; a shard cut off by the time limit has none.
    grep -hE "^\[==========\] .* ran" "$out"/tests-*.log
} | tee "$out/tests.txt"
exit 0
