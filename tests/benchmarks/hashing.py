"""Speed of Hashing and HashedCrossing on 100,000 strings, optionally next to Keras 3.

    python tests/benchmarks/hashing.py            # hikeras alone
    python tests/benchmarks/hashing.py --keras    # and Keras 3 on TensorFlow (~/.venvs/tf)

The strings are words of 2 to 40 bytes, ASCII and UTF-8. Each case is timed
as the median of 5 calls (after one warm-up call), in this process and, with
`--keras`, in a Keras process on the same strings.
"""

import argparse
import json
import os
import statistics
import subprocess
import sys
import time

import numpy as np

TF_PYTHON = os.path.expanduser(os.environ.get("TF_PYTHON", "~/.venvs/tf/bin/python"))


def strings(count=100_000, seed=0):
    rng = np.random.default_rng(seed)
    letters = np.array(list("abcdefghijklmnopqrstuvwxyzéü漢"))
    return np.array(["".join(rng.choice(letters, size=n)) for n in rng.integers(2, 40, count)])


def time_cases(layers_module, words):
    ids = np.arange(len(words)) % 977
    cases = {
        "Hashing (FarmHash)": lambda: layers_module.Hashing(num_bins=1000)(words),
        "Hashing (salted SipHash)": lambda: layers_module.Hashing(num_bins=1000, salt=7)(words),
        "Hashing of integers": lambda: layers_module.Hashing(num_bins=1000)(ids),
        "HashedCrossing": lambda: layers_module.HashedCrossing(num_bins=1000)((words, ids)),
    }
    out = {}
    for name, run in cases.items():
        run()
        times = []
        for _ in range(5):
            start = time.perf_counter()
            run()
            times.append(time.perf_counter() - start)
        out[name] = statistics.median(times)
    return out


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--keras", action="store_true", help="also time Keras 3 on TensorFlow")
    parser.add_argument("--worker", choices=["keras"], help=argparse.SUPPRESS)
    args = parser.parse_args()
    words = strings()
    if args.worker == "keras":
        import keras
        print(json.dumps(time_cases(keras.layers, words)))
        return
    from hikeras import layers
    ours = time_cases(layers, words)
    theirs = {}
    if args.keras:
        env = dict(os.environ, KERAS_BACKEND="tensorflow", TF_CPP_MIN_LOG_LEVEL="3",
                   CUDA_VISIBLE_DEVICES="")
        result = subprocess.run([TF_PYTHON, __file__, "--worker", "keras"], env=env,
                                capture_output=True, text=True, check=True)
        theirs = json.loads(result.stdout.strip().splitlines()[-1])
    for name, seconds in ours.items():
        line = f"{name:26s} hikeras {seconds * 1e3:7.1f} ms"
        if name in theirs:
            line += f"   Keras {theirs[name] * 1e3:7.1f} ms   ratio {seconds / theirs[name]:.2f}"
        print(line)


if __name__ == "__main__":
    sys.exit(main())
