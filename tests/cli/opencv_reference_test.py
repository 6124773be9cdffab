#!/usr/bin/python3
"""histoscope-cli's image stages against OpenCV, an implementation we did not write.

pipeline IMAGE --equalize --out OUT must equal cv2.equalizeHist applied to each of B, G and R of the image as
OpenCV decodes it, with alpha unchanged: on the bundled sample, on images of random, skewed and few-valued
pixels, with and without alpha, written here with OpenCV's own PNG encoder.

Usage: opencv_reference_test.py HISTOSCOPE_CLI SAMPLE_IMAGE SCRATCH_DIR
"""
import os
import subprocess
import sys

import cv2
import numpy as np


def images(scratch, sample):
    rng = np.random.default_rng(20)
    made = {
        "random-bgra.png": rng.integers(0, 256, (97, 131, 4), dtype=np.uint8),
        "random-bgr.png": rng.integers(0, 256, (64, 257, 3), dtype=np.uint8),
        # Most pixels on one value and a few near it; a channel of one value; values only at the top.
        "skewed.png": np.dstack([np.where(rng.random((80, 90)) < 0.9, 40, 41 + rng.integers(0, 3, (80, 90))),
                                 np.full((80, 90), 200), rng.integers(250, 256, (80, 90))]).astype(np.uint8),
        "grey.png": rng.integers(0, 256, (33, 47), dtype=np.uint8),
    }
    paths = [sample]
    for name, pixels in made.items():
        path = os.path.join(scratch, name)
        if not cv2.imwrite(path, pixels):
            sys.exit(f"{path}: cannot write")
        paths.append(path)
    return paths


def expected(path):
    source = cv2.imread(path, cv2.IMREAD_UNCHANGED)
    if source.ndim == 2:
        source = cv2.cvtColor(source, cv2.COLOR_GRAY2BGR)
    out = source.copy()
    for channel in range(3):
        out[:, :, channel] = cv2.equalizeHist(np.ascontiguousarray(source[:, :, channel]))
    if out.shape[2] == 3:  # HistoScope writes alpha; an image without it is opaque
        out = np.dstack([out, np.full(out.shape[:2], 255, np.uint8)])
    return out


def main():
    cli, sample, scratch = sys.argv[1:4]
    os.makedirs(scratch, exist_ok=True)
    failures = []
    for path in images(scratch, sample):
        out = os.path.join(scratch, "equalized-" + os.path.basename(path))
        run = subprocess.run([cli, "pipeline", path, "--equalize", "--out", out], capture_output=True, text=True)
        if run.returncode != 0:
            failures.append(f"{path}: exit {run.returncode}: {run.stderr.strip()}")
            continue
        got = cv2.imread(out, cv2.IMREAD_UNCHANGED)
        want = expected(path)
        if got is None or got.shape != want.shape:
            failures.append(f"{path}: output {None if got is None else got.shape}, expected {want.shape}")
            continue
        differing = int(np.count_nonzero(got != want))
        print(f"{os.path.basename(path)} {want.shape[1]}x{want.shape[0]}: {differing} values differ")
        if differing:
            failures.append(f"{path}: {differing} values differ from cv2.equalizeHist")
    if failures:
        sys.exit("\n".join(failures))


main()
