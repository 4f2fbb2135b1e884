#!/usr/bin/env python
"""Does `Dataset.map(num_parallel_calls=k).prefetch(n)` overlap input work with training?

Not part of the test run. Builds an MLP whose training step costs about as
much as a per-batch preprocessing function (numpy element-wise work, which
releases the GIL), then times one epoch of `fit` four ways, interleaved
over several rounds (median of each):

    compute      fit on ready batches (no preprocessing)
    preprocess   iterate the preprocessing pipeline alone (no training)
    serial       fit with map() and no prefetch: expect compute + preprocess
    overlapped   fit with map(num_parallel_calls=k) + prefetch: expect
                 max(compute, preprocess)

and prints overlapped / max(compute, preprocess) (1.0 is perfect overlap)
and overlapped / serial.

    python tests/benchmarks/input_pipeline.py [--rounds 5] [--workers 2]
"""

import argparse
import os
import statistics
import sys
import time

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))

import hikeras  # noqa: E402
from hikeras import layers  # noqa: E402
from hikeras.data import Dataset  # noqa: E402

BATCH, FEATURES, BATCHES = 256, 784, 24


def build_model():
    hikeras.utils.set_random_seed(0)
    model = hikeras.Sequential([hikeras.Input((FEATURES,)), layers.Dense(512, activation="relu"),
                                layers.Dense(512, activation="relu"),
                                layers.Dense(10, activation="softmax")])
    model.compile(optimizer="adam", loss="sparse_categorical_crossentropy")
    return model


def make_preprocess(repeats):
    """Per-batch augmentation: `repeats` rounds of element-wise numpy work."""
    def preprocess(x, y):
        out = x
        for _ in range(repeats):
            out = np.sqrt(np.abs(np.sin(out) * 1.7 + 0.1))
        return out.astype("float32"), y
    return preprocess


def timed(fn):
    start = time.perf_counter()
    fn()
    return time.perf_counter() - start


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--workers", type=int, default=2)
    args = parser.parse_args()

    rng = np.random.default_rng(0)
    x = rng.random((BATCH * BATCHES, FEATURES), dtype=np.float32)
    y = rng.integers(0, 10, BATCH * BATCHES)
    ready = Dataset.from_tensor_slices((x, y)).batch(BATCH).cache()
    list(ready)  # fill the cache
    model = build_model()
    model.fit(ready, epochs=1, verbose=0)  # warm-up

    # Calibrate the preprocessing to cost about one training step per batch.
    step = timed(lambda: model.fit(ready, epochs=1, verbose=0)) / BATCHES
    one = timed(lambda: make_preprocess(1)(x[:BATCH], y[:BATCH]))
    repeats = max(1, round(step / max(one, 1e-6)))
    preprocess = make_preprocess(repeats)

    serial_ds = ready.map(preprocess)
    overlapped_ds = ready.map(preprocess, num_parallel_calls=args.workers).prefetch(2)
    runs = {
        "compute": lambda: model.fit(ready, epochs=1, verbose=0),
        "preprocess": lambda: list(serial_ds),
        "serial": lambda: model.fit(serial_ds, epochs=1, verbose=0),
        "overlapped": lambda: model.fit(overlapped_ds, epochs=1, verbose=0),
    }
    times = {name: [] for name in runs}
    for _ in range(args.rounds):
        for name, run in runs.items():
            times[name].append(timed(run))
    median = {name: statistics.median(values) for name, values in times.items()}
    for name, value in median.items():
        print(f"{name:11s} {value * 1000:8.1f} ms/epoch  (runs: "
              f"{', '.join(f'{v * 1000:.0f}' for v in times[name])})")
    bound = max(median["compute"], median["preprocess"])
    print(f"preprocessing repeats per batch: {repeats}; cores: {os.cpu_count()}; "
          f"map workers: {args.workers}")
    print(f"ratio overlapped / max(compute, preprocess): {median['overlapped'] / bound:.2f}")
    print(f"ratio overlapped / serial: {median['overlapped'] / median['serial']:.2f}")
    print(f"ratio serial / (compute + preprocess): "
          f"{median['serial'] / (median['compute'] + median['preprocess']):.2f}")


if __name__ == "__main__":
    main()
