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

`--kind numpy` (default) makes the preprocessing CPU work, which can only
overlap with training on a spare core: on 2 cores, run with
`OPENBLAS_NUM_THREADS=1` so the training step leaves one core free, on an
otherwise idle machine. `--kind wait` makes it a wait of the same length
(like reading files from a slow disk), which shows the pipeline's overlap
independently of free cores.

    python tests/benchmarks/input_pipeline.py [--rounds 5] [--workers 2] [--kind numpy|wait]
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

BATCH, FEATURES, BATCHES = 256, 784, 16


def build_model():
    hikeras.utils.set_random_seed(0)
    model = hikeras.Sequential([hikeras.Input((FEATURES,)), layers.Dense(512, activation="relu"),
                                layers.Dense(512, activation="relu"),
                                layers.Dense(10, activation="softmax")])
    model.compile(optimizer="adam", loss="sparse_categorical_crossentropy")
    return model


def make_preprocess(repeats):
    """Per-batch augmentation: `repeats` rounds of element-wise numpy work.

    The work runs on an 8x wider copy of the batch, so each numpy call is
    long (milliseconds) and releases the GIL for most of the batch's cost;
    a thread that needs the GIL between thousands of tiny calls would
    instead queue behind the training loop's Python code.
    """
    def preprocess(x, y):
        out = np.tile(x, (1, 8))
        for _ in range(repeats):
            np.sin(out, out=out)
            np.multiply(out, 1.7, out=out)
            np.abs(out, out=out)
            np.sqrt(out, out=out)
        return out.reshape(len(x), 8, -1).mean(axis=1, dtype="float32"), y
    return preprocess


def calibrate(step, x, y):
    """The number of repeats that makes one batch's preprocessing cost about `step`."""
    base = min(timed(lambda: make_preprocess(0)(x[:BATCH], y[:BATCH])) for _ in range(3))
    per_repeat = min(timed(lambda: make_preprocess(4)(x[:BATCH], y[:BATCH]))
                     for _ in range(3)) / 4 - base / 4
    repeats = max(1, round((step - base) / max(per_repeat, 1e-6)))
    return repeats, make_preprocess(repeats)


def timed(fn):
    start = time.perf_counter()
    fn()
    return time.perf_counter() - start


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--kind", choices=["numpy", "wait"], default="numpy")
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
    if args.kind == "wait":
        def preprocess(x, y):
            time.sleep(step)
            return x, y
        repeats = 0
    else:
        repeats, preprocess = calibrate(step, x, y)

    serial_ds = ready.map(preprocess)
    overlapped_ds = ready.map(preprocess, num_parallel_calls=args.workers).prefetch(2)
    runs = {
        "compute": lambda: model.fit(ready, epochs=1, verbose=0),
        "preprocess": lambda: list(serial_ds),
        "serial": lambda: model.fit(serial_ds, epochs=1, verbose=0),
        "overlapped": lambda: model.fit(overlapped_ds, epochs=1, verbose=0),
    }
    times = {name: [] for name in runs}
    cpu_start, wall_start = time.process_time(), time.perf_counter()
    for _ in range(args.rounds):
        for name, run in runs.items():
            times[name].append(timed(run))
    cores_used = (time.process_time() - cpu_start) / (time.perf_counter() - wall_start)
    for name, values in times.items():
        print(f"{name:11s} median {statistics.median(values) * 1000:7.1f} ms/epoch, best "
              f"{min(values) * 1000:7.1f}  (runs: {', '.join(f'{v * 1000:.0f}' for v in values)})")
    for label, pick in (("median", statistics.median), ("best", min)):
        report({name: pick(values) for name, values in times.items()}, label)
    print(f"preprocessing: {args.kind} ({repeats} repeats per batch); cores: "
          f"{os.cpu_count()}; map workers: {args.workers}; load average: "
          f"{os.getloadavg()[0]:.1f}; cores this process got on average: {cores_used:.2f}")


def report(t, label):
    """The ratios, from the median (or best) time of each configuration."""
    bound = max(t["compute"], t["preprocess"])
    print(f"{label}: overlapped / max(compute, preprocess) = {t['overlapped'] / bound:.2f}; "
          f"overlapped / serial = {t['overlapped'] / t['serial']:.2f}; "
          f"serial / (compute + preprocess) = "
          f"{t['serial'] / (t['compute'] + t['preprocess']):.2f}")


if __name__ == "__main__":
    main()
