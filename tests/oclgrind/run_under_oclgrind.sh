#!/bin/sh
# Runs a test program under Oclgrind, which makes its simulator the only OpenCL device of that process, with
# its checks on, and fails when Oclgrind reports anything, whatever the program's own exit status: a kernel's
# read past a buffer can leave every result right.
#   run_under_oclgrind.sh OCLGRIND PROGRAM [ARGUMENT...]
# Oclgrind always checks every access against its memory object (an invalid read or write, local and private
# memory included); --data-races adds races between work-items and --check-api the OpenCL calls' arguments.
# Not --uninitialized: Oclgrind 21.10's shadow memory takes no fill for a store (a buffer cleared by
# clEnqueueFillBuffer and then added to is "uninitialised"), nor a write or copy at a non-zero offset, nor a
# 2-D image's rows after the first, and its plugin stops at LLVM's freeze instruction and crashes on
# bench.cl, so every strategy that clears its counters or uploads an image would fail with values the
# engine did initialise (tests/oclgrind/README.md has the reproducers).
# The kernels are built unoptimised (-cl-opt-disable), so that a load whose value is then unused (a read one
# element past a buffer, discarded) is still made and checked. The program runs without the program-binary
# cache (a program Oclgrind loads from its own binary loses its source lines) and with a cache folder of its
# own for `auto`'s remembered choices (removed afterwards); Oclgrind with one thread, as ctest runs tests
# side by side, and with 64 KiB of local memory (its default 32 KiB is too little for bow-tensor's kernel,
# 37 KiB with its products emulated; GPUs have 48 KiB and more).
set -u
oclgrind=$1
shift
scratch=$(mktemp -d) || exit 1
trap 'rm -rf "$scratch"' EXIT
HISTOSCOPE_PROGRAM_CACHE=0 HISTOSCOPE_CACHE_DIR=$scratch/cache XDG_CACHE_HOME=$scratch/xdg \
    "$oclgrind" --data-races --check-api --num-threads 1 --local-mem-size 65536 --build-options -cl-opt-disable \
    --log "$scratch/oclgrind.log" "$@"
status=$?
if [ -s "$scratch/oclgrind.log" ]; then
    cat "$scratch/oclgrind.log" >&2
    echo "run_under_oclgrind.sh: Oclgrind reported the above: failed" >&2
    exit 1
fi
exit $status
