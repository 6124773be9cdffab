#!/bin/bash
# Issue 25 experiment on the lent GPU machine: where the scope kernels' time goes. From the project root,
# with the OpenCL loader set up (source .gpu/env.sh),
#   bash bench/experiments/scope_probe.sh OUT BEFORE_DIR [REPS]
# BEFORE_DIR holds the scope.cl to compare with (e.g. `git show REV:kernels/scope.cl`, an untracked folder
# carried with the tree); kernels/ is the "after". Builds bench/experiments/scope_probe.cpp (with the bench's
# frames from app/bench/inputs.cpp) and runs it: the streaming read, the product's local-atomic waveform,
# parade and vectorscope from both folders (each checked against a CPU reference) and the walks alone
# (scope_probe.cl) on the 3840x2160 natural, all-equal and uniform frames, min / median / max of REPS
# (default 20): OUT/probe.txt; the card in OUT/card.txt.
set -uo pipefail
out=${1:?usage: scope_probe.sh OUT BEFORE_DIR [REPS]}
before=${2:?usage: scope_probe.sh OUT BEFORE_DIR [REPS]}
reps=${3:-20}
mkdir -p "$out"
{ nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,temperature.gpu --format=csv || true; } \
    >"$out/card.txt" 2>&1
build=build-gpu
mkdir -p $build
g++ -O2 -std=c++20 -DCL_HPP_MINIMUM_OPENCL_VERSION=200 -DCL_HPP_TARGET_OPENCL_VERSION=300 \
    -DCL_HPP_ENABLE_EXCEPTIONS -I app -o $build/scope_probe bench/experiments/scope_probe.cpp app/bench/inputs.cpp \
    -lOpenCL >"$out/probe.txt" 2>&1 &&
    timeout 300 $build/scope_probe "$reps" "$(cd "$before" && pwd)" "$PWD/kernels" "$PWD/bench/experiments" >>"$out/probe.txt" 2>&1
echo "probe: exit $?" >>"$out/probe.txt"
cat "$out/probe.txt"
