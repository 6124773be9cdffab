#!/usr/bin/python3
"""histoscope-cli scope --npy against numpy computations of the definitions (engine/ops/scope/scope.hpp).

On the bundled sample and on photo-like images written here with Pillow's PNG encoder (smooth shading,
texture, saturated and transparent areas), every scope, with default and uneven column counts, with a region
on the border and with transparent pixels ignored, must equal what numpy counts from the pixels Pillow decodes.

Usage: scope_numpy_test.py HISTOSCOPE_CLI SAMPLE_IMAGE SCRATCH_DIR
"""
import os
import subprocess
import sys

import numpy as np
from PIL import Image


def blurred(noise, sigma):
    """noise smoothed by a Gaussian of `sigma` pixels, rows then columns, edges repeated."""
    radius = int(3 * sigma)
    weights = np.exp(-0.5 * (np.arange(-radius, radius + 1) / sigma) ** 2)
    weights /= weights.sum()
    for axis in (0, 1):
        padded = np.pad(noise, [(radius, radius) if a == axis else (0, 0) for a in (0, 1)], mode="edge")
        noise = np.apply_along_axis(lambda line: np.convolve(line, weights, mode="valid"), axis, padded)
    return noise


def photo_like(rng, height, width, alpha):
    """Smooth light falling across the frame, a textured surface, a saturated object and (with alpha) a
    transparent margin, as an RGB(A) image."""
    y, x = np.mgrid[0:height, 0:width].astype(np.float64)
    light = 0.35 + 0.65 * np.exp(-(((x - 0.3 * width) / width) ** 2 + ((y - 0.4 * height) / height) ** 2) * 3)
    texture = blurred(rng.normal(0, 1, (height, width)), 2.0)
    base = np.stack([170 + 20 * texture, 140 + 30 * texture, 110 + 40 * texture], axis=2) * light[..., None]
    ball = ((x - 0.7 * width) ** 2 + (y - 0.6 * height) ** 2) < (0.18 * min(width, height)) ** 2
    base[ball] = [230, 40, 20]  # a red object
    image = np.clip(np.rint(base + rng.normal(0, 3, base.shape)), 0, 255).astype(np.uint8)
    if not alpha:
        return image
    a = np.full((height, width), 255, np.uint8)
    a[:, : width // 10] = 0
    a[rng.random((height, width)) < 0.02] = 0
    return np.dstack([image, a])


def rgba_of(path):
    with Image.open(path) as image:
        if image.mode not in ("L", "RGB", "RGBA"):
            sys.exit(f"{path}: expected 8-bit grey, RGB or RGBA pixels, not {image.mode}")
        source = np.asarray(image.convert("RGBA"))
    rgb = source[:, :, :3].astype(np.int64)
    alpha = source[:, :, 3].astype(np.int64)
    return rgb, alpha


def expected(rgb, alpha, kind, channel, columns, roi, ignore):
    height, width = alpha.shape
    x0, y0, w, h = roi if roi else (0, 0, width, height)
    rgb = rgb[y0:y0 + h, x0:x0 + w]
    keep = (alpha[y0:y0 + h, x0:x0 + w] != 0) if ignore else np.ones((h, w), bool)
    r, g, b = rgb[..., 0], rgb[..., 1], rgb[..., 2]
    if kind == "vectorscope":
        cb = (-11059 * r - 21709 * g + 32768 * b + 8421375) >> 16
        cr = (32768 * r - 27439 * g - 5329 * b + 8421375) >> 16
        counts = np.zeros((256, 256), np.uint32)
        np.add.at(counts, (cr[keep], cb[keep]), 1)
        return counts
    bins = columns or min(w, 1024)
    column_bin = np.broadcast_to((np.arange(w) * bins) // w, (h, w))
    values = {"r": r, "g": g, "b": b, "luma": (299 * r + 587 * g + 114 * b + 500) // 1000}
    planes = ["r", "g", "b"] if kind == "parade" else [channel]
    counts = np.zeros((len(planes), 256, bins), np.uint32)
    for index, name in enumerate(planes):
        np.add.at(counts[index], (values[name][keep], column_bin[keep]), 1)
    return counts if kind == "parade" else counts[0]


def cases(width, height):
    border = (width - 37, height - 23, 37, 23)  # the bottom right corner
    return [
        ("waveform", "luma", None, None, False),
        ("waveform", "r", 97, None, False),
        ("waveform", "b", None, border, True),
        ("parade", None, 100, None, False),
        ("parade", None, None, border, True),
        ("vectorscope", None, None, None, False),
        ("vectorscope", None, None, (3, 5, 1, 1), False),
        ("vectorscope", None, None, border, True),
    ]


def main():
    cli, sample, scratch = sys.argv[1:4]
    os.makedirs(scratch, exist_ok=True)
    rng = np.random.default_rng(25)
    paths = [sample]
    for name, pixels in {"photo-rgba.png": photo_like(rng, 211, 1301, True),
                         "photo-rgb.png": photo_like(rng, 150, 640, False)}.items():
        path = os.path.join(scratch, name)
        Image.fromarray(pixels).save(path)
        paths.append(path)
    failures = []
    checked = 0
    for path in paths:
        rgb, alpha = rgba_of(path)
        height, width = alpha.shape
        for kind, channel, columns, roi, ignore in cases(width, height):
            out = os.path.join(scratch, "scope.npy")
            command = [cli, "scope", path, "--kind", kind, "--npy", out]
            command += ["--channel", channel] if channel else []
            command += ["--columns", str(columns)] if columns else []
            command += ["--roi", ",".join(map(str, roi))] if roi else []
            command += ["--ignore-transparent"] if ignore else []
            run = subprocess.run(command, capture_output=True, text=True)
            what = " ".join(command[2:])
            if run.returncode != 0:
                failures.append(f"{what}: exit {run.returncode}: {run.stderr.strip()}")
                continue
            got = np.load(out)
            want = expected(rgb, alpha, kind, channel, columns, roi, ignore)
            if got.dtype != np.uint32 or got.shape != want.shape:
                failures.append(f"{what}: {got.dtype} {got.shape}, expected uint32 {want.shape}")
            elif not np.array_equal(got, want):
                where = np.argwhere(got != want)
                failures.append(f"{what}: {len(where)} counts differ, first at {tuple(where[0])}: "
                                f"{got[tuple(where[0])]} instead of {want[tuple(where[0])]}")
            elif want.sum() == 0:
                failures.append(f"{what}: nothing counted, the case checks nothing")
            checked += 1
    for failure in failures:
        print(failure)
    print(f"{checked} scopes checked, {len(failures)} failed")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
