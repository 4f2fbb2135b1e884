#!/usr/bin/env python
"""Saving/loading throughput against plain h5py, the disk-bound limit.

A Dense-only model, 6 x Dense(4096) on a 4096 input (100.7 M float32
parameters, as in the shared `io` workload). Per rep, interleaved:

* `save_weights` vs writing the same arrays with h5py (`create_dataset(data=...)`),
  with and without the fsync every atomic save does;
* `load_weights` vs h5py `read_direct` into preallocated arrays;
* `load_model` vs building the model and calling `load_weights`.

Targets (issue #5): save/load >= 0.8x the h5py throughput, `load_model`
<= 1.5x build + `load_weights`. Not part of the test run:

    python tests/benchmarks/io_bench.py [--reps 3] [--suffix .weights.h5] [--width 4096]
"""

import argparse
import os
import statistics
import tempfile
import time

import h5py
import numpy as np

import hikeras
from hikeras import layers


def build(width, depth):
    return hikeras.Sequential([hikeras.Input((width,))]
                              + [layers.Dense(width) for _ in range(depth)])


def timed(fn):
    start = time.perf_counter()
    fn()
    return time.perf_counter() - start


def main():
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--reps", type=int, default=3)
    parser.add_argument("--width", type=int, default=4096)
    parser.add_argument("--depth", type=int, default=6)
    parser.add_argument("--suffix", default=".weights.h5", choices=[".weights.h5", ".h5"])
    parser.add_argument("--dir", default=None, help="where to write (default: a temp dir)")
    args = parser.parse_args()
    model = build(args.width, args.depth)
    arrays = [v.value for v in model.weights]
    buffers = [np.empty_like(a) for a in arrays]
    megabytes = sum(a.nbytes for a in arrays) / 1e6
    directory = tempfile.mkdtemp(dir=args.dir)
    weights = os.path.join(directory, "bench" + args.suffix)
    raw = os.path.join(directory, "raw.h5")
    full = os.path.join(directory, "model.h5")

    def raw_write():
        with h5py.File(raw, "w") as f:
            for i, a in enumerate(arrays):
                f.create_dataset(f"a{i}", data=a)

    def raw_write_fsync():  # what an atomic save must also pay: the data on disk
        raw_write()
        fd = os.open(raw, os.O_RDONLY)
        try:
            os.fsync(fd)
        finally:
            os.close(fd)

    def raw_read():
        with h5py.File(raw, "r") as f:
            for i, b in enumerate(buffers):
                f[f"a{i}"].read_direct(b)

    def build_and_load():
        build(args.width, args.depth).load_weights(full)

    times = {k: [] for k in ("save", "raw_w", "raw_ws", "load", "raw_r", "load_model",
                             "build_load")}
    try:
        for rep in range(args.reps + 1):  # rep 0 warms the page cache and allocator
            sample = {
                "save": timed(lambda: model.save_weights(weights)),
                "raw_w": timed(raw_write),
                "raw_ws": timed(raw_write_fsync),
                "load": timed(lambda: model.load_weights(weights)),
                "raw_r": timed(raw_read),
            }
            model.save(full)
            sample["load_model"] = timed(lambda: hikeras.models.load_model(full))
            sample["build_load"] = timed(build_and_load)
            if rep:
                for k, v in sample.items():
                    times[k].append(v)
    finally:
        for path in (weights, raw, full):
            if os.path.exists(path):
                os.remove(path)
        os.rmdir(directory)
    med = {k: statistics.median(v) for k, v in times.items()}
    print(f"{megabytes:.0f} MB of float32 weights, '{args.suffix}', median of {args.reps} reps")
    for ours, limit, label in (("save", "raw_w", "save_weights"), ("load", "raw_r", "load_weights")):
        print(f"{label:13s} {med[ours]:.3f} s ({megabytes / med[ours]:.0f} MB/s); plain h5py "
              f"{med[limit]:.3f} s; throughput ratio {med[limit] / med[ours]:.2f} (target >= 0.8)")
    print(f"save_weights vs plain h5py + fsync {med['raw_ws']:.3f} s (atomic saves fsync): "
          f"ratio {med['raw_ws'] / med['save']:.2f}")
    print(f"load_model    {med['load_model']:.3f} s; build + load_weights {med['build_load']:.3f} "
          f"s; ratio {med['load_model'] / med['build_load']:.2f} (target <= 1.5)")


if __name__ == "__main__":
    main()
