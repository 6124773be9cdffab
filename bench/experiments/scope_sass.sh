#!/bin/bash
# Issue 25, on the lent GPU (see bench/README.md): the machine code NVIDIA's driver makes of the scope
# local-atomic kernels, to see how a work-item's loads and its local atomics are ordered in the walk down its
# columns (whether a batch of rows, UNROLL, is loaded before it is counted). From the project root, with the
# OpenCL loader set up (source .gpu/env.sh):
#   bash bench/experiments/scope_sass.sh OUT [TUNING...]
# TUNING: a line of the tuning file's values (NAME=V,NAME=V) or "defaults"; default "defaults UNROLL=4".
# For each, the scope suite's local-atomic runs once on the 3840x2160 frame (its builds land in the program
# cache), then each scope_strips and scope_window program's PTX (the cache entry's binary) goes through ptxas
# for sm_90 and cuobjdump -sass: OUT/sass.tar.gz holds NAME.ptx and NAME.sass per program, OUT/summary.txt
# each program's options, registers and the order of its global loads (LDG) and shared atomics (ATOMS, or
# the shared-memory compare-and-swap loops) in the SASS.
set -uo pipefail
source "$(dirname "$0")/../gpu_lib.sh"
out=${1:?usage: scope_sass.sh OUT [TUNING...]}
shift
tunings=("$@")
[ ${#tunings[@]} -gt 0 ] || tunings=(defaults UNROLL=4)
build=build-gpu
bench=$build/bin/histoscope-bench
work=$(mktemp -d)
mkdir -p "$out"
{ cmake -S . -B $build -G Ninja -DCMAKE_BUILD_TYPE=Release -DHISTOSCOPE_WITH_QT=OFF &&
    cmake --build $build -j16 --target histoscope-bench; } >"$out/build.log" 2>&1 || { tail -30 "$out/build.log"; exit 1; }
ptxas=$(find_ptxas)
cuobjdump=$(command -v cuobjdump || ls /usr/local/cuda*/bin/cuobjdump 2>/dev/null | head -1)
key=$(tuning_device_key $bench)
for tuning in "${tunings[@]}"; do
    export HISTOSCOPE_CACHE_DIR=$work/cache-$tuning
    mkdir -p "$HISTOSCOPE_CACHE_DIR"
    [ "$tuning" = defaults ] || printf '%s\tscope/local-atomic\t%s\n' "$key" "$tuning" >"$HISTOSCOPE_CACHE_DIR/tuning.txt"
    $bench --suites scope --sizes 1 --repetitions 3 --strategies local-atomic 2>&1 | grep -E "^scope" >>"$out/summary.txt"
    for file in "$HISTOSCOPE_CACHE_DIR"/programs/*.bin; do
        grep -aq "scope_strips\|scope_window" "$file" || continue
        options=$(grep -aoE -- '-D SCOPE=[0-9]( -D [A-Z_]+=[0-9]+)*' "$file" | head -1)
        name="$tuning-$(echo "$options" | tr -d ' ' | tr '=' '_' | sed 's/-D/./g')"
        cached_ptx "$file" >"$work/$name.ptx"
        "$ptxas" -arch=sm_90 -v "$work/$name.ptx" -o "$work/$name.cubin" >"$work/$name.ptxas" 2>&1
        "$cuobjdump" -sass "$work/$name.cubin" >"$work/$name.sass" 2>&1
        {
            echo "== $tuning: $options"
            grep -E "registers" "$work/$name.ptxas"
            # The memory operations in program order: global loads, shared atomics and loads/stores, branches.
            grep -oE "(LDG|ATOMS|ATOMG|RED|LDS|STS|BAR|BRA)[A-Z0-9._]*" "$work/$name.sass" | uniq -c | tr '\n' ' '
            echo
        } >>"$out/summary.txt"
    done
done
tar -C "$work" -czf "$out/sass.tar.gz" --exclude='cache-*' .
cat "$out/summary.txt"
