"""Applications: inference, frozen-base fine-tuning and peak memory, hikeras vs Keras 3 vs PyTorch.

Not part of the test run. Each measurement runs in a fresh process of its own
framework's interpreter (hikeras: this one; Keras 3 on TensorFlow CPU:
`$KERAS_PYTHON`, default `~/.venvs/tf/bin/python`; PyTorch with torchvision:
`$TORCHVISION_PYTHON`, default `~/.venvs/torchvision/bin/python`, a venv made with
`pip install torch==2.14.1 torchvision==0.29.1`), so peak resident memory is
the model's own. A framework whose interpreter or package is missing is skipped
with a note.

    python tests/benchmarks/applications.py                       # everything
    python tests/benchmarks/applications.py --tasks infer --models mobilenetv2 --batches 1

Tasks:
* `infer`: ResNet50 and MobileNetV2 at 224x224, random weights, batch 1 and 8:
  `model.predict_on_batch(x)` (Keras, hikeras: Keras's compiled path) or `model(x)` under
  `torch.inference_mode()`; median of `--repeats` timed calls after 2 warm-ups.
* `finetune`: MobileNetV2 (`include_top=False`, frozen, inference-mode BN) + global
  average pooling + a 10-way Dense head, SGD on batches of 32 at 224x224; samples/s of
  `train_on_batch` (a hand-written step in PyTorch).
* `memory`: peak resident set size of a process that builds ResNet50 and runs one
  batch of 32 at 224x224.

The machine may be shared: compare the ratios of one run, not absolute numbers across runs.
"""

import argparse
import json
import os
import resource
import statistics
import subprocess
import sys
import time

HERE = os.path.abspath(__file__)
ROOT = os.path.dirname(os.path.dirname(os.path.dirname(HERE)))
INTERPRETERS = {
    "hikeras": sys.executable,
    "keras": os.environ.get("KERAS_PYTHON", os.path.expanduser("~/.venvs/tf/bin/python")),
    "torch": os.environ.get("TORCHVISION_PYTHON",
                            os.path.expanduser("~/.venvs/torchvision/bin/python")),
}
SIZE = 224


def _images(batch):
    import numpy as np

    return np.random.default_rng(0).uniform(-1, 1, (batch, SIZE, SIZE, 3)).astype("float32")


def _peak_rss_mb():
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024.0


# ----------------------------------------------------------------------------- builders


def _keras_like(framework):
    if framework == "keras":
        os.environ.setdefault("KERAS_BACKEND", "tensorflow")
        os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")
        import keras

        return keras
    sys.path.insert(0, ROOT)
    import hikeras

    return hikeras


def _build(framework, model_name, include_top=True):
    if framework == "torch":
        import torchvision

        factory = {"resnet50": torchvision.models.resnet50,
                   "mobilenetv2": torchvision.models.mobilenet_v2}[model_name]
        return factory(weights=None).eval()
    k = _keras_like(framework)
    constructor = {"resnet50": k.applications.ResNet50,
                   "mobilenetv2": k.applications.MobileNetV2}[model_name]
    return constructor(weights=None, include_top=include_top, input_shape=(SIZE, SIZE, 3))


def _forward(framework, model):
    if framework == "torch":
        import torch

        def run(x):
            with torch.inference_mode():
                return model(x)

        return run, lambda x: torch.from_numpy(x.transpose(0, 3, 1, 2).copy())
    # predict_on_batch: Keras's compiled inference path (a direct call runs eagerly in Keras).
    return model.predict_on_batch, (lambda x: x)


# ----------------------------------------------------------------------------- workers


def worker_infer(framework, model_name, batch, repeats):
    model = _build(framework, model_name)
    run, convert = _forward(framework, model)
    x = convert(_images(batch))
    for _ in range(2):
        run(x)
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        run(x)
        times.append(time.perf_counter() - start)
    median = statistics.median(times)
    return {"seconds": median, "samples_per_s": batch / median, "peak_rss_mb": _peak_rss_mb()}


