"""Where a training step's time goes: per backend op, per layer, per phase.

`Profiler(model)` times everything `fit` runs while it is active: each
backend op's forward kernel and gradient (VJP), attributed to the innermost
layer whose `call` ran it, each layer's forward, the loss, the optimizer
update and the metrics. It hooks in by swapping the backend's op table for
one of timed copies of the ops (see `hikeras.backend.dispatch.get_op_table`)
and by wrapping the model's methods on the instance; stopping puts everything
back, so nothing is slower when no profiler is running.

`profile(model, x, y)` runs a few training steps under a profiler (then
restores the weights and optimizer state) and returns a `ProfileReport`:
`report.table()` is a text table, `report.save_chrome_trace(path)` writes
a trace for chrome://tracing or https://ui.perfetto.dev.
"""

import gzip
import json
import time

import numpy as np

from ..backend import Op, dispatch, retained_heap

_PHASES = (("train_step", "step"), ("compute_loss", "loss"), ("compute_metrics", "metrics"))


class _TimedOps(dict):
    """The op table seen by `apply` while profiling: timed op copies, per current layer."""

    def __init__(self, table, profiler):
        super().__init__(table)
        self._profiler = profiler
        self._copies = {}

    def get(self, name, default=None):
        op = super().get(name)
        if op is None:
            return default
        layer = self._profiler._layers[-1] if self._profiler._layers else None
        key = (name, id(layer))
        copy = self._copies.get(key)
        if copy is None:
            copy = self._copies[key] = self._profiler._timed_op(op, layer)
        return copy


class Profiler:
    """Times backend ops, layers and training phases while active.

    Args:
        model: the model whose layers, loss, metrics and optimizer are timed.

    >>> import numpy as np, hikeras
    >>> model = hikeras.Sequential([hikeras.Input((3,)), hikeras.layers.Dense(2)])
    >>> model.compile(optimizer="sgd", loss="mse")
    >>> with Profiler(model) as profiler:
    ...     _ = model.fit(np.ones((8, 3)), np.ones((8, 2)), batch_size=4, verbose=0)
    >>> report = profiler.report
    >>> report.steps, report.ops["dense"]["calls"] > 0
    (2, True)
    """

    def __init__(self, model):
        self.model = model
        self.report = None
        self._layers = []
        self._stack = []
        self._events = []
        self._restore = []
        self._origin = 0

    # ---------------------------------------------------------------- timing
    def _timed(self, fn, category, name, layer):
        events, stack = self._events, self._stack
        clock = time.perf_counter_ns

        def timed(*args, **kwargs):
            stack.append(0)
            start = clock()
            try:
                return fn(*args, **kwargs)
            finally:
                total = clock() - start
                children = stack.pop()
                if stack:
                    stack[-1] += total
                events.append((category, name, layer, start, total, total - children))

        return timed

    def _timed_op(self, op, layer):
        copy = Op.__new__(Op)
        for slot in Op.__slots__:
            setattr(copy, slot, getattr(op, slot))
        copy.forward = self._timed(op.forward, "forward", op.name, layer)
        if op.vjp is not None:
            copy.vjp = self._timed(op.vjp, "backward", op.name, layer)
        return copy

    def _timed_layer_call(self, layer):
        inner = self._timed(layer.call, "layer", type(layer).__name__, layer)
        layers = self._layers

        def call(*args, **kwargs):
            layers.append(layer)
            try:
                return inner(*args, **kwargs)
            finally:
                layers.pop()

        return call

    def _wrap(self, obj, attr, replacement):
        had = attr in vars(obj)
        previous = vars(obj).get(attr)
        setattr(obj, attr, replacement)
        self._restore.append((obj, attr, had, previous))

    # ------------------------------------------------------------- start/stop
    def start(self):
        """Installs the hooks; returns the profiler."""
        if self._restore:
            raise RuntimeError("This Profiler is already running.")
        self._events, self._stack, self._layers = [], [], []
        self._origin = time.perf_counter_ns()
        model = self.model
        for attr, category in _PHASES:
            self._wrap(model, attr, self._timed(getattr(model, attr), category, attr, None))
        optimizer = getattr(model, "optimizer", None)
        if optimizer is not None:
            self._wrap(optimizer, "apply",
                       self._timed(optimizer.apply, "optimizer", "apply", None))
        for layer in [model, *model._flatten_layers()]:
            self._wrap(layer, "call", self._timed_layer_call(layer))
        table = dispatch.get_op_table()
        dispatch.set_op_table(_TimedOps(table, self))
        self._restore.append((dispatch, None, True, table))
        return self

    def stop(self):
        """Removes the hooks; returns (and keeps as `report`) the `ProfileReport`."""
        for obj, attr, had, previous in reversed(self._restore):
            if obj is dispatch:
                dispatch.set_op_table(previous)
            elif had:
                setattr(obj, attr, previous)
            else:
                delattr(obj, attr)
        self._restore = []
        self.report = ProfileReport(self._events, self._origin, self.model)
        return self.report

    def __enter__(self):
        return self.start()

    def __exit__(self, *exc_info):
        self.stop()


