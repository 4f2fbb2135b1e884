#!/usr/bin/env python
"""A SimpleRNN model's training speed, numpy backend against numba, in one process.

    python tests/benchmarks/simple_rnn_model.py [--rounds 8] [--units 64] [--batch 64] [--op-only]

The model is the reference LSTM workload with a `SimpleRNN` in the LSTM's
place: Embedding(10000, 64) - SimpleRNN(units) - Dense(1, sigmoid), binary
cross-entropy, Adam, sequences of 100 steps. One model trains throughout;
each round runs one epoch of `fit` under each backend, back to back (the order
flips every round), so both see the same load. With `--op-only` the numba
backend runs throughout and only `simple_rnn_sequence` swaps between numpy's
kernels and the compiled ones (the other ops numba compiles, the embedding
gradient and Adam, then count on both sides). Prints each side's median
samples/s and the median of the rounds' ratios numba / numpy, with the number
of rounds numba won, by the wall clock and by the process's CPU time (which
other processes on a shared machine disturb less). Compare ratios, not
absolute numbers across runs.
"""

import argparse
import statistics
import time

import numpy as np

import hikeras
from hikeras import backend, layers

OP = "simple_rnn_sequence"
_KERNELS = {}    # "numpy"/"numba" -> (forward, vjp) of the op


def _select(name, op_only):
    """Runs everything on backend `name`, or (`op_only`) the numba backend with only the
    op's kernels taken from `name`."""
    if not op_only:
        backend.set_backend(name)
        return
    from hikeras.backend import numba_backend, numpy_backend

    backend.set_backend("numba")
    op = numba_backend.ops[OP]
    if not _KERNELS:
        _KERNELS["numba"] = (op.forward, op.vjp)
        _KERNELS["numpy"] = (numpy_backend.ops[OP].forward, numpy_backend.ops[OP].vjp)
    op.forward, op.vjp = _KERNELS[name]


def main():
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--rounds", type=int, default=8)
    parser.add_argument("--units", type=int, default=64)
    parser.add_argument("--batch", type=int, default=64)
    parser.add_argument("--samples", type=int, default=1280)
    parser.add_argument("--op-only", action="store_true",
                        help="swap only simple_rnn_sequence's kernels, under the numba backend")
    args = parser.parse_args()
    rng = np.random.default_rng(0)
    x = rng.integers(0, 10000, (args.samples, 100))
    y = rng.integers(0, 2, (args.samples, 1)).astype(np.float32)
    model = hikeras.Sequential([hikeras.Input((100,), dtype="int64"),
                                layers.Embedding(10000, 64), layers.SimpleRNN(args.units),
                                layers.Dense(1, activation="sigmoid")])
    model.compile(optimizer="adam", loss="binary_crossentropy")
    previous = backend.backend()
    speeds = {(name, clock): [] for name in ("numpy", "numba") for clock in ("wall", "cpu")}
    try:
        for name in ("numpy", "numba"):          # compile, or load from the cache
            _select(name, args.op_only)
            model.fit(x[:args.batch], y[:args.batch], batch_size=args.batch, verbose=0)
        for round_index in range(args.rounds):
            for name in (("numpy", "numba") if round_index % 2 == 0 else ("numba", "numpy")):
                _select(name, args.op_only)
                start, start_cpu = time.perf_counter(), time.process_time()
                model.fit(x, y, batch_size=args.batch, epochs=1, verbose=0, shuffle=False)
                speeds[name, "wall"].append(args.samples / (time.perf_counter() - start))
                speeds[name, "cpu"].append(args.samples / (time.process_time() - start_cpu))
    finally:
        if args.op_only:
            _select("numba", True)
        backend.set_backend(previous)
    label = f"SimpleRNN({args.units}) batch {args.batch}{' (op only)' if args.op_only else ''}"
    for clock in ("wall", "cpu"):
        numpy_speeds, numba_speeds = speeds["numpy", clock], speeds["numba", clock]
        ratios = [b / a for a, b in zip(numpy_speeds, numba_speeds)]
        print(f"{label}, {clock:4s}: numpy {statistics.median(numpy_speeds):8.0f} samples/s  "
              f"numba {statistics.median(numba_speeds):8.0f} samples/s  numba/numpy "
              f"{statistics.median(ratios):.2f}  (numba won {sum(r > 1 for r in ratios)}/"
              f"{len(ratios)} rounds)")


if __name__ == "__main__":
    main()
