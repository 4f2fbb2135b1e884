"""Matrix products: `matmul` and the fused `dense` layer op.

Both have traced VJPs (gradients of any order): their VJPs are products
and transposes, which cost the same through the `ops` table as in numpy.
Products of a matrix (or a stack of rows) by a matrix, the layers' case, go
through `threaded_matmul`, which shares large ones among the batch threads.
"""

import numpy as np

from .. import shape_rules as rules
from ..tensor import SymbolicTensor
from ._grad import unbroadcast
from ._registry import define
from ._traced import ops
from .threaded_matmul import product_2d


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


def _rows_product(x, y, epilogue=None):
    """`epilogue(x @ y)` for a 2-D `y`, with `x`'s leading axes as rows when that is free."""
    x, y = np.asarray(x), np.asarray(y)
    if x.dtype.kind == "V" or y.dtype.kind == "V":
        # bfloat16 (ml-dtypes) has no BLAS: multiply in float32, round the result once.
        # (float16 keeps numpy's own loop, slow but the same sums as Keras's on CPU.)
        dtype = np.result_type(x, y)
        return _rows_product(x.astype(np.float32), y.astype(np.float32), epilogue).astype(dtype)
    if y.ndim != 2 or x.ndim < 2 or not x.flags.c_contiguous and x.ndim > 2:
        out = np.matmul(x, y)
        return out if epilogue is None else epilogue(out)
    out = product_2d(x.reshape(-1, x.shape[-1]), y, epilogue)
    return out.reshape(x.shape[:-1] + (y.shape[1],))


@define("matmul", shape=_matmul_shape, save_inputs=(0, 1))
def matmul(x, y):
    return _rows_product(x, y)


def _swap_last(x):
    """`x` with its last two axes swapped, through the `transpose` op."""
    axes = list(range(len(x.shape)))
    axes[-2:] = axes[-1], axes[-2]
    return ops.transpose(x, axes=tuple(axes))


@matmul.defvjp(traceable=True)
def _matmul_vjp(node, g):
    x, y = node.inputs
    sx, sy = node.input_shapes
    if len(sx) == 1 and len(sy) == 1:  # inner product: the output gradient is 0-d
        gx = None if node.input_refs[0] is None else g * y
        gy = None if node.input_refs[1] is None else g * x
        return gx, gy
    if len(sx) == 1:
        x = ops.expand_dims(x, axis=0)
        g = ops.expand_dims(g, axis=-2)
    if len(sy) == 1:
        y = ops.expand_dims(y, axis=1)
        g = ops.expand_dims(g, axis=-1)
    gx = gy = None
    if node.input_refs[0] is not None:
        gx = ops.matmul(g, _swap_last(y))
        if len(sx) == 1:
            gx = ops.reshape(gx, shape=gx.shape[:-2] + (sx[0],))
        gx = unbroadcast(gx, sx)
    if node.input_refs[1] is not None:
        gy = ops.matmul(_swap_last(x), g)
        if len(sy) == 1:
            gy = ops.reshape(gy, shape=gy.shape[:-2] + (sy[0],))
        gy = unbroadcast(gy, sy)
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
    activate = _FUSED_ACTIVATIONS[activation][0]

    def epilogue(block):
        if bias:
            block += bias[0]
        return activate(block)

    return _rows_product(x, kernel, epilogue)


@dense.defvjp(traceable=True)
def _dense_vjp(node, g):
    x, kernel = node.inputs[0], node.inputs[1]
    # The derivative lambdas use only operators, so they trace as they are.
    g = _FUSED_ACTIVATIONS[node.attrs.get("activation", "linear")][1](node.outputs[0], g)
    units = node.output_shapes[0][-1]
    g2 = ops.reshape(g, shape=(-1, units))
    x2 = ops.reshape(x, shape=(-1, node.input_shapes[0][-1]))
    # The input gradient of a first layer (fed with data) is never needed.
    gx = None
    if node.input_refs[0] is not None:
        gx = ops.matmul(g, ops.transpose(kernel, axes=(1, 0)))
    gk = ops.matmul(ops.transpose(x2, axes=(1, 0)), g2)
    if len(node.input_refs) == 3:
        return gx, gk, ops.sum(g2, axis=0)
    return gx, gk