class ProfileReport:
    """Timings gathered by a `Profiler`, summed over its steps.

    Attributes:
        steps: training steps profiled.
        phases: seconds per phase over all steps: `step`, `forward`, `loss`,
            `backward` (op gradients), `optimizer`, `metrics` and `other`
            (autodiff bookkeeping and Python between them).
        ops: per op name, `calls`, `forward_s` and `backward_s`.
        layers: per layer (in call order), `name`, `class`, `calls`,
            `forward_s` (its `call`, sublayers included) and `backward_s`
            (gradients of the ops it ran).
        events: `(category, name, layer, start_ns, duration_ns, self_ns)` records.
    """

    def __init__(self, events, origin, model):
        self.events = list(events)
        self._origin = origin
        self.steps = sum(1 for e in self.events if e[0] == "step")
        self.ops, layers = {}, {}
        totals = dict.fromkeys(("step", "forward", "loss", "backward", "optimizer",
                                "metrics"), 0.0)
        for category, name, layer, _, total, own in self.events:
            seconds, own_seconds = total / 1e9, own / 1e9
            if category in ("step", "loss", "optimizer", "metrics"):
                totals[category] += seconds
            elif category == "layer":
                entry = layers.setdefault(id(layer), {"name": layer.name, "class": name,
                                                      "calls": 0, "forward_s": 0.0,
                                                      "backward_s": 0.0})
                entry["calls"] += 1
                entry["forward_s"] += seconds
                if layer is model:
                    totals["forward"] += seconds
            else:
                op = self.ops.setdefault(name, {"calls": 0, "forward_s": 0.0,
                                                "backward_s": 0.0})
                op[f"{category}_s"] += own_seconds
                op["calls"] += category == "forward"
                if category == "backward":
                    totals["backward"] += own_seconds
                    if layer is not None and id(layer) in layers:
                        layers[id(layer)]["backward_s"] += own_seconds
        accounted = sum(v for k, v in totals.items() if k != "step")
        totals["other"] = max(totals["step"] - accounted, 0.0)
        self.phases = totals
        self.layers = list(layers.values())

    def table(self, max_ops=15):
        """A text table: phases, the slowest ops, and the layers (ms per step)."""
        per = 1e3 / max(self.steps, 1)
        step_ms = self.phases["step"] * per
        lines = [f"Profile of {self.steps} training step(s): {step_ms:.3f} ms per step", ""]
        lines.append(f"{'phase':<34}{'ms/step':>10}{'share':>8}")
        for key in ("forward", "loss", "backward", "optimizer", "metrics", "other"):
            ms = self.phases[key] * per
            lines.append(f"{key:<34}{ms:>10.3f}{_share(ms, step_ms):>8}")
        lines += ["", f"{'op':<34}{'calls/step':>11}{'fwd ms':>10}{'bwd ms':>10}{'share':>8}"]
        ranked = sorted(self.ops.items(), key=lambda kv: -(kv[1]["forward_s"]
                                                           + kv[1]["backward_s"]))
        for name, op in ranked[:max_ops]:
            fwd, bwd = op["forward_s"] * per, op["backward_s"] * per
            lines.append(f"{name:<34}{op['calls'] / max(self.steps, 1):>11.1f}{fwd:>10.3f}"
                         f"{bwd:>10.3f}{_share(fwd + bwd, step_ms):>8}")
        lines += ["", f"{'layer (class)':<44}{'fwd ms':>10}{'bwd ms':>10}"]
        for layer in self.layers:
            label = f"{layer['name']} ({layer['class']})"
            lines.append(f"{label:<44}{layer['forward_s'] * per:>10.3f}"
                         f"{layer['backward_s'] * per:>10.3f}")
        return "\n".join(lines)

    def chrome_trace(self):
        """The events in Chrome's trace-event format (a JSON-compatible dict)."""
        events = []
        for category, name, layer, start, total, _ in self.events:
            event = {"name": name, "cat": category, "ph": "X", "pid": 0, "tid": 0,
                     "ts": (start - self._origin) / 1e3, "dur": total / 1e3}
            if layer is not None:
                event["args"] = {"layer": layer.name}
            events.append(event)
        return {"traceEvents": events, "displayTimeUnit": "ms"}

    def save_chrome_trace(self, path):
        """Writes `chrome_trace()` as JSON (gzip-compressed when `path` ends in `.gz`)."""
        text = json.dumps(self.chrome_trace())
        opener = gzip.open if str(path).endswith(".gz") else open
        with opener(path, "wt", encoding="utf-8") as f:
            f.write(text)


