#!/usr/bin/env python
"""hikeras benchmarks, side by side with PyTorch CPU and the plain-numpy reference.

Not part of the default test run (wall-clock numbers do not belong in tests).

    python tests/benchmarks/run.py train --workload mlp [--reps 3]
    python tests/benchmarks/run.py latency [--rounds 5]
    python tests/benchmarks/run.py import

`train` drives the shared reference workloads (`../shared/bench/`, or $HIKERAS_BENCH_DIR)
with their interleaving driver, so all frameworks are timed in the same stretch of time,
and prints throughput ratios against the better of PyTorch's 1- and 2-thread runs and of
the plain-numpy reference's. `latency` times single-sample inference of the MLP
(`model(x)`, `predict(x)`) against PyTorch's `model(x)`, alternating processes round by
round. `import` times `import hikeras` in fresh interpreters.

PyTorch comes from a separate virtual environment (never a dependency):
    python3 -m venv ~/.venvs/torch && ~/.venvs/torch/bin/pip install torch==2.13.0 numpy h5py
and is found through $TORCH_PYTHON (default ~/.venvs/torch/bin/python). `train --keras`
also times Keras 3 from $KERAS_PYTHON (default ~/.venvs/tf/bin/python, a virtual
environment with `pip install tensorflow-cpu`), for the targets stated against Keras.
"""

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))
BENCH_DIR = os.environ.get("HIKERAS_BENCH_DIR",
                           os.path.join(os.path.dirname(REPO), "shared", "bench"))
TORCH_PYTHON = os.environ.get("TORCH_PYTHON", os.path.expanduser("~/.venvs/torch/bin/python"))
KERAS_PYTHON = os.environ.get("KERAS_PYTHON", os.path.expanduser("~/.venvs/tf/bin/python"))


def _best(records, frameworks, metric):
    values = [r["value"] for r in records
              if r["framework"] in frameworks and r["metric"] == metric and r["value"]]
    return max(values) if values else None


def train(args):
    out = tempfile.NamedTemporaryFile(suffix=".jsonl", delete=False).name
    log = out + ".log"
    frameworks = [f"hikeras={sys.executable}", f"numpy={sys.executable}",
                  f"numpy1={sys.executable}"]
    if os.path.exists(TORCH_PYTHON):
        frameworks += [f"torch={TORCH_PYTHON}", f"torch1={TORCH_PYTHON}"]
    if args.keras:
        if not os.path.exists(KERAS_PYTHON):
            sys.exit(f"--keras needs Keras 3 at $KERAS_PYTHON={KERAS_PYTHON}")
        frameworks.append(f"keras={KERAS_PYTHON}")
    cmd = [sys.executable, os.path.join(BENCH_DIR, "driver.py"), "--workload", args.workload,
           "--reps", str(args.reps), "--scale", str(args.scale), "--out", out, "--log", log,
           *frameworks]
    env = dict(os.environ, PYTHONPATH=REPO)
    subprocess.run(cmd, check=False, env=env)
    records = [json.loads(line) for line in open(out) if line.strip()]
    for r in records:
        print(f"{r['framework']:8s} {r['metric']:26s} {r['value']!s:>12.10} {r.get('unit') or ''}")
    metric = {"mlp": "train_samples_per_s", "cnn": "train_samples_per_s",
              "lstm": "train_samples_per_s", "predict": "predict_samples_per_s"}.get(args.workload)
    if metric:
        ours = _best(records, {"hikeras"}, metric)
        torch = _best(records, {"torch", "torch1"}, metric)
        numpy_ref = _best(records, {"numpy", "numpy1"}, metric)
        if ours and torch:
            print(f"ratio hikeras / PyTorch (best of 1, 2 threads): {ours / torch:.2f}")
        if ours and numpy_ref:
            print(f"ratio hikeras / plain numpy (best of 1, 2 threads): {ours / numpy_ref:.2f}")
        keras = _best(records, {"keras"}, metric)
        if ours and keras:
            print(f"ratio hikeras / Keras 3: {ours / keras:.2f}")
    print(f"raw results: {out}; worker logs: {log}")


def latency(args):
    worker = os.path.join(HERE, "latency_worker.py")
    runs = {"hikeras": [sys.executable, worker, "hikeras"]}
    if os.path.exists(TORCH_PYTHON):
        runs["torch"] = [TORCH_PYTHON, worker, "torch"]
        runs["torch1"] = [TORCH_PYTHON, worker, "torch1"]
    results = {}
    env = dict(os.environ, PYTHONPATH=REPO)
    names = list(runs)
    for round_index in range(args.rounds):
        order = names[round_index % len(names):] + names[:round_index % len(names)]
        for name in order:
            out = subprocess.run(runs[name], capture_output=True, text=True, env=env, check=True)
            for key, value in json.loads(out.stdout).items():
                results.setdefault(f"{name}:{key}", []).append(value)
    med = {k: statistics.median(v) for k, v in results.items()}
    for k, v in sorted(med.items()):
        print(f"{k:28s} {v * 1e3:8.3f} ms")
    call, predict = med["hikeras:call"], med["hikeras:predict"]
    print(f"predict(x) / model(x): {predict / call:.2f}")
    torch = min((v for k, v in med.items() if k.startswith("torch")), default=None)
    if torch:
        print(f"model(x) hikeras / PyTorch (best of 1, 2 threads): {call / torch:.2f}")


def import_time(args):
    times = []
    for _ in range(args.rounds):
        out = subprocess.run(
            [sys.executable, "-c",
             "import time, sys; t = time.perf_counter(); import hikeras; "
             "print(time.perf_counter() - t); "
             "print(sorted(m for m in ('torch', 'tensorflow', 'scipy', 'pandas', "
             "'matplotlib', 'h5py', 'tqdm') if m in sys.modules))"],
            capture_output=True, text=True, check=True, env=dict(os.environ, PYTHONPATH=REPO))
        lines = out.stdout.splitlines()
        times.append(float(lines[0]))
        loaded = lines[1]
    print(f"import hikeras: median {statistics.median(times) * 1e3:.0f} ms over {len(times)} "
          f"fresh interpreters; heavy modules loaded: {loaded}")


def main():
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = parser.add_subparsers(dest="command", required=True)
    p = sub.add_parser("train")
    p.add_argument("--workload", default="mlp")
    p.add_argument("--reps", type=int, default=3)
    p.add_argument("--scale", type=float, default=1.0)
    p.add_argument("--keras", action="store_true", help="also time Keras 3 ($KERAS_PYTHON)")
    p.set_defaults(fn=train)
    p = sub.add_parser("latency")
    p.add_argument("--rounds", type=int, default=5)
    p.set_defaults(fn=latency)
    p = sub.add_parser("import")
    p.add_argument("--rounds", type=int, default=7)
    p.set_defaults(fn=import_time)
    args = parser.parse_args()
    args.fn(args)


if __name__ == "__main__":
    main()
