"""Matrix products: `matmul` and the fused `dense` layer op."""

import numpy as np

from .. import shape_rules as rules
from ..tensor import SymbolicTensor
from ._grad import unbroadcast
from ._registry import define


def _matmul_shape(x, y, **_):
    sx, sy = rules.shape_of(x), rules.shape_of(y)
    if len(sx) == 0 or len(sy) == 0:
        raise ValueError(f"matmul needs inputs of rank >= 1. Received: shapes {sx} and {sy}")
    inner_x = sx[-1]
    inner_y = sy[-2] if len(sy) > 1 else sy[0]
    if inner_x is not None and inner_y is not None and inner_x != inner_y:
        raise ValueError(
            f"matmul: the last axis of the first input ({inner_x}) must match the "
            f"contracted axis of the second ({inner_y}). Received: shapes {sx} and {sy}"
        )
    batch = rules.broadcast_shapes(sx[:-2], sy[:-2])
    out = batch + (sx[-2:-1] if len(sx) > 1 else ()) + (sy[-1:] if len(sy) > 1 else ())
    return SymbolicTensor(out, rules.result_dtype(x, y))


@define("matmul", shape=_matmul_shape, save_inputs=(0, 1))
def matmul(x, y):
    return np.matmul(x, y)


@matmul.defvjp
def _matmul_vjp(node, g):
    x, y = node.inputs
    sx, sy = node.input_shapes
    if x.ndim == 1 and y.ndim == 1:  # inner product: the output gradient is 0-d
        gx = None if node.input_refs[0] is None else g * y
        gy = None if node.input_refs[1] is None else g * x
        return gx, gy
    if x.ndim == 1:
        x = x[None, :]
        g = g[..., None, :]
    if y.ndim == 1:
        y = y[:, None]
        g = g[..., None]
    gx = gy = None
    if node.input_refs[0] is not None:
        gx = np.matmul(g, np.swapaxes(y, -1, -2))
        gx = unbroadcast(gx.reshape(gx.shape[:-2] + (sx[0],)) if len(sx) == 1 else gx, sx)
    if node.input_refs[1] is not None:
        gy = np.matmul(np.swapaxes(x, -1, -2), g)
        gy = unbroadcast(gy.reshape(gy.shape[:-2] + (sy[0],)) if len(sy) == 1 else gy, sy)
    return gx, gy


# Activations whose derivative can be read off the activation's output, so the
# fused op needs to keep only its output (not the pre-activation) for backward.
def _relu_inplace(z):
    return np.maximum(z, 0, out=z)


def _sigmoid_inplace(z):
    np.negative(z, out=z)
    np.exp(z, out=z)
    z += 1
    return np.reciprocal(z, out=z)


def _tanh_inplace(z):
    return np.tanh(z, out=z)


_FUSED_ACTIVATIONS = {
    "linear": (lambda z: z, lambda out, g: g),
    "relu": (_relu_inplace, lambda out, g: g * (out > 0)),
    "sigmoid": (_sigmoid_inplace, lambda out, g: g * out * (1 - out)),
    "tanh": (_tanh_inplace, lambda out, g: g * (1 - out * out)),
}
FUSED_DENSE_ACTIVATIONS = tuple(_FUSED_ACTIVATIONS)


def _dense_shape(x, kernel, *bias, activation="linear"):
    out = _matmul_shape(x, kernel)
    return SymbolicTensor(out.shape, rules.result_dtype(x, kernel))


@define("dense", shape=_dense_shape, save_inputs=(0, 1), save_outputs=(0,))
def dense(x, kernel, *bias, activation="linear"):
    """`activation(x @ kernel + bias)` in one pass; `bias` may be omitted."""
    out = np.matmul(x, kernel)
    if bias:
        out += bias[0]
    return _FUSED_ACTIVATIONS[activation][0](out)


@dense.defvjp
def _dense_vjp(node, g):
    x, kernel = node.inputs[0], node.inputs[1]
    g = _FUSED_ACTIVATIONS[node.attrs.get("activation", "linear")][1](node.outputs[0], g)
    g2 = g.reshape(-1, g.shape[-1])
    x2 = x.reshape(-1, x.shape[-1])
    # The input gradient of a first layer (fed with data) is never needed.
    gx = None if node.input_refs[0] is None else np.matmul(g, kernel.T)
    gk = np.matmul(x2.T, g2)
    if len(node.input_refs) == 3:
        return gx, gk, g2.sum(axis=0)
    return gx, gk
