"""Whole-model speed of two hikeras checkouts, their processes alternating round by round.

    python tests/benchmarks/ab_model.py --base BASE_PYTHON --new NEW_PYTHON latency
    python tests/benchmarks/ab_model.py --base BASE_PYTHON --new NEW_PYTHON train --rounds 12

Each Python is an interpreter whose `import hikeras` is one checkout (e.g. the
virtual environment of a worktree of `main` with `pip install -e .`). The model is
the reference MLP (784-512-512-10). `latency` times one-sample `model(x)` of the
`Sequential` and the functional form; `train` times `train_on_batch` on batches of
128 with Adam. A worker process times blocks of calls and reports each block's
median; the driver alternates base and new workers (the order flips every round)
and prints, per metric, the median over rounds and the new/base ratio. The machine
is shared, so compare the ratio, and repeat when the rounds disagree.
"""

import argparse
import json
import os
import statistics
import subprocess
import sys
import time

BLOCKS = 8


def _mlp(functional):
    import hikeras
    from hikeras import layers

    if functional:
        inputs = hikeras.Input((784,))
        x = layers.Dense(512, activation="relu")(inputs)
        x = layers.Dense(512, activation="relu")(x)
        return hikeras.Model(inputs, layers.Dense(10)(x))
    return hikeras.Sequential([hikeras.Input((784,)), layers.Dense(512, activation="relu"),
                               layers.Dense(512, activation="relu"), layers.Dense(10)])


def _block_medians(fn, calls):
    for _ in range(5):
        fn()
    medians = []
    for _ in range(BLOCKS):
        times = []
        for _ in range(calls):
            start = time.perf_counter()
            fn()
            times.append(time.perf_counter() - start)
        medians.append(statistics.median(times))
    return statistics.median(medians)


def worker(mode):
    import numpy as np

    import hikeras

    rng = np.random.default_rng(0)
    result = {}
    if mode == "latency":
        x = rng.standard_normal((1, 784), dtype=np.float32)
        for kind in ("sequential", "functional"):
            model = _mlp(kind == "functional")
            result[f"{kind} model(x)"] = _block_medians(
                lambda model=model: model(x, training=False), 100)
    else:
        x = rng.standard_normal((128, 784), dtype=np.float32)
        y = rng.integers(0, 10, 128)
        model = _mlp(False)
        model.compile(optimizer="adam",
                      loss=hikeras.losses.SparseCategoricalCrossentropy(from_logits=True))
        result["train_on_batch(128)"] = _block_medians(lambda: model.train_on_batch(x, y), 10)
    print(json.dumps(result))


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("mode", choices=("latency", "train"))
    parser.add_argument("--base", required=True, help="Python of the baseline checkout")
    parser.add_argument("--new", required=True, help="Python of the changed checkout")
    parser.add_argument("--rounds", type=int, default=8)
    parser.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.worker:
        return worker(args.mode)
    pythons = {"base": args.base, "new": args.new}
    env = dict(os.environ, OPENBLAS_NUM_THREADS=os.environ.get("OPENBLAS_NUM_THREADS", "1"))
    env.pop("PYTHONPATH", None)  # each interpreter imports its own checkout
    results = {}
    for round_index in range(args.rounds):
        order = ["base", "new"] if round_index % 2 == 0 else ["new", "base"]
        for name in order:
            out = subprocess.run([pythons[name], os.path.abspath(__file__), args.mode, "--worker",
                                  "--base", "-", "--new", "-"], capture_output=True, text=True,
                                 check=True, env=env, cwd=os.path.dirname(os.path.abspath(__file__)))
            for metric, value in json.loads(out.stdout).items():
                results.setdefault(metric, {}).setdefault(name, []).append(value)
    for metric, by_name in results.items():
        base, new = statistics.median(by_name["base"]), statistics.median(by_name["new"])
        print(f"{metric:24s} base {base * 1e3:8.3f} ms  new {new * 1e3:8.3f} ms  "
              f"new/base {new / base:.3f}")


if __name__ == "__main__":
    sys.exit(main())
