"""Measures what `open_h5`'s metadata walk (forked child, time limit) adds to
loading a ~100M-parameter model's weights (issue #21: at most 10% or 50 ms).

Run: python scripts/measure_h5_watchdog.py [folder]
"""

import os
import sys
import tempfile
import time

import numpy as np

import hikeras
from hikeras.saving import h5_open


def main(folder):
    model = hikeras.Sequential([hikeras.Input((5000,))] +
                               [hikeras.layers.Dense(5000) for _ in range(4)])
    print(f"parameters: {model.count_params():,}")
    path = os.path.join(folder, "big.weights.h5")
    model.save_weights(path)
    model.load_weights(path)  # warm the page cache
    timings = {}
    for label, walk in (("with watchdog", h5_open._walk_in_child), ("without", None)):
        runs = []
        for _ in range(5):
            original = h5_open._walk_in_child
            if walk is None:
                h5_open._walk_in_child = lambda p: None
            start = time.perf_counter()
            model.load_weights(path)
            runs.append(time.perf_counter() - start)
            h5_open._walk_in_child = original
        timings[label] = float(np.median(runs))
        print(f"load {label}: median {timings[label] * 1000:.1f} ms of {len(runs)}")
    extra = timings["with watchdog"] - timings["without"]
    print(f"watchdog cost: {extra * 1000:.1f} ms ({100 * extra / timings['without']:.1f}%)")


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else tempfile.mkdtemp())
