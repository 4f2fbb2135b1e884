#!/usr/bin/env python
"""MPIStrategy scaling: the MLP benchmark (784-512-512-10, batch 128 per rank) on 1 and 2 ranks.

    python tests/benchmarks/mpi_scaling.py [--steps 30]

It launches `mpiexec -n N python mpi_scaling.py --worker` for 1 rank with the
BLAS's own thread count, 1 rank with one BLAS thread (OMP_NUM_THREADS=1), and
2 ranks (one BLAS thread each on a 2-core machine, MPIStrategy's default),
and prints training samples/s, the step time, the time per step spent in the
gradient `Allreduce` (which includes waiting for the slowest rank) and, from
a separate loop of bare `Allreduce`s on a buffer of the gradients' size, the
pure transfer time and bandwidth that the projection in docs/distributed.md
starts from. Not part of the test run: wall-clock numbers depend on the
machine and on whatever else runs on it.
"""

import argparse
import json
import os
import shutil
import subprocess
import sys
import time

PER_RANK_BATCH = 128


def _worker(steps):
    import numpy as np

    import hikeras
    from hikeras import layers
    from hikeras.distribute import MPIStrategy

    strategy = MPIStrategy()
    n = strategy.num_replicas_in_sync
    rng = np.random.default_rng(0)
    x = rng.normal(size=(PER_RANK_BATCH * n * steps, 784)).astype("float32")
    y = rng.integers(0, 10, size=len(x))
    hikeras.utils.set_random_seed(0)
    with strategy.scope():
        model = hikeras.Sequential([hikeras.Input((784,)), layers.Dense(512, activation="relu"),
                                    layers.Dense(512, activation="relu"), layers.Dense(10)])
        model.compile(optimizer="adam",
                      loss=hikeras.losses.SparseCategoricalCrossentropy(from_logits=True))
    reduce_time = [0.0]
    reduce_gradients = strategy.reduce_gradients

    def timed_reduce(grads):
        start = time.perf_counter()
        out = reduce_gradients(grads)
        reduce_time[0] += time.perf_counter() - start
        return out

    strategy.reduce_gradients = timed_reduce
    fit = {"batch_size": PER_RANK_BATCH * n, "epochs": 1, "verbose": 0, "shuffle": False}
    model.fit(x[:PER_RANK_BATCH * n * 3], y[:PER_RANK_BATCH * n * 3], **fit)  # warm up
    reduce_time[0] = 0.0
    strategy.barrier()
    start = time.perf_counter()
    model.fit(x, y, **fit)
    elapsed = time.perf_counter() - start

    grad_floats = sum(w.value.size for w in model.trainable_weights)
    transfer = None
    if n > 1:
        from mpi4py import MPI

        buffer = np.ones(grad_floats, np.float32)
        comm = MPI.COMM_WORLD
        comm.Allreduce(MPI.IN_PLACE, buffer)
        comm.Barrier()
        start = time.perf_counter()
        for _ in range(steps):
            comm.Allreduce(MPI.IN_PLACE, buffer)
        transfer = (time.perf_counter() - start) / steps
    if strategy.is_chief:
        print(json.dumps({
            "ranks": n, "blas_threads": strategy.blas_threads,
            "samples_per_s": len(x) / elapsed, "step_ms": 1e3 * elapsed / steps,
            "reduce_ms": 1e3 * reduce_time[0] / steps,
            "bare_allreduce_ms": None if transfer is None else 1e3 * transfer,
            "gradient_bytes": 4 * grad_floats}))


def _launch(ranks, threads, steps):
    here = os.path.abspath(__file__)
    env = {k: v for k, v in os.environ.items()
           if k not in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS")}
    if threads is not None:
        env["OMP_NUM_THREADS"] = str(threads)
    mpiexec = os.path.join(os.path.dirname(sys.executable), "mpiexec")
    mpiexec = mpiexec if os.path.exists(mpiexec) else shutil.which("mpiexec")
    out = subprocess.run([mpiexec, "-n", str(ranks), sys.executable, here, "--worker",
                          "--steps", str(steps)], capture_output=True, text=True, check=True,
                         env=env)
    result = json.loads(out.stdout.strip().splitlines()[-1])
    result["blas_threads"] = threads or result["blas_threads"] or "default"
    return result


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--steps", type=int, default=30)
    parser.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.worker:
        _worker(args.steps)
        return
    results = [_launch(ranks, threads, args.steps) for ranks, threads in
               ((1, None), (1, 1), (2, None))]
    base = max(r["samples_per_s"] for r in results if r["ranks"] == 1)
    print(f"{'ranks':>5} {'BLAS thr':>8} {'samples/s':>10} {'speedup':>8} {'step ms':>8} "
          f"{'allreduce ms':>12} {'bare allreduce ms':>17}")
    for r in results:
        bare = "-" if r["bare_allreduce_ms"] is None else f"{r['bare_allreduce_ms']:.2f}"
        print(f"{r['ranks']:>5} {r['blas_threads']!s:>8} {r['samples_per_s']:>10.0f} "
              f"{r['samples_per_s'] / base:>8.2f} {r['step_ms']:>8.2f} {r['reduce_ms']:>12.2f} "
              f"{bare:>17}")
    grad_bytes = results[0]["gradient_bytes"]
    for r in results:
        if r["bare_allreduce_ms"]:
            n = r["ranks"]
            bandwidth = 2 * (n - 1) / n * grad_bytes / (r["bare_allreduce_ms"] / 1e3)
            print(f"{n} ranks: {grad_bytes / 1e6:.2f} MB of gradients per step; ring-equivalent "
                  f"allreduce bandwidth {bandwidth / 1e9:.2f} GB/s")


if __name__ == "__main__":
    main()
