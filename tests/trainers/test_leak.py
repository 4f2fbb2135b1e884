"""Building and fitting many small models must not grow resident memory."""

import gc
import resource

import numpy as np

import hikeras
from hikeras import layers


def _rss_mib():
    with open("/proc/self/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def _fit_one(x, y):
    model = hikeras.Sequential([hikeras.Input((8,)), layers.Dense(16, activation="relu"),
                                layers.Dense(1)])
    model.compile(optimizer="adam", loss="mse")
    model.fit(x, y, batch_size=16, epochs=1, verbose=0)


def test_building_and_fitting_1000_models_keeps_memory_flat():
    x = np.ones((32, 8), "float32")
    y = np.ones((32, 1), "float32")
    for _ in range(50):
        _fit_one(x, y)
    gc.collect()
    start = _rss_mib()
    for _ in range(1000):
        _fit_one(x, y)
    gc.collect()
    grown = _rss_mib() - start
    # Each model holds ~200 floats; a leak of even one model per iteration
    # (plus its tape, optimizer slots and callbacks) would far exceed this.
    assert grown < 30, f"resident memory grew by {grown:.1f} MiB"
