"""One process's single-sample latency medians for the MLP (784-512-512-10), as JSON.

    python latency_worker.py {hikeras|torch|torch1}
"""

import json
import statistics
import sys
import time

import numpy as np

CALLS = 300


def _median_call(fn, x):
    for _ in range(20):
        fn(x)
    times = []
    for _ in range(CALLS):
        t0 = time.perf_counter()
        fn(x)
        times.append(time.perf_counter() - t0)
    return statistics.median(times)


def main(framework):
    x = np.random.default_rng(0).standard_normal((1, 784), dtype=np.float32)
    if framework == "hikeras":
        import hikeras
        from hikeras import layers

        model = hikeras.Sequential([hikeras.Input((784,)), layers.Dense(512, activation="relu"),
                                    layers.Dense(512, activation="relu"), layers.Dense(10)])
        result = {"call": _median_call(lambda a: model(a, training=False), x),
                  "predict": _median_call(lambda a: model.predict(a, verbose=0), x)}
    else:
        import torch

        torch.set_num_threads(1 if framework == "torch1" else 2)
        model = torch.nn.Sequential(torch.nn.Linear(784, 512), torch.nn.ReLU(),
                                    torch.nn.Linear(512, 512), torch.nn.ReLU(),
                                    torch.nn.Linear(512, 10)).eval()

        def call(a):
            with torch.inference_mode():
                return model(torch.from_numpy(a)).numpy()

        result = {"call": _median_call(call, x)}
    print(json.dumps(result))


if __name__ == "__main__":
    main(sys.argv[1])
