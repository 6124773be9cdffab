#!/usr/bin/python3
"""histoscope-cli's image stages against OpenCV, an implementation we did not write.

pipeline IMAGE --equalize --out OUT must equal cv2.equalizeHist applied to each of R, G and B, with alpha
unchanged: on images of random, skewed, few-valued and shaded pixels, with and without alpha. OpenCV's results
are recorded in data/opencv_equalize.npz (make_opencv_reference.py, with the OpenCV version they came from), so
the suite needs no OpenCV; the images go to the command line as PNG files written with Pillow, and its output is
read back with Pillow.

Usage: opencv_reference_test.py HISTOSCOPE_CLI SCRATCH_DIR
"""
import os
import subprocess
import sys

import numpy as np
from PIL import Image

REFERENCE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "data", "opencv_equalize.npz")


def main():
    cli, scratch = sys.argv[1:3]
    os.makedirs(scratch, exist_ok=True)
    reference = np.load(REFERENCE)
    names = [name for name in reference.files if name + ".expected" in reference.files]
    if not names:
        sys.exit(f"{REFERENCE}: no images")
    failures = []
    for name in names:
        pixels, want = reference[name], reference[name + ".expected"]
        path = os.path.join(scratch, name + ".png")
        Image.fromarray(pixels).save(path)
        out = os.path.join(scratch, "equalized-" + name + ".png")
        run = subprocess.run([cli, "pipeline", path, "--equalize", "--out", out], capture_output=True, text=True)
        if run.returncode != 0:
            failures.append(f"{path}: exit {run.returncode}: {run.stderr.strip()}")
            continue
        with Image.open(out) as image:
            got = np.asarray(image.convert("RGBA"))
        if got.shape != want.shape:
            failures.append(f"{path}: output {got.shape}, expected {want.shape}")
            continue
        differing = int(np.count_nonzero(got != want))
        print(f"{name} {want.shape[1]}x{want.shape[0]}: {differing} values differ")
        if differing:
            failures.append(f"{path}: {differing} values differ from cv2.equalizeHist "
                            f"(OpenCV {reference['opencv_version']})")
    if failures:
        sys.exit("\n".join(failures))


main()
