#!/usr/bin/env python
"""Where a training step of each shared reference workload spends its time.

    python tests/benchmarks/profile_workloads.py [--workload mlp,cnn,lstm] [--steps 10]
    HIKERAS_BACKEND=numba python tests/benchmarks/profile_workloads.py

Builds each model exactly as `../shared/bench/workloads.py` does (or
$HIKERAS_BENCH_DIR), then runs `hikeras.utils.profile` on its batches and prints the
profiler's table: phases, the slowest ops (forward and gradient) and the layers, in
milliseconds per step. Op times are wall-clock on the calling thread, so work a
kernel hands to other threads is counted inside that kernel.
"""

import argparse
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))
BENCH_DIR = os.environ.get("HIKERAS_BENCH_DIR",
                           os.path.join(os.path.dirname(REPO), "shared", "bench"))


def main():
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--workload", default="mlp,cnn,lstm")
    parser.add_argument("--steps", type=int, default=10)
    args = parser.parse_args()
    sys.path[:0] = [REPO, BENCH_DIR]
    import workloads

    import hikeras

    runner = workloads.KerasRunner("hikeras")
    sizes = {"mlp": workloads.MLP, "cnn": workloads.CNN, "lstm": workloads.LSTM}
    for kind in args.workload.split(","):
        batch = sizes[kind]["batch"]
        x, y = workloads.DATA[kind](batch * (args.steps + 1))
        model = runner.build(kind)
        runner.compile(model, kind)
        print(f"== {kind} (backend {hikeras.backend.backend()}, batch {batch})")
        hikeras.utils.profile(model, x, y, batch_size=batch, steps=args.steps, warmup=2,
                              print_fn=print)


if __name__ == "__main__":
    main()
