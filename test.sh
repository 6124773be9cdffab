#!/usr/bin/env bash
# Builds HistoScope and runs every test (ctest), installing missing Debian packages first.
# HISTOSCOPE_BUILD_DIR picks the build folder (default: build).
set -euo pipefail
cd "$(dirname "$(readlink -f "$0")")"
source scripts/dependencies.sh
install_missing_packages

# --sanitize: a separate build (default build-sanitize) under AddressSanitizer + UndefinedBehaviorSanitizer; the
# whole suite runs there, every finding fatal. Suppressions (scripts/sanitizers/) cover the drivers only.
if [ "${1:-}" = "--sanitize" ]; then
    build=${HISTOSCOPE_BUILD_DIR:-build-sanitize}
    sanitizers=$PWD/scripts/sanitizers
    # abort_on_error: a report ends in SIGABRT (with or without it, histoscope-cli shows what it captured and
    # the report). GCC's UBSan is a runtime of its own that reads only UBSAN_OPTIONS.
    # use_sigaltstack=0: LLVM (in PoCL and in Mesa's llvmpipe) installs its own alternate signal stack in the
    # threads it runs, and ASan then fails to unmap that stack, not its own, as the thread ends ("failed to
    # deallocate ... unable to unmap", google/sanitizers#1152); a stack overflow is then reported without it.
    export ASAN_OPTIONS=suppressions=$sanitizers/asan.supp:use_sigaltstack=0:abort_on_error=1:detect_stack_use_after_return=1:strict_string_checks=1
    export LSAN_OPTIONS=suppressions=$sanitizers/lsan.supp:print_suppressions=0
    export UBSAN_OPTIONS=suppressions=$sanitizers/ubsan.supp:print_stacktrace=1:halt_on_error=1:abort_on_error=1
    # GCC, as the suppressions and the options above are written for GCC's runtimes.
    cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DHISTOSCOPE_WERROR=ON -DHISTOSCOPE_SANITIZE=ON \
        -DCMAKE_CXX_COMPILER=g++
else
    build=${HISTOSCOPE_BUILD_DIR:-build}
    cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release -DHISTOSCOPE_WERROR=ON -DCMAKE_CXX_COMPILER="$histoscope_compiler"
fi
# Two jobs more than cores, for the build (ninja's own default) and the tests: on an idle machine no slower, and
# on a machine whose cores other processes also keep busy (CI's, two busy loops beside it) they get a larger
# share of them. Many tests also wait on a subprocess, a driver or an X server: on two busy cores the suite
# took 555 s at -j2 and 439 s at -j4 (warm build; docs/ARCHITECTURE.md, "Test time"). A GUI test counts as two
# (tests/ui/CMakeLists.txt), so as many GUI tests run at once as at -j2.
jobs=$(($(nproc) + 2))
cmake --build "$build" -j"$jobs"
# Each ctest run writes its JUnit record (the tests' durations) here; the ten slowest are printed at the end, as
# CI holds the suite to 20 minutes and every test to one minute on two busy cores.
junit=$PWD/$build/Testing/junit
rm -rf "$junit"
mkdir -p "$junit"
# A report that cannot be read (ctest stopped before writing it) leaves the exit status to ctest.
print_slowest() {
    echo
    scripts/slowest-tests.sh "$junit"/*.xml || true
}
if [ "${1:-}" = "--sanitize" ]; then
    status=0
    ctest --test-dir "$build" --output-on-failure -j"$jobs" -E '^ui\.' --output-junit "$junit/main.xml" ||
        status=$?
    # The GUI tests without the leak check at exit: in each that opens the main window (its OpenGL view), two
    # blocks of 56 bytes stay from a library of the GL stack (Mesa's driver, Qt's GLX integration) that is
    # unloaded before the check, so no module is named to suppress. ASan and UBSan stay on; the normal build's
    # shell_soak_test bounds the GUI's memory over 500 switches.
    ASAN_OPTIONS=$ASAN_OPTIONS:detect_leaks=0 ctest --test-dir "$build" --output-on-failure -j"$jobs" -R '^ui\.' \
        --output-junit "$junit/ui.xml" || status=$?
    print_slowest
    exit $status
fi
status=0
ctest --test-dir "$build" --output-on-failure -j"$jobs" --output-junit "$junit/all.xml" || status=$?
print_slowest
exit $status
