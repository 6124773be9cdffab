#!/bin/bash
# Issue 11, live pipeline on the GPU machine (bench/README.md, "Live pipeline and the app per frame"):
#  1. histoscope-live-bench (tests/interop/live_bench.cpp, Qt-free): rotate 33° bilinear + 5x5 Gaussian +
#     histogram + hand-off to a GL texture, shared (clCreateFromGLTexture) and copy (read back +
#     glTexSubImage2D) in one run, at 1920x1080 and 3840x2160; exits non-zero when a texture differs from the
#     copy path's pixels. Beside it the interop harness (tests/interop) expecting the shared path.
#  2. The packed app (histoscope --measure-frames) at 1080p and 4K, display auto (shared) and copy: per-frame
#     wall clock and the timing view's totals as JSON, and a screenshot each.
# usage: bash bench/experiments/livegui.sh OUT [ROOT]
#   OUT   result folder (created); ROOT  the tree root holding .gpu/ (X stack) and .gpu-gui/ (the packed app),
#   default: this tree. Without ROOT/.gpu/xvfb-nvidia.sh (the development machine) it starts its own Xvfb and
#   runs build/bin/histoscope of this tree on PoCL.
# Environment: LIVEGUI_FRAMES (default 50), LIVEGUI_SIZES (default 1920x1080,3840x2160), LIVEGUI_DEVICE (a
# device selector, default the first device), LIVEGUI_APP_FRAMES (default LIVEGUI_FRAMES), LIVEGUI_SECONDS
# (the time the whole script may take, default 170).
set -uo pipefail
out=${1:?usage: livegui.sh OUT [ROOT]}
root=${2:-$PWD}
mkdir -p "$out" && out=$(cd "$out" && pwd)
root=$(cd "$root" && pwd)
tree=$PWD
frames=${LIVEGUI_FRAMES:-50}
app_frames=${LIVEGUI_APP_FRAMES:-$frames}
sizes=${LIVEGUI_SIZES:-1920x1080,3840x2160}
device=${LIVEGUI_DEVICE:-}
build=build-gpu-livegui
export HISTOSCOPE_CACHE_DIR=$tree/$build/cache
status=0
# The whole script stays under 3 minutes on the GPU machine: each step's time limit is what is left, at most
# its own.
deadline=$((SECONDS + ${LIVEGUI_SECONDS:-170}))
limit() {
    local left=$((deadline - SECONDS))
    echo $((left < $1 ? (left > 5 ? left : 5) : $1))
}
log() { echo "livegui: $*" | tee -a "$out/summary.txt"; }

# ---- the X server: NVIDIA's GLX on the GPU machine, our own Xvfb (Mesa) elsewhere
if [ "${DISPLAY:-}" = ":99" ] && [ -S /tmp/.X11-unix/X99 ] && [ -n "${__GLX_VENDOR_LIBRARY_NAME:-}" ]; then
    expect=shared  # xvfb-nvidia.sh ran already
elif [ -f "$root/.gpu/xvfb-nvidia.sh" ]; then
    pushd "$root" >/dev/null && source .gpu/xvfb-nvidia.sh && popd >/dev/null
    expect=shared
else
    display_number=$((90 + RANDOM % 100))
    Xvfb :$display_number -screen 0 1600x1000x24 +extension GLX -nolisten tcp >/dev/null 2>&1 &
    xvfb_pid=$!
    trap 'kill $xvfb_pid 2>/dev/null' EXIT
    for _ in $(seq 1 50); do [ -S /tmp/.X11-unix/X$display_number ] && break; sleep 0.1; done
    export DISPLAY=:$display_number
    expect=copy
fi
log "DISPLAY=$DISPLAY, expecting the $expect path"

