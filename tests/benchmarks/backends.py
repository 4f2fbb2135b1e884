#!/usr/bin/env python
"""hikeras on the numpy backend against the numba backend, interleaved.

    python tests/benchmarks/backends.py --workload cnn --rounds 2
    python tests/benchmarks/backends.py --workload predict,lstm --scale 0.5

Runs the shared reference workloads (`../shared/bench/workloads.py`, or
`$HIKERAS_BENCH_DIR`) as hikeras, alternating `HIKERAS_BACKEND=numpy` and
`HIKERAS_BACKEND=numba` in fresh processes, round after round, so both see
the same stretch of a shared machine's load. Prints each metric's median per
backend and the ratio numba / numpy (above 1: numba is faster; for latencies,
below 1). For ratios against PyTorch and Keras 3, run `run.py` with
`HIKERAS_BACKEND=numba` set. Compare ratios from one run, never absolute
numbers across runs.
"""

import argparse
import json
import os
import statistics
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))
BENCH_DIR = os.environ.get("HIKERAS_BENCH_DIR",
                           os.path.join(os.path.dirname(REPO), "shared", "bench"))
BACKENDS = ("numpy", "numba")


def _run(backend, workload, reps, scale):
    env = dict(os.environ, PYTHONPATH=REPO, HIKERAS_BACKEND=backend)
    out = subprocess.run(
        [sys.executable, os.path.join(BENCH_DIR, "workloads.py"), "--framework", "hikeras",
         "--workload", workload, "--reps", str(reps), "--scale", str(scale)],
        capture_output=True, text=True, env=env, check=True)
    return [json.loads(line) for line in out.stdout.splitlines() if line.startswith("{")]


def main():
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--workload", default="mlp,cnn,lstm,predict")
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--reps", type=int, default=2)
    parser.add_argument("--scale", type=float, default=1.0)
    args = parser.parse_args()
    for workload in args.workload.split(","):
        values = {}
        for round_index in range(args.rounds):
            order = BACKENDS if round_index % 2 == 0 else BACKENDS[::-1]
            for backend in order:
                for record in _run(backend, workload, args.reps, args.scale):
                    if isinstance(record.get("value"), (int, float)):
                        key = (record["metric"], record.get("unit") or "")
                        values.setdefault(key, {}).setdefault(backend, []).append(record["value"])
        for (metric, unit), by_backend in sorted(values.items()):
            medians = {b: statistics.median(v) for b, v in by_backend.items()}
            line = "  ".join(f"{b} {medians[b]:10.4g}" for b in BACKENDS if b in medians)
            ratio = (f"numba/numpy {medians['numba'] / medians['numpy']:.2f}"
                     if medians.get("numpy") and "numba" in medians else "")
            print(f"{workload:8s} {metric:28s} {unit:10s} {line}  {ratio}", flush=True)


if __name__ == "__main__":
    main()
