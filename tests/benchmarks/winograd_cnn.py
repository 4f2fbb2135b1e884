#!/usr/bin/env python
"""The benchmark CNN under the numba backend, with and without Winograd, alternating in one process.

    python tests/benchmarks/winograd_cnn.py --rounds 8

Builds the reference CNN (28x28x1 - Conv2D(32, 3, relu) - Conv2D(64, 3, relu) -
MaxPool2 - Flatten - Dense(128, relu) - Dense(10), Adam, batch 128) once and
times, round after round, a training epoch, a batch-1000 prediction and
one-sample `model(x)` calls with the 3x3 convolutions on Winograd's
algorithm and on im2col (the numba backend's channel threshold raised out
of reach), the order flipping every round. Prints each median and the
Winograd / im2col speed ratio with the number of rounds Winograd won:
the machine is shared, so trust the ratio when most rounds agree.
"""

import argparse
import statistics
import time

import numpy as np


def _model(hikeras):
    layers = hikeras.layers
    model = hikeras.Sequential([
        hikeras.Input((28, 28, 1)), layers.Conv2D(32, 3, activation="relu"),
        layers.Conv2D(64, 3, activation="relu"), layers.MaxPooling2D(2), layers.Flatten(),
        layers.Dense(128, activation="relu"), layers.Dense(10)])
    model.compile(optimizer=hikeras.optimizers.Adam(1e-3),
                  loss=hikeras.losses.SparseCategoricalCrossentropy(from_logits=True))
    return model


def _time(fn):
    start = time.perf_counter()
    fn()
    return time.perf_counter() - start


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=8)
    parser.add_argument("--samples", type=int, default=1280, help="training samples per round")
    args = parser.parse_args()

    from hikeras.backend.numba_backend import winograd_conv

    import hikeras

    hikeras.backend.set_backend("numba")
    hikeras.utils.set_random_seed(0)
    rng = np.random.default_rng(0)
    x = rng.random((args.samples, 28, 28, 1), np.float32)
    y = rng.integers(0, 10, args.samples)
    x_predict = rng.random((5000, 28, 28, 1), np.float32)
    one = x_predict[:1]
    model = _model(hikeras)
    threshold = winograd_conv.MIN_CHANNELS
    modes = {"winograd": threshold, "im2col": 1 << 30}
    tasks = {
        "train (samples/s)": (lambda: model.fit(x, y, batch_size=128, epochs=1, verbose=0),
                              args.samples),
        "predict batch 1000 (samples/s)": (
            lambda: model.predict(x_predict, batch_size=1000, verbose=0), len(x_predict)),
        "model(x), 20 calls (calls/s)": (
            lambda: [model(one, training=False) for _ in range(20)], 20),
    }
    times = {(task, mode): [] for task in tasks for mode in modes}
    for mode, value in modes.items():   # warm up: compile, trace
        winograd_conv.MIN_CHANNELS = value
        for fn, _ in tasks.values():
            fn()
    for round_ in range(args.rounds):
        order = list(modes) if round_ % 2 == 0 else list(modes)[::-1]
        for task, (fn, _) in tasks.items():
            for mode in order:
                winograd_conv.MIN_CHANNELS = modes[mode]
                times[task, mode].append(_time(fn))
    winograd_conv.MIN_CHANNELS = threshold
    for task, (_, count) in tasks.items():
        new, old = times[task, "winograd"], times[task, "im2col"]
        wins = sum(a < b for a, b in zip(new, old))
        print(f"{task}: winograd {count / statistics.median(new):,.0f}, "
              f"im2col {count / statistics.median(old):,.0f}, ratio "
              f"{statistics.median(old) / statistics.median(new):.2f} "
              f"(winograd faster in {wins}/{args.rounds} rounds)")


if __name__ == "__main__":
    main()
