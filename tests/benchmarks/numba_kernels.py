#!/usr/bin/env python
"""Each kernel the numba backend compiles against the numpy backend's, in one process.

    python tests/benchmarks/numba_kernels.py [--rounds 7] [--only NAME] [--cpu]

For shapes from the reference workloads, MobileNetV2 and typical dense,
convolutional and transformer layers, times forward and forward + backward
of each op under both backends, in back-to-back pairs (alternating which
goes first) so that both see the same load, and prints the median times,
the median of the pairs' speed-ups (numpy time / numba time) and how many
pairs numba won. Kernels are compiled (or loaded from the cache) before
timing. `--cpu` times the process's CPU time instead of the wall clock: on a
machine shared with busy processes it is the steadier measure of the work
done, and with `HIKERAS_NUM_THREADS=1` it compares the kernels on one core.
"""

import argparse
import statistics
import time

import numpy as np

from hikeras import backend

RNG = np.random.default_rng(0)


def _array(*shape):
    return RNG.standard_normal(shape).astype(np.float32)


_ADAM = {"learning_rate": 1e-3, "step": 3, "beta_1": 0.9, "beta_2": 0.999, "epsilon": 1e-7}

# op: (number of slots, attributes). The slots are positive, the first at least 1 and the
# others at most about 0.4, so that a centered RMSprop's `v - a**2` stays positive.
_UPDATES = {
    "adam_update": (2, _ADAM),
    "amsgrad_update": (3, _ADAM),
    "adamax_update": (2, _ADAM),
    "nadam_update": (2, {**_ADAM, "momentum": 0.86, "next_momentum": 0.87,
                         "momentum_product": 0.6}),
    "rmsprop_update": (3, {"learning_rate": 1e-3, "rho": 0.9, "momentum": 0.5,
                           "epsilon": 1e-7}),
    "adagrad_update": (1, {"learning_rate": 1e-3, "epsilon": 1e-7}),
    "adadelta_update": (2, {"learning_rate": 1.0, "rho": 0.95, "epsilon": 1e-7}),
    "lion_update": (1, {"learning_rate": 1e-4, "beta_1": 0.9, "beta_2": 0.99}),
}


def _update(op, size):
    slots, attrs = _UPDATES[op]
    arrays = [_array(size), _array(size), np.abs(_array(size)) + 1]
    arrays += [np.abs(_array(size)) * 0.1 for _ in range(slots - 1)]

    def run():
        backend.apply(op, *arrays, **attrs)
    return run


def _training_step(op, inputs, attrs, differentiate):
    variables = [backend.Variable(x) if i in differentiate else x for i, x in enumerate(inputs)]

    def run():
        with backend.GradientTape() as tape:
            out = backend.apply(op, *variables, **attrs)
            if isinstance(out, (tuple, list)):   # batch_norm's statistics are not in the loss
                out = out[0]
            loss = backend.apply("sum", out)
        tape.gradient(loss, [variables[i] for i in differentiate])
    return run


def _forward(op, inputs, attrs):
    return lambda: backend.apply(op, *inputs, **attrs)


def _gru_model_step():
    """One `train_on_batch` of the LSTM workload's model with a GRU in place of the LSTM."""
    import hikeras
    from hikeras import layers

    model = hikeras.Sequential([hikeras.Input((100,), dtype="int32"), layers.Embedding(10000, 64),
                                layers.GRU(64), layers.Dense(1, activation="sigmoid")])
    model.compile(optimizer="adam", loss="binary_crossentropy")
    x = RNG.integers(0, 10000, (64, 100)).astype(np.int32)
    y = RNG.integers(0, 2, (64, 1)).astype(np.float32)
    return lambda: model.train_on_batch(x, y)