def _share(part, whole):
    return f"{100 * part / whole:.0f}%" if whole else "-"


def _batch(data, index):
    if data is None:
        return None
    if isinstance(data, dict):
        return {k: v[index] for k, v in data.items()}
    if isinstance(data, (list, tuple)):
        return type(data)(v[index] for v in data)
    return np.asarray(data)[index]


def _check_count(name, value, minimum):
    if isinstance(value, bool) or not isinstance(value, int) or value < minimum:
        raise ValueError(f"profile: {name} must be an integer >= {minimum}. "
                         f"Received: {name}={value!r}")


def profile(model, x, y=None, sample_weight=None, batch_size=32, steps=5, warmup=1,
            print_fn=None, trace_file=None):
    """Profiles `steps` training steps of `model` on batches of `(x, y)`.

    The model must be compiled. `warmup` unprofiled steps run first (they
    build the optimizer's slots and the metrics); afterwards the weights,
    the optimizer's variables and the metrics are put back as they were.

    Args:
        model: a compiled model.
        x, y, sample_weight: arrays (or lists/dicts of arrays) to draw batches from.
        batch_size: samples per step.
        steps: profiled steps (batches are taken in order, cycling).
        warmup: unprofiled steps before them.
        print_fn: if given, called with `report.table()`.
        trace_file: if given, the Chrome trace is written there (`.json` or `.json.gz`).

    Returns:
        The `ProfileReport`.
    """
    _check_count("steps", steps, 1)
    _check_count("warmup", warmup, 0)
    _check_count("batch_size", batch_size, 1)
    if not getattr(model, "compiled", False):
        raise ValueError("profile: compile the model first. Received: an uncompiled model")
    first = np.shape(x[0] if isinstance(x, (list, tuple)) else
                     next(iter(x.values())) if isinstance(x, dict) else x)[0]
    batches = [slice(i, min(i + batch_size, first)) for i in range(0, first, batch_size)]

    def data(step):
        index = batches[step % len(batches)]
        return (_batch(x, index), _batch(y, index), _batch(sample_weight, index))

    if not model.built:
        model(data(0)[0])
    optimizer = model.optimizer
    if not optimizer.built:
        optimizer.build(model.trainable_weights)
    weights = model.get_weights()
    optimizer_state = [np.array(v.value) for v in optimizer.variables]
    try:
        # as in `fit`: freed activations are reused, not faulted in afresh each step
        with retained_heap():
            for step in range(warmup):
                model.train_step(data(step))
            with Profiler(model) as profiler:
                for step in range(warmup, warmup + steps):
                    model.train_step(data(step))
    finally:
        model.set_weights(weights)
        for variable, value in zip(optimizer.variables, optimizer_state):
            variable.assign(value)
        model.reset_metrics()
    report = profiler.report
    if trace_file is not None:
        report.save_chrome_trace(trace_file)
    if print_fn is not None:
        print_fn(report.table())
    return report
