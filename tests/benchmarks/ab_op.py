#!/usr/bin/env python
"""One backend op against its version at a git revision, alternating in one process.

    python tests/benchmarks/ab_op.py --rev HEAD~1 --op lstm_sequence --layer LSTM --pairs 20

On a shared virtual machine the speed of a whole process drifts by up to 2x
from one minute to the next, so timing two versions in separate processes,
even interleaved, hides changes of a few percent. Here both versions run in
the same process: the revision's `backend/` is extracted into a temporary
package of its own (its relative imports stay inside it), and the op's entry
in the active op table is swapped between the two versions epoch by epoch,
on the LSTM benchmark's model (`Embedding(10000, 64) - <layer>(64) -
Dense(1, sigmoid)`, sequences of 100, batch 64). Prints the medians and the
per-pair ratios (new / old); trust a change when most pairs agree.
"""

import argparse
import importlib
import os
import statistics
import subprocess
import sys
import tempfile
import time

import numpy as np

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def _old_op(rev, op_name, workdir):
    """The op `op_name` as the backend at `rev` registers it."""
    package = "_ab_backend"
    target = os.path.join(workdir, package)
    archive = subprocess.run(["git", "-C", REPO, "archive", rev, "backend"],
                             check=True, capture_output=True).stdout
    subprocess.run(["tar", "-x", "-C", workdir], input=archive, check=True)
    os.rename(os.path.join(workdir, "backend"), target)
    # An empty package __init__: the real one selects a backend by its
    # installed name, which is the working tree's.
    open(os.path.join(target, "__init__.py"), "w").close()
    sys.path.insert(0, workdir)
    importlib.import_module(f"{package}.numpy_backend")
    registry = importlib.import_module(f"{package}.numpy_backend._registry")
    return registry.ops[op_name]


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--rev", required=True, help="git revision of the old version")
    ap.add_argument("--op", default="lstm_sequence", help="registered op name")
    ap.add_argument("--layer", default="LSTM", help="recurrent layer class of the model")
    ap.add_argument("--pairs", type=int, default=20)
    ap.add_argument("--samples", type=int, default=1280, help="samples per timed epoch")
    args = ap.parse_args()

    sys.path.insert(0, REPO)
    import hikeras as K
    from hikeras.backend import dispatch

    table = dispatch.get_op_table()
    new = table[args.op]
    with tempfile.TemporaryDirectory() as workdir:
        old = _old_op(args.rev, args.op, workdir)
        K.utils.set_random_seed(1234)
        rng = np.random.default_rng(0)
        x = rng.integers(0, 10000, (args.samples, 100)).astype(np.int32)
        y = rng.integers(0, 2, args.samples).astype(np.float32)
        model = K.Sequential([K.Input(shape=(100,), dtype="int32"),
                              K.layers.Embedding(10000, 64),
                              getattr(K.layers, args.layer)(64),
                              K.layers.Dense(1, activation="sigmoid")])
        model.compile(optimizer=K.optimizers.Adam(1e-3), loss=K.losses.BinaryCrossentropy())
        model.fit(x[:256], y[:256], batch_size=64, epochs=1, verbose=0)
        rates = {"old": [], "new": []}
        for i in range(args.pairs):
            order = (("old", old), ("new", new)) if i % 2 else (("new", new), ("old", old))
            for name, op in order:
                table[args.op] = op
                start = time.perf_counter()
                model.fit(x, y, batch_size=64, epochs=1, verbose=0)
                rates[name].append(args.samples / (time.perf_counter() - start))
        table[args.op] = new
    old_rate, new_rate = statistics.median(rates["old"]), statistics.median(rates["new"])
    pairs = [n / o for o, n in zip(rates["old"], rates["new"])]
    print(f"{args.op} at {args.rev}: {old_rate:.0f} samples/s; working tree: {new_rate:.0f} "
          f"samples/s; new / old {new_rate / old_rate:.3f} (median pair "
          f"{statistics.median(pairs):.3f}, {sum(p > 1 for p in pairs)} of {len(pairs)} "
          "pairs faster)")
    print("pairs:", " ".join(f"{p:.3f}" for p in pairs))


if __name__ == "__main__":
    main()
