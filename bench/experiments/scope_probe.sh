#!/bin/bash
# Issue 25 experiment on the lent GPU machine: where the scope kernels' time goes. From the project root,
# with the OpenCL loader set up (source .gpu/env.sh),
#   bash bench/experiments/scope_probe.sh OUT VARIANT...
# A VARIANT is LABEL:DIR[:NAME=V,...]: the scope.cl in DIR (an untracked folder carried with the tree, or
# kernels), built with the product's -D options and NAME=V replacing or adding one; for instance
#   main:kernels  no-runs:kernels:RUNS=0  before:probe-main (probe-main/scope.cl: git show REV:kernels/scope.cl)
# Builds bench/experiments/scope_probe.cpp (with the bench's frames from app/bench/inputs.cpp) and runs it:
# the streaming read, the product's local-atomic waveform, parade and vectorscope of each variant (each
# checked against a CPU reference) and the walks alone (scope_probe.cl) on the 3840x2160 natural,
# all-equal and uniform frames, min / median / max of PROBE_REPS (default 20): OUT/probe.txt; the card in
# OUT/card.txt. PROBE_SHAPES and PROBE_WALKS: scope_probe.cpp.
set -uo pipefail
out=${1:?usage: scope_probe.sh OUT VARIANT...}
shift
[ $# -gt 0 ] || { echo "usage: scope_probe.sh OUT VARIANT..." >&2; exit 2; }
variants=()
for variant in "$@"; do
    IFS=: read -r label dir overrides <<<"$variant"
    variants+=("$label:$(cd "$dir" && pwd)${overrides:+:$overrides}")
done
mkdir -p "$out"
{ nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,temperature.gpu --format=csv || true; } \
    >"$out/card.txt" 2>&1
build=build-gpu
mkdir -p $build
g++ -O2 -std=c++20 -DCL_HPP_MINIMUM_OPENCL_VERSION=200 -DCL_HPP_TARGET_OPENCL_VERSION=300 \
    -DCL_HPP_ENABLE_EXCEPTIONS -I app -o $build/scope_probe bench/experiments/scope_probe.cpp app/bench/inputs.cpp \
    -lOpenCL >"$out/probe.txt" 2>&1 &&
    timeout 300 $build/scope_probe "${PROBE_REPS:-20}" "$PWD/kernels" "$PWD/bench/experiments" "${variants[@]}" \
        >>"$out/probe.txt" 2>&1
echo "probe: exit $?" >>"$out/probe.txt"
cat "$out/probe.txt"
