#!/bin/sh
# Runs a test program under Oclgrind, which makes its simulator the only OpenCL device of that process, with
# its checks on (out-of-bounds and uninitialised accesses, data races, API errors), and fails when Oclgrind
# reports anything, whatever the program's own exit status: a kernel's invalid read can leave every result
# right.
#   run_under_oclgrind.sh OCLGRIND FILL_AS_WRITE PROGRAM [ARGUMENT...]
# FILL_AS_WRITE is the library of fill_as_write.cpp, preloaded ahead of Oclgrind's runtime (see there why).
# The program runs with a program cache and a cache home of its own (removed afterwards), so that neither
# binaries built by another driver nor `auto`'s remembered choices from another run reach it, and Oclgrind
# with one thread: ctest runs the tests side by side.
set -u
oclgrind=$1
fill_as_write=$2
shift 2
scratch=$(mktemp -d) || exit 1
trap 'rm -rf "$scratch"' EXIT
HISTOSCOPE_CACHE_DIR=$scratch/cache XDG_CACHE_HOME=$scratch/xdg \
    "$oclgrind" --data-races --uninitialized --check-api --num-threads 1 --build-options -cl-opt-disable --log "$scratch/oclgrind.log" \
    sh -c 'LD_PRELOAD="$0:$LD_PRELOAD" exec "$@"' "$fill_as_write" "$@"
status=$?
if [ -s "$scratch/oclgrind.log" ]; then
    cat "$scratch/oclgrind.log" >&2
    echo "run_under_oclgrind.sh: Oclgrind reported the above: failed" >&2
    exit 1
fi
exit $status