# ---- 1. the Qt-free live bench and the interop harness
found_glx=
for include in ${CPATH:+${CPATH//:/ }} /usr/include; do [ -f "$include/GL/glx.h" ] && found_glx=1; done
if [ -z "$found_glx" ]; then
    log "GL/glx.h not found: no live bench (add the GL/X11 .debs to .gpu/, see scripts/gpu-interop-test.sh)"
    status=1
else
    { cmake -S . -B $build -G Ninja -DCMAKE_BUILD_TYPE=Release -DHISTOSCOPE_WITH_QT=OFF \
        -DHISTOSCOPE_WITH_INTEROP=ON &&
        cmake --build $build -j"$(nproc)" --target histoscope-live-bench interop_tests; } >"$out/build.log" 2>&1 ||
        { tail -30 "$out/build.log"; status=1; }
    if [ -x $build/bin/histoscope-live-bench ]; then
        HISTOSCOPE_EXPECT_INTEROP=$expect timeout "$(limit 60)" $build/bin/interop_tests >"$out/interop-tests.txt" 2>&1
        rc=$?
        log "interop_tests (expecting $expect): exit $rc, $(grep -E '^\[  (PASSED|FAILED|SKIPPED)' "$out/interop-tests.txt" | tr '\n' ' ')"
        [ $rc -eq 0 ] || status=1
        require=; [ $expect = shared ] && require=--require-shared
        timeout "$(limit 60)" $build/bin/histoscope-live-bench --sizes "$sizes" --frames "$frames" ${device:+--device "$device"} \
            $require --json "$out/live-bench.json" >"$out/live-bench.txt" 2>&1
        rc=$?
        cat "$out/live-bench.txt"
        log "live bench: exit $rc"
        [ $rc -eq 0 ] || status=1
        # The same with the convolution strategy the bench's live suite uses (the default is the
        # registry's first, buffer-naive, as in a fresh app).
        timeout "$(limit 30)" $build/bin/histoscope-live-bench --sizes "${sizes##*,}" --frames "$frames" \
            --convolve local-tiled ${device:+--device "$device"} $require --json "$out/live-bench-local-tiled.json" \
            >"$out/live-bench-local-tiled.txt" 2>&1
        rc=$?
        cat "$out/live-bench-local-tiled.txt"
        log "live bench, local-tiled: exit $rc"
        [ $rc -eq 0 ] || status=1
    fi
fi

# ---- 2. the app, as a user runs it
if [ -f "$root/.gpu-gui/gui-env.sh" ]; then
    pushd "$root" >/dev/null && source .gpu-gui/gui-env.sh && popd >/dev/null
    app=/tmp/gui/histoscope
else
    app=$tree/build/bin/histoscope
fi
if [ ! -x "$app" ]; then
    log "no app at $app: skipped"
    exit 1
fi
# The frames as 24-bit BMP (which the app reads without plugins), made without image libraries: a vertical
# gradient (red), diagonal ramps (green) and a 64-pixel checkerboard (blue), so rotation and filter change every
# pixel while the screenshots stay small PNGs.
frames_dir=$(mktemp -d)
python3 - "$frames_dir" "$sizes" <<'PY'
import struct, sys
folder, sizes = sys.argv[1], sys.argv[2]
for size in sizes.split(","):
    width, height = (int(v) for v in size.split("x"))
    ramp = bytes((3 * i) & 255 for i in range(width + height))
    checker = [bytes(((x // 64 + band) % 2) * 200 for x in range(width)) for band in (0, 1)]
    row_bytes = (width * 3 + 3) & ~3
    rows = []
    for y in range(height - 1, -1, -1):  # BMP rows go bottom-up, blue green red
        row = bytearray(row_bytes)
        row[0:width * 3:3] = checker[(y // 64) % 2]
        row[1:width * 3:3] = ramp[y:y + width]
        row[2:width * 3:3] = bytes([(y * 255) // max(height - 1, 1)]) * width
        rows.append(bytes(row))
    data = b"".join(rows)
    header = struct.pack("<2sIHHI", b"BM", 54 + len(data), 0, 0, 54)
    info = struct.pack("<IiiHHIIiiII", 40, width, height, 1, 24, 0, len(data), 2835, 2835, 0, 0)
    with open(f"{folder}/frame-{width}x{height}.bmp", "wb") as f:
        f.write(header + info + data)
PY
for size in ${sizes//,/ }; do
    for display in auto copy; do
        name=app-$size-$display
        timeout "$(limit 40)" "$app" --open "$frames_dir/frame-$size.bmp" ${device:+--device "$device"} --strategy local-atomic \
            --angle 33 --filter gaussian:1:5 --display-path $display --measure-frames "$app_frames" \
            --measure-json "$out/$name.json" --screenshot "$out/$name.png" --quit >"$out/$name.log" 2>&1
        rc=$?
        if [ $rc -eq 0 ]; then
            log "$name: $(python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); print("display %s, wall per frame %.2f ms, worker %.2f ms (%.2f-%.2f), kernel %.3f ms, device %s" % (d["display"], d["wall_per_frame_ms"], d["worker_ms"]["median"], d["worker_ms"]["min"], d["worker_ms"]["max"], d["timing_totals_ms"].get("kernel", {}).get("median", 0), d["device"]))' "$out/$name.json")"
        else
            log "$name: exit $rc: $(tail -3 "$out/$name.log" | tr '\n' ' ')"
            status=1
        fi
    done
done
rm -rf "$frames_dir"
exit $status
