"""Elementwise math: exponentials, roots, selection, clipping and casts.

Constants are Python floats so float32 inputs stay float32 (a `np.float64`
scalar would promote them). Ops whose derivative is zero almost everywhere
(`sign`, `floor`, `round`) or meaningless (`zeros_like`) are registered as
non-differentiable, so their outputs are never tracked. Every VJP here is
traced (see `_traced`): these ops support gradients of any order.
"""

import numpy as np

from .. import shape_rules as rules
from ..tensor import SymbolicTensor
from ._grad import unbroadcast
from ._registry import define
from ._traced import constant, ops


@define("exp", shape=rules.elementwise_float, save_outputs=(0,))
def exp(x):
    return np.exp(x)


@exp.defvjp(traceable=True)
def _exp_vjp(node, g):
    return (g * node.outputs[0],)


@define("expm1", shape=rules.elementwise_float, save_outputs=(0,))
def expm1(x):
    return np.expm1(x)


@expm1.defvjp(traceable=True)
def _expm1_vjp(node, g):
    return (g * (node.outputs[0] + 1),)


@define("log", shape=rules.elementwise_float, save_inputs=(0,))
def log(x):
    return np.log(x)


@log.defvjp(traceable=True)
def _log_vjp(node, g):
    return (g / node.inputs[0],)


@define("log1p", shape=rules.elementwise_float, save_inputs=(0,))
def log1p(x):
    return np.log1p(x)


@log1p.defvjp(traceable=True)
def _log1p_vjp(node, g):
    return (g / (node.inputs[0] + 1),)


@define("sqrt", shape=rules.elementwise_float, save_outputs=(0,))
def sqrt(x):
    return np.sqrt(x)


@sqrt.defvjp(traceable=True)
def _sqrt_vjp(node, g):
    return (g * 0.5 / node.outputs[0],)


@define("rsqrt", shape=rules.elementwise_float, save_outputs=(0,))
def rsqrt(x):
    out = np.sqrt(x)
    return np.reciprocal(out, out=out) if isinstance(out, np.ndarray) else 1 / out


@rsqrt.defvjp(traceable=True)
def _rsqrt_vjp(node, g):
    out = node.outputs[0]
    return (g * -0.5 * (out * out * out),)


@define("abs", shape=rules.same, save_inputs=(0,))
def abs_(x):
    return np.abs(x)


@abs_.defvjp(traceable=True)
def _abs_vjp(node, g):
    return (g * np.sign(constant(node.inputs[0])),)


@define("sign", shape=rules.same, differentiable=False)
def sign(x):
    return np.sign(x)


@define("floor", shape=rules.same, differentiable=False)
def floor(x):
    return np.floor(x)


@define("round", shape=rules.same, differentiable=False)
def round_(x, decimals=0):
    """Rounds half to even, like numpy and TensorFlow."""
    return np.round(x, decimals)


def _selected_grads(node, g, first_mask):
    """Routes `g` to the first input where `first_mask` holds, else the second.

    Masks are applied by multiplication: `np.where` is several times slower
    on unpredictable masks.
    """
    sx, sy = node.input_shapes
    gx = gy = None
    if node.input_refs[0] is not None:
        gx = unbroadcast(g * first_mask, sx)
    if node.input_refs[1] is not None:
        gy = unbroadcast(g * ~first_mask, sy)
    return gx, gy


@define("maximum", shape=rules.elementwise, save_inputs=(0, 1))
def maximum(x, y):
    return np.maximum(x, y)


@maximum.defvjp(traceable=True)
def _maximum_vjp(node, g):
    x, y = map(constant, node.inputs)
    return _selected_grads(node, g, np.greater_equal(x, y))  # ties go to x


@define("minimum", shape=rules.elementwise, save_inputs=(0, 1))
def minimum(x, y):
    return np.minimum(x, y)


@minimum.defvjp(traceable=True)
def _minimum_vjp(node, g):
    x, y = map(constant, node.inputs)
    return _selected_grads(node, g, np.less_equal(x, y))  # ties go to x


def _where_shape(condition, x, y, **_):
    shape = rules.broadcast_shapes(*map(rules.shape_of, (condition, x, y)))
    return SymbolicTensor(shape, rules.result_dtype(x, y))


@define("where", shape=_where_shape, save_inputs=(0,))
def where(condition, x, y):
    """`x` where `condition` holds, else `y`; the condition gets no gradient."""
    return np.where(condition, x, y)


@where.defvjp(traceable=True)
def _where_vjp(node, g):
    _, sx, sy = node.input_shapes
    gx = gy = None
    condition = np.asarray(constant(node.inputs[0]), dtype=bool)
    if node.input_refs[1] is not None:
        gx = unbroadcast(g * condition, sx)
    if node.input_refs[2] is not None:
        gy = unbroadcast(g * ~condition, sy)
    return None, gx, gy


@define("clip", shape=rules.same, save_inputs=(0,))
def clip(x, x_min=None, x_max=None):
    """Clips to `[x_min, x_max]`; either bound may be `None`."""
    return np.clip(x, x_min, x_max)


@clip.defvjp(traceable=True)
def _clip_vjp(node, g):
    x = constant(node.inputs[0])
    x_min, x_max = node.attrs.get("x_min"), node.attrs.get("x_max")
    # The gradient passes where x lies inside the closed interval, as in TF.
    inside = np.ones(np.shape(x), dtype=bool)
    if x_min is not None:
        inside &= np.greater_equal(x, x_min)
    if x_max is not None:
        inside &= np.less_equal(x, x_max)
    return (g * inside,)


def _cast_shape(x, dtype, **_):
    return SymbolicTensor(rules.shape_of(x), dtype)


@define("cast", shape=_cast_shape, residual=True)
def cast(x, dtype):
    """Converts to `dtype`; a float-to-float cast passes the gradient back."""
    x = np.asarray(x)
    # The residual is the source dtype: the node does not record input dtypes.
    if np.dtype(dtype).itemsize == 2 and x.dtype.kind == "f" and x.dtype.itemsize > 2:
        # Values beyond float16's range become inf, silently as in Keras: a
        # LossScaleOptimizer detects them and skips the step.
        with np.errstate(over="ignore"):
            return x.astype(dtype, copy=False), x.dtype
    return x.astype(dtype, copy=False), x.dtype


@cast.defvjp(traceable=True)
def _cast_vjp(node, g):
    source = node.residual
    if not (_inexact(source) and _inexact(g.dtype)):
        return (None,)
    return (g if g.dtype == source else ops.cast(g, source),)


def _inexact(dtype):
    """Float or complex, bfloat16 (ml-dtypes, numpy kind "V") included."""
    return np.issubdtype(dtype, np.inexact) or dtype.name == "bfloat16"


@define("stop_gradient", shape=rules.same, differentiable=False)
def stop_gradient(x):
    """The same values, never tracked (a new view, so a watched array stays unwatched)."""
    return x.view() if isinstance(x, np.ndarray) else np.asarray(x)


def _like_shape(x, dtype=None, **_):
    return SymbolicTensor(rules.shape_of(x), rules.dtype_of(x) if dtype is None else dtype)


@define("zeros_like", shape=_like_shape, differentiable=False)
def zeros_like(x, dtype=None):
    return np.zeros_like(x, dtype=dtype)


@define("ones_like", shape=_like_shape, differentiable=False)
def ones_like(x, dtype=None):
    return np.ones_like(x, dtype=dtype)
