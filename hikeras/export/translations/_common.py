"""Helpers the translation families share: operand dtypes, axes, activations."""

import numpy as np


def dtype_of(x):
    """The dtype of an op input, or None for a Python scalar (weak in numpy's promotion)."""
    if isinstance(x, (bool, int, float)):
        return None
    return np.dtype(getattr(x, "dtype", None) or np.asarray(x).dtype)


def common_dtype(inputs):
    """The dtype numpy computes in for `inputs` (scalars defer to the arrays)."""
    dtypes = [d for d in (dtype_of(x) for x in inputs) if d is not None]
    if not dtypes:
        return np.dtype(np.float32)
    return np.result_type(*dtypes)


def is_float(dtype):
    return np.issubdtype(np.dtype(dtype), np.floating)


def sign_bit(g, x, dtype):
    """Whether float `x` is negative, -0.0 included (1 / -0.0 is -inf); false for NaN."""
    zero = g.scalar(0, dtype)
    reciprocal = g.node("Div", [g.scalar(1, dtype), x])
    return g.node("Or", [g.node("Less", [x, zero]), g.node("Less", [reciprocal, zero])])


def rank_of(x):
    return len(x.shape)


def positive_axes(axis, rank):
    """`axis` (an int, a sequence or None for all) as sorted non-negative ints."""
    if axis is None:
        return list(range(rank))
    axes = [axis] if isinstance(axis, (int, np.integer)) else list(axis)
    return sorted(int(a) % rank for a in axes)


def activation(g, name, x, dtype):
    """Applies a fused activation ("linear", "relu", "sigmoid", "tanh", ...) to ONNX value `x`."""
    if name in (None, "linear"):
        return x
    simple = {"relu": "Relu", "sigmoid": "Sigmoid", "tanh": "Tanh", "softplus": "Softplus",
              "softsign": "Softsign", "elu": "Elu"}
    if name in simple:
        return g.node(simple[name], [x])
    if name == "relu6":
        return g.node("Clip", [x, g.scalar(0, dtype), g.scalar(6, dtype)])
    raise g.error(f"the fused activation {name!r}, which has no ONNX translation")


def loop(g, go_on, values, dtypes, body, max_trips=None):
    """An ONNX `Loop` that updates `values` (ONNX value names of `dtypes`) while a
    condition holds; returns the final values.

    `go_on` is the bool value deciding the first pass; `body(names)` writes the
    nodes of one pass on the carried values `names` and returns `(go on?, new
    values)`. The body's constants live in the outer graph. `max_trips` bounds
    the passes (an int, or the name of an int64 scalar value).
    """
    helper = g.onnx.helper

    def info(name, dtype, shape=None):
        return helper.make_tensor_value_info(name, helper.np_dtype_to_tensor_dtype(
            np.dtype(dtype)), shape)

    step, carried_in = g.fresh("loop/step"), g.fresh("loop/go_on")
    names = [g.fresh("loop/value") for _ in values]
    outer, g.nodes = g.nodes, []
    try:
        again, new = body(names)
        again = g.node("Reshape", [again, g.ints([], "scalar_shape")])
        nodes = g.nodes
    finally:
        g.nodes = outer
    graph = helper.make_graph(
        nodes, g.fresh("loop_body"),
        [info(step, np.int64, []), info(carried_in, np.bool_, []),
         *(info(n, d) for n, d in zip(names, dtypes))],
        [info(again, np.bool_, []), *(info(n, d) for n, d in zip(new, dtypes))])
    trips = max_trips if max_trips is None or isinstance(max_trips, str) else g.scalar(
        max_trips, np.int64, "max_trips")
    trips = "" if trips is None else trips
    go_on = g.node("Reshape", [go_on, g.ints([], "scalar_shape")])
    outs = g.node("Loop", [trips, go_on, *values], outputs=len(values), body=graph)
    return outs if len(values) > 1 else [outs]
