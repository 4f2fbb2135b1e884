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
