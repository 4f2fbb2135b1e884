#!/usr/bin/env python
"""What the numba backend costs at start-up: `import hikeras`, building a model and
its first training step, in fresh interpreters, numba against numpy.

    python tests/benchmarks/first_step.py [--rounds 5] [--model cnn|lstm|all]

Each round runs one fresh process per backend, alternating which goes first, and
times from before `import hikeras` to the end of the first `train_on_batch`. The
kernel cache is warmed by one untimed numba process first, so the numbers are the
warm-cache cost that issue #20 bounds (at most 1.5 s more than numpy). Prints the
median of each backend and the median of the per-round differences.
"""

import argparse
import json
import os
import statistics
import subprocess
import sys

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

CHILD = r"""
import time
t0 = time.perf_counter()
import numpy as np
import hikeras
from hikeras import layers
kind = {model!r}
if kind == "cnn":
    model = hikeras.Sequential([
        hikeras.Input((28, 28, 1)), layers.Conv2D(16, 3, activation="relu"),
        layers.DepthwiseConv2D(3, activation="relu"), layers.MaxPooling2D(2),
        layers.Flatten(), layers.Dense(10)])
    x = np.random.default_rng(0).standard_normal((32, 28, 28, 1)).astype("float32")
    y = np.arange(32) % 10
    loss = "sparse_categorical_crossentropy"
else:
    model = hikeras.Sequential([
        hikeras.Input((20,), dtype="int32"), layers.Embedding(100, 16),
        layers.LSTM(16), layers.Dense(1, activation="sigmoid")])
    x = np.random.default_rng(0).integers(0, 100, (32, 20)).astype("int32")
    y = (np.arange(32) % 2).astype("float32")
    loss = "binary_crossentropy"
model.compile(optimizer="adam", loss=loss)
model.train_on_batch(x, y)
print(time.perf_counter() - t0)
"""


def _run(backend, model):
    env = dict(os.environ, HIKERAS_BACKEND=backend, PYTHONPATH=REPO)
    out = subprocess.run([sys.executable, "-c", CHILD.format(model=model)], env=env,
                         capture_output=True, text=True, check=True)
    return float(out.stdout.split()[-1])


def main():
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--model", default="all", choices=("cnn", "lstm", "all"))
    args = parser.parse_args()
    for model in ("cnn", "lstm") if args.model == "all" else (args.model,):
        _run("numba", model)   # warms the kernel cache
        times = {"numpy": [], "numba": []}
        for round_index in range(args.rounds):
            order = ("numpy", "numba") if round_index % 2 == 0 else ("numba", "numpy")
            for backend in order:
                times[backend].append(_run(backend, model))
        differences = [b - a for a, b in zip(times["numpy"], times["numba"])]
        print(json.dumps({"model": model,
                          "numpy_s": round(statistics.median(times["numpy"]), 3),
                          "numba_s": round(statistics.median(times["numba"]), 3),
                          "numba_minus_numpy_s": round(statistics.median(differences), 3),
                          "load_average": round(os.getloadavg()[0], 2)}))


if __name__ == "__main__":
    main()