def worker_finetune(framework, batch, repeats):
    import numpy as np

    x = _images(batch)
    y = np.random.default_rng(1).integers(0, 10, batch)
    if framework == "torch":
        import torch
        import torchvision

        base = torchvision.models.mobilenet_v2(weights=None).features.eval()
        for p in base.parameters():
            p.requires_grad_(False)
        head = torch.nn.Linear(1280, 10)
        optimizer = torch.optim.SGD(head.parameters(), lr=0.01)
        xt, yt = torch.from_numpy(x.transpose(0, 3, 1, 2).copy()), torch.from_numpy(y)

        def step():
            with torch.no_grad():
                features = base(xt).mean(dim=(2, 3))
            loss = torch.nn.functional.cross_entropy(head(features), yt)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
    else:
        k = _keras_like(framework)
        base = _build(framework, "mobilenetv2", include_top=False)
        base.trainable = False
        inputs = k.Input((SIZE, SIZE, 3))
        features = k.layers.GlobalAveragePooling2D()(base(inputs, training=False))
        model = k.Model(inputs, k.layers.Dense(10, activation="softmax")(features))
        model.compile(optimizer=k.optimizers.SGD(0.01), loss="sparse_categorical_crossentropy")

        def step():
            model.train_on_batch(x, y)
    for _ in range(2):
        step()
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        step()
        times.append(time.perf_counter() - start)
    median = statistics.median(times)
    return {"seconds": median, "samples_per_s": batch / median, "peak_rss_mb": _peak_rss_mb()}


def worker_memory(framework, batch):
    model = _build(framework, "resnet50")
    run, convert = _forward(framework, model)
    start = time.perf_counter()
    run(convert(_images(batch)))
    return {"seconds": time.perf_counter() - start, "peak_rss_mb": _peak_rss_mb()}


# ----------------------------------------------------------------------------- driver


def _available(framework):
    python = INTERPRETERS[framework]
    if not os.path.exists(python):
        return f"no interpreter at {python}"
    module = {"hikeras": "numpy", "keras": "keras", "torch": "torchvision"}[framework]
    probe = subprocess.run([python, "-c", f"import {module}"], capture_output=True, text=True)
    if probe.returncode:
        return f"{python} cannot import {module}"
    return None


def _measure(framework, args):
    command = [INTERPRETERS[framework], HERE, "--worker", framework, *args]
    done = subprocess.run(command, capture_output=True, text=True)
    if done.returncode:
        return {"error": done.stderr.strip().splitlines()[-1:]}
    return json.loads(done.stdout.strip().splitlines()[-1])


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--frameworks", default="hikeras,keras,torch")
    parser.add_argument("--tasks", default="infer,finetune,memory")
    parser.add_argument("--models", default="resnet50,mobilenetv2")
    parser.add_argument("--batches", default="1,8")
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--worker", default=None, help=argparse.SUPPRESS)
    parser.add_argument("--task", default=None, help=argparse.SUPPRESS)
    parser.add_argument("--model", default=None, help=argparse.SUPPRESS)
    parser.add_argument("--batch", type=int, default=None, help=argparse.SUPPRESS)
    args = parser.parse_args()

    if args.worker:
        if args.task == "infer":
            result = worker_infer(args.worker, args.model, args.batch, args.repeats)
        elif args.task == "finetune":
            result = worker_finetune(args.worker, args.batch, args.repeats)
        else:
            result = worker_memory(args.worker, args.batch)
        print(json.dumps(result))
        return

    frameworks = []
    for framework in args.frameworks.split(","):
        missing = _available(framework)
        if missing:
            print(f"skipping {framework}: {missing}")
        else:
            frameworks.append(framework)
    tasks = args.tasks.split(",")
    rows = []
    if "infer" in tasks:
        for model in args.models.split(","):
            for batch in map(int, args.batches.split(",")):
                rows.append((f"infer {model} batch {batch}", "samples_per_s",
                             ["--task", "infer", "--model", model, "--batch", str(batch),
                              "--repeats", str(args.repeats)]))
    if "finetune" in tasks:
        rows.append(("fine-tune MobileNetV2 head, frozen base, batch 32", "samples_per_s",
                     ["--task", "finetune", "--batch", "32", "--repeats", str(args.repeats)]))
    if "memory" in tasks:
        rows.append(("peak RSS MB, ResNet50 inference batch 32", "peak_rss_mb",
                     ["--task", "memory", "--batch", "32"]))
    print(f"{'measurement':52s}" + "".join(f"{f:>12s}" for f in frameworks)
          + ("   hikeras/other" if len(frameworks) > 1 else ""))
    for label, key, worker_args in rows:
        results = {f: _measure(f, worker_args) for f in frameworks}
        cells = [f"{results[f][key]:12.2f}" if key in results[f] else f"{'error':>12s}"
                 for f in frameworks]
        ratios = [f"{results['hikeras'][key] / results[f][key]:.2f} ({f})"
                  for f in frameworks if f != "hikeras" and key in results[f]
                  and key in results.get("hikeras", {})]
        print(f"{label:52s}" + "".join(cells) + "   " + ", ".join(ratios), flush=True)
        for f in frameworks:
            if "error" in results[f]:
                print(f"  {f}: {results[f]['error']}")


if __name__ == "__main__":
    main()
