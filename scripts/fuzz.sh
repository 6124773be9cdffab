#!/usr/bin/env bash
# Runs every libFuzzer target of tests/fuzz (or the TARGETs named) for SECONDS each (default 60), all at once,
# and says what each found.
#   scripts/fuzz.sh [SECONDS [TARGET...]]
# Builds them with clang under ASan + UBSan in build-fuzz (HISTOSCOPE_FUZZ_BUILD_DIR). Seeds come from
# tests/fuzz/corpus/<target>; the growing corpus lives in the build folder; a crash leaves its input as
# build-fuzz/findings/<target>/crash-* (turn each into a regression test, then add it to the seeds).
set -euo pipefail
cd "$(dirname "$(readlink -f "$0")")/.."
seconds=${1:-60}
source scripts/dependencies.sh
install_missing_packages clang-14 libclang-rt-14-dev  # libFuzzer; not needed by ./test.sh

build=${HISTOSCOPE_FUZZ_BUILD_DIR:-build-fuzz}
# -fsanitize=fuzzer-no-link: coverage instrumentation of everything the targets call (the targets link libFuzzer
# themselves). Without it a fuzzer sees only the edges of its own file, 23 for fuzz_decode, and mutates blind.
CXX=clang++-14 cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DHISTOSCOPE_WERROR=OFF \
    -DCMAKE_CXX_FLAGS=-fsanitize=fuzzer-no-link -DHISTOSCOPE_FUZZ=ON -DHISTOSCOPE_BUILD_TESTS=OFF
targets=(fuzz_decode fuzz_npy fuzz_filter fuzz_selector fuzz_options fuzz_histogram)
[ $# -gt 1 ] && targets=("${@:2}")
cmake --build "$build" -j"$(nproc)" --target "${targets[@]}"

# Drivers only: PoCL and the ICD loader keep process-lifetime allocations (scripts/sanitizers/lsan.supp).
export LSAN_OPTIONS=suppressions=$PWD/scripts/sanitizers/lsan.supp:print_suppressions=0
export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
export POCL_DEVICES=${POCL_DEVICES:-pthread}
# The targets run side by side, so the whole run takes SECONDS; each line says how many inputs its target got.
fuzz() {
    local target=$1 corpus=$build/corpus/$1 findings=$build/findings/$1
    mkdir -p "$corpus" "$findings"
    "$build/bin/$target" -max_total_time="$seconds" -rss_limit_mb=4096 -timeout=120 \
        -artifact_prefix="$findings/" "$corpus" "tests/fuzz/corpus/$target" >"$build/findings/$target.log" 2>&1
}
started=$(date +%s)
pids=()
for target in "${targets[@]}"; do
    fuzz "$target" &
    pids+=($!)
done
status=0
for i in "${!targets[@]}"; do
    target=${targets[$i]}
    log=$build/findings/$target.log
    if wait "${pids[$i]}"; then
        verdict="no finding"
    else
        verdict="FOUND: $(ls "$build/findings/$target" | tr '\n' ' ')(see $log)"
        status=1
    fi
    runs=$(grep -oE '^#[0-9]+' "$log" | tail -1 || true)
    echo "$target: $(($(date +%s) - started)) s, ${runs:-#0} inputs, corpus $(ls "$build/corpus/$target" | wc -l) files: $verdict"
done
exit $status