def _cases():
    depthwise = [((1, 112, 112, 32), 1), ((1, 56, 56, 144), 2), ((32, 28, 28, 192), 1)]
    cases = {
        "adam_update 784x512 (MLP)": _update("adam_update", 784 * 512),
        "adam_update 9216x128 (CNN)": _update("adam_update", 9216 * 128),
    }
    for op in _UPDATES:
        if op != "adam_update":
            cases[f"{op} 784x512"] = _update(op, 784 * 512)
    for shape, stride in depthwise:
        x, k, b = _array(*shape), _array(3, 3, 1, shape[-1]), _array(shape[-1])
        attrs = {"strides": stride, "padding": "same", "activation": "relu"}
        cases[f"depthwise conv {shape} s{stride} fwd"] = _forward("conv", (x, k, b), attrs)
        cases[f"depthwise conv {shape} s{stride} train"] = _training_step(
            "conv", (x, k, b), attrs, (0, 1, 2))
    x, k, b = _array(128, 28, 28, 1), _array(3, 3, 1, 32), _array(32)
    attrs = {"activation": "relu"}
    cases["conv (128,28,28,1)*(3,3,1,32) fwd (CNN)"] = _forward("conv", (x, k, b), attrs)
    cases["conv (128,28,28,1)*(3,3,1,32) train (CNN)"] = _training_step(
        "conv", (x, k, b), attrs, (1, 2))
    x = _array(128, 24, 24, 64)
    cases["max_pool (128,24,24,64) fwd (CNN)"] = _forward("max_pool", (x,), {"pool_size": 2})
    cases["max_pool (128,24,24,64) train (CNN)"] = _training_step(
        "max_pool", (x,), {"pool_size": 2}, (0,))
    table, ids = _array(10000, 64), RNG.integers(0, 10000, (64, 100))
    cases["gather_rows 10000x64, (64,100) train (LSTM)"] = _training_step(
        "gather_rows", (table, ids), {}, (0,))
    state = np.zeros((64, 64), np.float32)
    lstm = (_array(64, 100, 64), state, state, _array(64, 256) * 0.1, _array(64, 256) * 0.1,
            np.zeros(256, np.float32))
    attrs = {"return_sequences": False}
    cases["lstm_sequence (64,100,64) 64 units fwd (LSTM)"] = _forward("lstm_sequence", lstm, attrs)
    cases["lstm_sequence (64,100,64) 64 units train (LSTM)"] = _training_step(
        "lstm_sequence", lstm, attrs, (0, 3, 4, 5))
    for batch, units in ((64, 64), (32, 64), (128, 64), (64, 128), (64, 256)):
        rnn = (_array(batch, 100, 64), np.zeros((batch, units), np.float32),
               _array(64, units) * 0.1, _array(units, units) * 0.1, np.zeros(units, np.float32))
        label = f"simple_rnn_sequence ({batch},100,64) {units} units"
        cases[f"{label} fwd"] = _forward("simple_rnn_sequence", rnn, attrs)
        cases[f"{label} train"] = _training_step("simple_rnn_sequence", rnn, attrs, (0, 2, 3, 4))
    for batch, units in ((64, 64), (32, 64), (128, 64), (64, 128)):
        gru = (_array(batch, 100, 64), np.zeros((batch, units), np.float32),
               _array(64, 3 * units) * 0.1, _array(units, 3 * units) * 0.1,
               np.zeros((2, 3 * units), np.float32))
        label = f"gru_sequence ({batch},100,64) {units} units"
        if (batch, units) == (64, 64):
            cases[f"{label} fwd (GRU)"] = _forward("gru_sequence", gru, attrs)
        cases[f"{label} train (GRU)"] = _training_step("gru_sequence", gru, attrs, (0, 2, 3, 4))
        if (batch, units) == (64, 64):
            before = gru[:4] + (np.zeros(3 * units, np.float32),)
            cases[f"{label} reset_after=False train (GRU)"] = _training_step(
                "gru_sequence", before, dict(attrs, reset_after=False), (0, 2, 3, 4))
    cases["Embedding-GRU(64)-Dense train_on_batch (64,100) (GRU)"] = _gru_model_step()
    for shape in ((128, 24, 24, 64), (32, 56, 56, 128)):
        x, gamma, beta = _array(*shape), _array(shape[-1]), _array(shape[-1])
        cases[f"batch_norm {shape} fwd"] = _forward("batch_norm", (x, gamma, beta), {})
        cases[f"batch_norm {shape} train"] = _training_step(
            "batch_norm", (x, gamma, beta), {}, (0, 1, 2))
    for shape in ((32, 10), (1024, 768), (256, 4096)):
        x, gamma, beta = _array(*shape), _array(shape[-1]), _array(shape[-1])
        cases[f"layer_norm {shape} fwd"] = _forward("layer_norm", (x, gamma, beta), {})
        cases[f"layer_norm {shape} train"] = _training_step(
            "layer_norm", (x, gamma, beta), {}, (0, 1, 2))
    for size in (10**4, 10**6):
        for dtype in (np.float32, np.float64):
            x = RNG.standard_normal(size).astype(dtype)
            for op, attrs in (("sigmoid", {}), ("silu", {}), ("gelu", {"approximate": True}),
                              ("gelu", {}), ("softplus", {}), ("elu", {}), ("selu", {})):
                label = f"{op}{' approximate' if attrs else ''} {size:.0e} {dtype.__name__}"
                if size > 10**4 and op != "gelu" or op == "gelu" and not attrs:
                    cases[f"{label} fwd"] = _forward(op, (x,), attrs)
                cases[f"{label} train"] = _training_step(op, (x,), attrs, (0,))
    for shape in ((128, 10), (1024, 1000)):
        x = _array(*shape)
        for op in ("softmax", "log_softmax"):
            cases[f"{op} {shape} fwd"] = _forward(op, (x,), {})
            cases[f"{op} {shape} train"] = _training_step(op, (x,), {}, (0,))
    for rows, classes in ((128, 10), (1024, 1000), (256, 4096)):
        logits = _array(rows, classes)
        labels = RNG.integers(0, classes, rows)
        onehot = np.eye(classes, dtype=np.float32)[labels]
        cases[f"sparse_softmax_cross_entropy {rows}x{classes} train"] = _training_step(
            "sparse_softmax_cross_entropy", (logits, labels), {}, (0,))
        cases[f"softmax_cross_entropy {rows}x{classes} train"] = _training_step(
            "softmax_cross_entropy", (logits, onehot), {}, (0,))
    return cases


