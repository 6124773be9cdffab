#!/usr/bin/env python3
"""Images per second of `histoscope-cli batch` over a folder against a shell loop of single `histoscope-cli
pipeline` runs over the same folder, in the same run (issue 22). A measurement, never a test: it prints figures
and exits 0 once the commands ran.

    bench/batch.py [--cli build/bin/histoscope-cli] [--images 24] [--size 256] [--rounds 5] [--device SEL]
                   [--jobs 2] [-- STAGE OPTIONS...]        (default stage options: --filter gaussian:2 --bins 64)

The folder holds --images PNGs of --size x --size pixels (noise, made here with zlib). Each round runs the two
in turn (batch, then the loop; the order alternates so that a drifting machine favours neither), each writing
its output images; the binary program cache is warm for both (one untimed run of each first), as it is for a
user after the first run. Printed: images/s of each as min / median / max over the rounds, and the ratio
batch / loop of each round (min / median / max)."""

import argparse
import os
import random
import statistics
import struct
import subprocess
import sys
import tempfile
import time
import zlib


def png(width, height, seed):
    rng = random.Random(seed)
    rows = b"".join(b"\x00" + rng.randbytes(width * 4) for _ in range(height))

    def chunk(kind, data):
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))

    header = struct.pack(">IIBBBBB", width, height, 8, 6, 0, 0, 0)
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", zlib.compress(rows, 1)) + chunk(b"IEND", b"")


def timed(command, env):
    start = time.perf_counter()
    result = subprocess.run(command, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    seconds = time.perf_counter() - start
    if result.returncode != 0:
        sys.exit(f"batch.py: {' '.join(command[:2])} exited {result.returncode}: {result.stderr.decode().strip()}")
    return seconds


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--cli", default="build/bin/histoscope-cli")
    parser.add_argument("--images", type=int, default=24)
    parser.add_argument("--size", type=int, default=256)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--device", default="")
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("stages", nargs="*", default=["--filter", "gaussian:2", "--bins", "64"])
    args = parser.parse_args()

    with tempfile.TemporaryDirectory(prefix="histoscope-batch-bench-") as work:
        folder = os.path.join(work, "in")
        os.mkdir(folder)
        for i in range(args.images):
            with open(os.path.join(folder, f"{i:04d}.png"), "wb") as out:
                out.write(png(args.size, args.size, i))
        images = sorted(os.path.join(folder, name) for name in os.listdir(folder))
        env = dict(os.environ, HISTOSCOPE_CACHE_DIR=os.path.join(work, "cache"))
        device = ["--device", args.device] if args.device else []
        devices = ["--devices", args.device] if args.device else []
        batch = [args.cli, "batch", folder, "--out-dir", os.path.join(work, "batch-out"), "--jobs",
                 str(args.jobs), "--jsonl", os.path.join(work, "lines.jsonl")] + devices + args.stages
        loop_out = os.path.join(work, "loop-out")
        os.mkdir(loop_out)
        # The shell loop a user writes today: one process per image.
        script = 'for f in "$@"; do "$CLI" pipeline "$f" --out "$OUT/${f##*/}" ' + " ".join(
            f"'{a}'" for a in device + args.stages) + " >/dev/null || exit; done"
        loop = ["sh", "-c", script, "loop"] + images
        loop_env = dict(env, CLI=args.cli, OUT=loop_out)

        timed(batch, env)  # untimed: builds the programs into the cache, as a first run does
        timed(loop, loop_env)
        batch_rates, loop_rates, ratios = [], [], []
        for round_ in range(args.rounds):
            pair = [("batch", batch, env), ("loop", loop, loop_env)]
            if round_ % 2:
                pair.reverse()
            rate = {name: args.images / timed(command, environment) for name, command, environment in pair}
            batch_rates.append(rate["batch"])
            loop_rates.append(rate["loop"])
            ratios.append(rate["batch"] / rate["loop"])

    def row(name, values, unit):
        print(f"{name:<34} {min(values):9.2f} {statistics.median(values):9.2f} {max(values):9.2f}  {unit}")

    version = subprocess.run([args.cli, "--version"], capture_output=True, text=True).stdout.strip()
    print(f"{args.images} images of {args.size}x{args.size}, stages {' '.join(args.stages)}, {args.rounds} rounds; "
          f"{version}")
    print(f"{'':<34} {'min':>9} {'median':>9} {'max':>9}")
    row(f"batch --jobs {args.jobs}", batch_rates, "images/s")
    row("shell loop of pipeline", loop_rates, "images/s")
    row("batch / loop (per round)", ratios, "x")


if __name__ == "__main__":
    main()
