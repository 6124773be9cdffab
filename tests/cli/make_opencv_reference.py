#!/usr/bin/python3
"""Writes tests/cli/data/opencv_equalize.npz: images and what OpenCV's cv2.equalizeHist makes of them.

cli.opencv_reference (opencv_reference_test.py) holds histoscope-cli's equalize stage to these results, so that
the suite compares with an implementation we did not write without installing OpenCV (python3-opencv brings 181
Debian packages, a third of what ./test.sh would install on a fresh machine). Run this by hand, after
`sudo apt-get install python3-opencv`, only to add images; the archive records the OpenCV version it came from.

For each image NAME the archive holds NAME (the pixels, RGB or RGBA, or grey) and NAME.expected (RGBA: each of
R, G and B through cv2.equalizeHist, alpha as it was, 255 where the image has none).

Usage: make_opencv_reference.py [OUT.npz]
"""
import os
import sys

import cv2
import numpy as np


def images():
    rng = np.random.default_rng(20)
    return {
        "random-rgba": rng.integers(0, 256, (97, 131, 4), dtype=np.uint8),
        "random-rgb": rng.integers(0, 256, (64, 257, 3), dtype=np.uint8),
        # Most pixels on one value and a few near it; a channel of one value; values only at the top.
        "skewed": np.dstack([np.where(rng.random((80, 90)) < 0.9, 40, 41 + rng.integers(0, 3, (80, 90))),
                             np.full((80, 90), 200), rng.integers(250, 256, (80, 90))]).astype(np.uint8),
        "grey": rng.integers(0, 256, (33, 47), dtype=np.uint8),
        # Light across the frame, as in a photograph: a histogram with gaps and a long tail.
        "shaded": np.clip(np.dstack([np.add.outer(np.linspace(20, 120, 120), np.linspace(0, 90, 160)) * k
                                     for k in (1.0, 0.8, 0.5)]) + rng.normal(0, 2, (120, 160, 3)), 0,
                          255).astype(np.uint8),
    }


def equalized(pixels):
    rgb = np.dstack([pixels] * 3) if pixels.ndim == 2 else pixels[:, :, :3]
    out = np.dstack([cv2.equalizeHist(np.ascontiguousarray(rgb[:, :, c])) for c in range(3)])
    alpha = pixels[:, :, 3] if pixels.ndim == 3 and pixels.shape[2] == 4 else np.full(rgb.shape[:2], 255, np.uint8)
    return np.dstack([out, alpha])


def main():
    out = sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(__file__), "data",
                                                              "opencv_equalize.npz")
    arrays = {"opencv_version": np.array(cv2.__version__)}
    for name, pixels in images().items():
        arrays[name] = pixels
        arrays[name + ".expected"] = equalized(pixels)
    np.savez_compressed(out, **arrays)
    print(f"{out}: {len(arrays) // 2} images, OpenCV {cv2.__version__}")


main()
