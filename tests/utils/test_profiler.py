import contextlib
import gzip
import json

import numpy as np
import pytest

import hikeras
from hikeras import layers
from hikeras.backend import dispatch, heap
from hikeras.utils import Profiler, profile, profiler


def _model():
    hikeras.utils.set_random_seed(0)
    model = hikeras.Sequential([hikeras.Input((5,)), layers.Dense(8, activation="relu"),
                                layers.Dense(2)])
    model.compile(optimizer="adam", loss="mse", metrics=["mae"])
    return model


def _data():
    rng = np.random.default_rng(0)
    return rng.normal(size=(24, 5)).astype("float32"), rng.normal(size=(24, 2)).astype(
        "float32")


def test_report_attributes_ops_to_layers_and_phases():
    model = _model()
    report = profile(model, *_data(), batch_size=8, steps=3)
    assert report.steps == 3
    # Every op event lies inside a call of the layer it is attributed to.
    calls = {}
    for category, _, layer, start, total, _ in report.events:
        if category == "layer":
            calls.setdefault(id(layer), []).append((start, start + total))
    forward_ops = [e for e in report.events if e[0] == "forward" and e[2] is not None]
    assert forward_ops
    for _, name, layer, start, total, _ in forward_ops:
        assert any(lo <= start and start + total <= hi for lo, hi in calls[id(layer)]), name
    by_name = {entry["name"]: entry for entry in report.layers}
    for dense in model.layers:
        assert by_name[dense.name]["calls"] == 3
        assert by_name[dense.name]["forward_s"] > 0 and by_name[dense.name]["backward_s"] > 0
    assert by_name[model.name]["calls"] == 3
    assert all(op["calls"] % 3 == 0 for op in report.ops.values())  # same ops every step
    assert any(op["backward_s"] > 0 for op in report.ops.values())
    phases = report.phases
    parts = sum(phases[k] for k in ("forward", "loss", "backward", "optimizer", "metrics",
                                    "other"))
    assert phases["step"] > 0 and parts == pytest.approx(phases["step"])
    assert min(phases.values()) >= 0 and phases["optimizer"] > 0
    table = report.table()
    assert "ms per step" in table and model.layers[0].name in table


def test_profile_leaves_the_model_and_backend_as_they_were():
    model = _model()
    model.fit(*_data(), epochs=1, verbose=0)
    weights = model.get_weights()
    slots = [np.array(v.value) for v in model.optimizer.variables]
    table = dispatch.get_op_table()
    profile(model, *_data(), steps=2)
    for a, b in zip(weights, model.get_weights()):
        np.testing.assert_array_equal(a, b)
    for a, b in zip(slots, model.optimizer.variables):
        np.testing.assert_array_equal(a, b.value)
    # The hooks are gone: the original op table, no instance-level wrappers.
    assert dispatch.get_op_table() is table
    for obj in [model, *model._flatten_layers()]:
        assert "call" not in vars(obj)
    assert not {"train_step", "compute_loss", "compute_metrics"} & set(vars(model))
    assert "apply" not in vars(model.optimizer)


def test_profiler_around_fit_and_chrome_trace(tmp_path):
    model = _model()
    with Profiler(model) as profiler:
        model.fit(*_data(), batch_size=12, epochs=1, verbose=0)
    report = profiler.report
    assert report.steps == 2
    path = tmp_path / "trace.json.gz"
    report.save_chrome_trace(path)
    with gzip.open(path, "rt") as f:
        trace = json.load(f)
    events = trace["traceEvents"]
    assert len(events) == len(report.events)
    assert all(e["ph"] == "X" and e["ts"] >= 0 and e["dur"] >= 0 for e in events)
    assert {"step", "layer", "forward", "backward", "optimizer"} <= {e["cat"] for e in events}
    report.save_chrome_trace(tmp_path / "trace.json")
    assert json.loads((tmp_path / "trace.json").read_text()) == trace


def test_bad_arguments():
    model = _model()
    x, y = _data()
    with pytest.raises(ValueError, match="steps must be an integer >= 1"):
        profile(model, x, y, steps=0)
    uncompiled = hikeras.Sequential([hikeras.Input((5,)), layers.Dense(2)])
    with pytest.raises(ValueError, match="compile the model first"):
        profile(uncompiled, x, y)
    profiler = Profiler(model).start()
    try:
        with pytest.raises(RuntimeError, match="already running"):
            profiler.start()
    finally:
        profiler.stop()


def test_profiled_steps_keep_freed_memory_as_fit_does(monkeypatch):
    """Like `fit`, `profile` runs its steps with the heap retained, so that page faults of
    fresh activations do not show up as kernel time."""
    steps_inside = []
    model = _model()
    train_step = model.train_step

    def counting_step(data):
        steps_inside.append(heap._depth > 0)
        return train_step(data)

    monkeypatch.setattr(model, "train_step", counting_step)
    entered = []

    @contextlib.contextmanager
    def recording():
        entered.append(True)
        with heap.retained_heap():
            yield

    monkeypatch.setattr(profiler, "retained_heap", recording)
    profile(model, *_data(), batch_size=8, steps=2, warmup=1)
    assert entered == [True]
    assert steps_inside == [True, True, True] or heap._LIBC is None
