#!/usr/bin/python3
"""cpu-parallel (and serial) against OpenCV's cv2.calcHist on the same 4K RGBA image, in one run.

A benchmark, not part of the build. It needs Debian's OpenCV bindings, which are no project dependency:
    sudo apt-get install python3-opencv      (brings python3-numpy)
It runs with Debian's /usr/bin/python3, where that package installs.

The image (3840 x 2160 RGBA8, smooth gradients plus noise, fixed seed) is written as raw pixels and measured by
`histoscope-bench --raw-rgba` (steady clock around each run, after a warm-up) and, in this process, by
cv2.calcHist computing the same five 256-bin histograms: r, g, b, a (four calls with channels=[c] on the RGBA
image) and luma (one call on a luma image). OpenCV has no conversion with the contract's integer luma,
(299 R + 587 G + 114 B + 500) / 1000 (cvtColor rounds its own fixed-point weights), so luma is computed once
with numpy before timing: calcHist's figures exclude that cost, which favours OpenCV; the numpy luma time is
printed beside them. cpu-parallel computes luma inside its timed pass.

usage: bench/compare_opencv.py [--bench PATH] [--repetitions N] [--json FILE]
"""
import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time

try:
    import cv2
    import numpy as np
except ImportError as error:
    sys.exit(f"compare_opencv.py: {error}; install Debian's python3-opencv and run with /usr/bin/python3")

WIDTH, HEIGHT = 3840, 2160


def make_image():
    """Smooth gradients and soft blobs plus Gaussian noise: histograms with structure, like a photograph."""
    rng = np.random.default_rng(4096)
    y, x = np.mgrid[0:HEIGHT, 0:WIDTH].astype(np.float32)
    u, v = x / WIDTH, y / HEIGHT
    r = 200 * u + 40 * np.sin(7 * v)
    g = 180 * v + 50 * np.cos(5 * u + 3 * v)
    b = 120 + 100 * np.sin(3 * u) * np.cos(4 * v)
    a = 255 - 30 * u * v
    channels = [c + rng.normal(0, 6, c.shape) for c in (r, g, b, a)]
    return np.dstack([np.clip(np.rint(c), 0, 255).astype(np.uint8) for c in channels])


def contract_luma(image):
    rgb = image[..., :3].astype(np.uint32)
    return ((299 * rgb[..., 0] + 587 * rgb[..., 1] + 114 * rgb[..., 2] + 500) // 1000).astype(np.uint8)


def stats_ms(samples_ns):
    return {"min_ms": min(samples_ns) / 1e6, "median_ms": statistics.median(samples_ns) / 1e6,
            "max_ms": max(samples_ns) / 1e6}


def time_ns(function, repetitions):
    function()  # untimed warm-up
    samples = []
    for _ in range(repetitions):
        start = time.perf_counter_ns()
        function()
        samples.append(time.perf_counter_ns() - start)
    return samples


def opencv_histograms(image, luma):
    hists = [cv2.calcHist([image], [c], None, [256], [0, 256]) for c in range(4)]
    hists.append(cv2.calcHist([luma], [0], None, [256], [0, 256]))
    return hists


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    parser.add_argument("--bench", default=os.path.join(root, "build", "bin", "histoscope-bench"))
    parser.add_argument("--repetitions", type=int, default=20)
    parser.add_argument("--json", help="also write the figures to this file")
    args = parser.parse_args()
    if not os.access(args.bench, os.X_OK):
        sys.exit(f"compare_opencv.py: {args.bench}: no histoscope-bench there (build it, or pass --bench)")

    image = make_image()
    luma = contract_luma(image)
    luma_ns = time_ns(lambda: contract_luma(image), args.repetitions)
    opencv_ns = time_ns(lambda: opencv_histograms(image, luma), args.repetitions)

    # OpenCV's counts must be the contract's histograms, or the comparison means nothing.
    flat = image.reshape(-1, 4)
    for channel, hist in enumerate(opencv_histograms(image, luma)):
        values = flat[:, channel] if channel < 4 else luma.reshape(-1)
        if not np.array_equal(hist.reshape(-1).astype(np.int64), np.bincount(values, minlength=256)):
            sys.exit(f"compare_opencv.py: cv2.calcHist disagrees with numpy on channel {channel}")

    with tempfile.NamedTemporaryFile(suffix=".rgba") as raw:
        raw.write(image.tobytes())
        raw.flush()
        command = [args.bench, "--raw-rgba", raw.name, "--width", str(WIDTH), "--height", str(HEIGHT),
                   "--suites", "histogram", "--strategies", "cpu-parallel,serial",
                   "--repetitions", str(args.repetitions), "--json", "-"]
        result = subprocess.run(command, capture_output=True, text=True)
        if result.returncode != 0:
            sys.exit(f"compare_opencv.py: {' '.join(command)} failed: {result.stderr.strip()}")
    bench = json.loads(result.stdout)
    ours = {row["subject"]: row for row in bench["results"] if row["suite"] == "histogram"}
    for name in ("cpu-parallel", "serial"):
        if "median_ns" not in ours.get(name, {}):
            sys.exit(f"compare_opencv.py: histoscope-bench did not measure {name}: {ours.get(name)}")

    opencv = stats_ms(opencv_ns)
    figures = {
        "image": {"width": WIDTH, "height": HEIGHT, "bytes": image.nbytes},
        "repetitions": args.repetitions,
        "opencv": {"version": cv2.__version__, "threads": cv2.getNumThreads(),
                   "calcHist_5_histograms": opencv, "numpy_luma_not_included": stats_ms(luma_ns)},
        "histoscope": {name: {"min_ms": ours[name]["min_ns"] / 1e6, "median_ms": ours[name]["median_ns"] / 1e6,
                              "max_ms": ours[name]["max_ns"] / 1e6} for name in ("cpu-parallel", "serial")},
    }
    for name in ("cpu-parallel", "serial"):
        figures["histoscope"][name]["speedup_over_calcHist"] = (
            opencv["median_ms"] / figures["histoscope"][name]["median_ms"])

    print(f"{WIDTH}x{HEIGHT} RGBA8 ({image.nbytes / 2**20:.1f} MiB), 256 bins, r g b a luma, "
          f"{args.repetitions} repetitions after a warm-up")
    print(f"{'':34} {'min ms':>9} {'median ms':>10} {'max ms':>9}  speed-up over calcHist")
    print(f"{'cv2.calcHist x5 (OpenCV ' + cv2.__version__ + ')':34} {opencv['min_ms']:9.2f} "
          f"{opencv['median_ms']:10.2f} {opencv['max_ms']:9.2f}  1.00 (cv2.getNumThreads() = {cv2.getNumThreads()})")
    for name in ("cpu-parallel", "serial"):
        row = figures["histoscope"][name]
        print(f"{'histoscope ' + name:34} {row['min_ms']:9.2f} {row['median_ms']:10.2f} {row['max_ms']:9.2f}  "
              f"{row['speedup_over_calcHist']:.2f}")
    luma_stats = figures["opencv"]["numpy_luma_not_included"]
    print(f"luma for calcHist: numpy, exact contract formula, computed before timing, NOT included above "
          f"(it takes {luma_stats['median_ms']:.2f} ms median); histoscope computes luma inside its timed pass.")
    if args.json:
        with open(args.json + ".tmp", "w") as out:
            json.dump(figures, out, indent=2)
        os.replace(args.json + ".tmp", args.json)


if __name__ == "__main__":
    main()