def _time(fn, clock=time.perf_counter):
    start = clock()
    fn()
    return clock() - start


def main():
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--rounds", type=int, default=7)
    parser.add_argument("--only", default="", help="time only the cases whose name has this")
    parser.add_argument("--cpu", action="store_true", help="time CPU time, not wall-clock time")
    args = parser.parse_args()
    previous = backend.backend()
    cases = {name: fn for name, fn in _cases().items() if args.only in name}
    times = {(name, b): [] for name in cases for b in ("numpy", "numba")}
    try:
        for name in ("numpy", "numba"):      # compile, or load from the cache
            backend.set_backend(name)
            for fn in cases.values():
                fn()
        for case, fn in cases.items():       # pairs back to back: both see the same load
            for round_index in range(args.rounds):
                for name in (("numpy", "numba") if round_index % 2 == 0 else ("numba", "numpy")):
                    backend.set_backend(name)
                    times[case, name].append(
                        _time(fn, time.process_time if args.cpu else time.perf_counter))
    finally:
        backend.set_backend(previous)
    for case in cases:
        a, b = times[case, "numpy"], times[case, "numba"]
        ratios = [x / y for x, y in zip(a, b)]
        faster = sum(r > 1 for r in ratios)
        print(f"{case:48s} numpy {statistics.median(a) * 1e3:8.2f} ms  "
              f"numba {statistics.median(b) * 1e3:8.2f} ms  "
              f"speed-up {statistics.median(ratios):5.1f}x  ({faster}/{len(ratios)} pairs)")


if __name__ == "__main__":
    main()
