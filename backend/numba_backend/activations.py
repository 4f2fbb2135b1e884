"""Smooth activations and their gradients, each in one compiled pass.

numpy's kernels for these take several whole-array passes (the stable
sigmoid alone is seven: abs, negate, exp, add, minimum, exp, divide); here
each element is read once and finished, with `_vector_math.exp` (vectorised)
for the exponentials, in the numpy kernels' formulas, so results agree to
float rounding:

* `sigmoid`: `exp(min(x, 0)) / (1 + exp(-|x|))` with one exponential
  (`exp(min(x, 0))` is `exp(-|x|)` for negative x, else 1); gradient
  `g s (1 - s)`.
* `silu`: `x s`, with `s` (the residual) as above; gradient `g s (1 + x (1 - s))`.
* `gelu`, approximate: `0.5 x (1 + tanh(u))`, `u = sqrt(2/pi) (x + 0.044715 x**3)`,
  computed as `x sigmoid(2u)` (the same function, free of the cancellation
  of `1 + tanh(u)` for negative u); the residual `tanh(u) = 2 sigmoid(2u) - 1`.
  The exact form `x Phi(x)`, `Phi(x) = erfc(-x / sqrt(2)) / 2`, evaluates
  numpy's own `erfc` series (`numpy_backend/_special.py`: Clenshaw's
  recurrence over its Chebyshev coefficients, then `exp`, in float64) in
  blocks of 256 elements, the recurrence running across a block so that it
  vectorises; the gradient `g (Phi(x) + x exp(-x**2 / 2) / sqrt(2 pi))`.
* `softplus`, `elu` and `selu`: the gradients only, `g sigmoid(x)` and
  `g scale` above 0, else `g (out + scale alpha)`. Their forward kernels stay
  numpy's: numba's `log1p` and `expm1` are scalar calls (45 and 15 ns per
  float32 element measured) where numpy's are vectorised (2 and 1.4 ns).
* `softmax` and `log_softmax` over the last axis, a row at a time (as the
  softmax cross-entropies), and their gradients.

Elements (rows, for the softmaxes) are split among threads; nothing is
summed across them, so results do not depend on the thread count.
float32/float64 only; other dtypes, and softmaxes over other axes, take
the numpy kernels.
"""

import math

import numpy as np

from ..numpy_backend._special import _SERIES as _ERFC_SERIES
from ..numpy_backend.rectifiers import SELU_ALPHA, SELU_SCALE
from ._jit import numba, prange
from ._registry import override, override_vjp
from ._rows import as_rows, compiled, exp_shifted, pick, row_dot, row_sum
from ._vector_math import exp

_SQRT_2_OVER_PI = math.sqrt(2.0 / math.pi)
_GELU_CUBIC = 0.044715
_SQRT_HALF = math.sqrt(0.5)
_INV_SQRT_2PI = 1.0 / math.sqrt(2.0 * math.pi)
_BLOCK = 256   # elements per block of the erfc recurrence (five float64 buffers in L1)


@numba.njit(inline="always", cache=True, nogil=True, error_model="numpy")
def _sigmoid(x, one):
    """`exp(min(x, 0)) / (1 + exp(-|x|))`; `one` is 1 in `x`'s type."""
    e = exp(-abs(x))
    return (one if x >= 0 else e) / (one + e)


def _sigmoid_forward(x, out):
    one = x.dtype.type(1)
    for i in prange(x.shape[0]):
        out[i] = _sigmoid(x[i], one)


def _sigmoid_backward(s, g, out):
    one = s.dtype.type(1)
    for i in prange(s.shape[0]):
        out[i] = g[i] * (s[i] * (one - s[i]))


def _silu_forward(x, out, s):
    one = x.dtype.type(1)
    for i in prange(x.shape[0]):
        si = _sigmoid(x[i], one)
        s[i] = si
        out[i] = x[i] * si


def _silu_backward(x, s, g, out):
    one = x.dtype.type(1)
    for i in prange(x.shape[0]):
        out[i] = g[i] * ((((one - s[i]) * x[i]) + one) * s[i])


def _gelu_tanh_forward(x, out, t):
    two, one = x.dtype.type(2), x.dtype.type(1)
    a, c = x.dtype.type(_SQRT_2_OVER_PI), x.dtype.type(_GELU_CUBIC)
    for i in prange(x.shape[0]):
        v = x[i]
        s = _sigmoid(two * ((((v * v) * c + one) * v) * a), one)
        t[i] = two * s - one
        out[i] = v * s


def _gelu_tanh_backward(x, t, g, out):
    one, half = x.dtype.type(1), x.dtype.type(0.5)
    c3, a = x.dtype.type(3.0 * _GELU_CUBIC), x.dtype.type(0.5 * _SQRT_2_OVER_PI)
    for i in prange(x.shape[0]):
        v, ti = x[i], t[i]
        slope = ((v * v) * c3 + one) * v * ((one - ti * ti) * a) + half * (one + ti)
        out[i] = g[i] * slope


def _gelu_forward(x, series, out, cdf):
    """`cdf = erfc(-x / sqrt(2)) / 2` as `numpy_backend._special.erfc` computes it; `out = x cdf`."""
    n, half = x.shape[0], x.dtype.type(0.5)
    scale = -_SQRT_HALF
    last, first = series[-1], series[0]
    for block in prange((n + _BLOCK - 1) // _BLOCK):
        start = block * _BLOCK
        size = min(n, start + _BLOCK) - start
        z, t, two_u = np.empty(_BLOCK), np.empty(_BLOCK), np.empty(_BLOCK)
        b1, b2 = np.empty(_BLOCK), np.empty(_BLOCK)
        for i in range(size):
            zi = abs(np.float64(x[start + i]) * scale)
            ti = 2.0 / (zi + 2.0)
            z[i], t[i], two_u[i] = zi, ti, 2.0 * (ti + ti - 1.0)
            b1[i], b2[i] = last, 0.0
        for k in range(series.shape[0] - 2, 0, -1):
            c = series[k]
            for i in range(size):
                b = b1[i]
                b1[i] = two_u[i] * b - b2[i] + c
                b2[i] = b
        for i in range(size):
            v = x[start + i]
            e = exp((0.5 * two_u[i] * b1[i] - b2[i] + first) - z[i] * z[i]) * t[i]
            if np.float64(v) * scale < 0:
                e = 2.0 - e
            c_i = x.dtype.type(e) * half
            cdf[start + i] = c_i
            out[start + i] = v * c_i


def _gelu_backward(x, cdf, g, out):
    minus_half, k = x.dtype.type(-0.5), x.dtype.type(_INV_SQRT_2PI)
    for i in prange(x.shape[0]):
        v = x[i]
        out[i] = g[i] * (exp((v * v) * minus_half) * k * v + cdf[i])


def _softplus_backward(x, g, out):
    one = x.dtype.type(1)
    for i in prange(x.shape[0]):
        out[i] = g[i] * _sigmoid(x[i], one)


def _elu_backward(x, y, alpha, scale, g, out):
    zero, one = x.dtype.type(0), x.dtype.type(1)
    offset = scale * alpha
    for i in prange(x.shape[0]):
        below = one if x[i] <= zero else zero
        out[i] = g[i] * ((y[i] + offset) * below + (one - below) * scale)


def _softmax_forward(x, p):
    for i in prange(x.shape[0]):
        q = p[i]
        exp_shifted(x[i], q)
        total = row_sum(q)
        for j in range(q.shape[0]):
            q[j] /= total


def _softmax_backward(p, g, out):
    for i in prange(p.shape[0]):
        q, gi, o = p[i], g[i], out[i]
        dot = row_dot(gi, q)
        for j in range(q.shape[0]):
            gp = gi[j] * q[j]
            o[j] = gp - q[j] * dot


def _log_softmax_forward(x, out):
    for i in prange(x.shape[0]):
        xi, o = x[i], out[i]
        peak = exp_shifted(xi, o)
        log_total = math.log(row_sum(o))
        for j in range(xi.shape[0]):
            o[j] = (xi[j] - peak) - log_total


def _log_softmax_backward(y, g, out):
    for i in prange(y.shape[0]):
        yi, gi, o = y[i], g[i], out[i]
        total = row_sum(gi)
        for j in range(yi.shape[0]):
            o[j] = gi[j] - exp(yi[j]) * total


_CONTRACT = {"contract"}   # for the loops calling `exp` (see _vector_math)
_KERNELS = {fn.__name__: compiled(fn, _CONTRACT if uses_exp else False) for fn, uses_exp in (
    (_sigmoid_forward, True), (_sigmoid_backward, False),
    (_silu_forward, True), (_silu_backward, False), (_gelu_tanh_forward, True),
    (_gelu_tanh_backward, False), (_gelu_forward, True), (_gelu_backward, True),
    (_softplus_backward, True), (_elu_backward, False),
    (_softmax_forward, True),
    (_softmax_backward, False), (_log_softmax_forward, True), (_log_softmax_backward, True))}


def _flat(*arrays):
    """Contiguous 1-D views of same-shape float32/float64 `arrays` of one dtype, or None."""
    first = arrays[0]
    for a in arrays:
        if (not isinstance(a, np.ndarray) or a.dtype not in (np.float32, np.float64)
                or a.dtype != first.dtype or a.shape != first.shape):
            return None
    return [np.ascontiguousarray(a).reshape(-1) for a in arrays]


def _run(name, inputs, outputs=1):
    """Runs kernel `name` on the flat `inputs`, returning `outputs` new arrays of their shape."""
    flat = _flat(*inputs)
    if flat is None:
        return NotImplemented
    results = [np.empty_like(flat[0]) for _ in range(outputs)]
    pick(_KERNELS[name], flat[0].size)(*flat, *results)
    shape = inputs[0].shape
    return tuple(r.reshape(shape) for r in results)


@override("sigmoid")
def sigmoid(x):
    """`1 / (1 + exp(-x))` in one pass."""
    out = _run("_sigmoid_forward", (x,))
    return out if out is NotImplemented else out[0]


@override_vjp("sigmoid")
def _sigmoid_vjp(node, g):
    return _run("_sigmoid_backward", (node.outputs[0], g))


@override("silu")
def silu(x):
    """`x * sigmoid(x)` in one pass; the sigmoid is the residual."""
    out = _run("_silu_forward", (x,), outputs=2)
    return out if out is NotImplemented else (out[0], out[1])


@override_vjp("silu")
def _silu_vjp(node, g):
    return _run("_silu_backward", (node.inputs[0], node.residual, g))


@override("gelu")
def gelu(x, approximate=False):
    """`x Phi(x)`, exactly or with the tanh approximation, in one pass; `Phi` or tanh kept."""
    if approximate:
        out = _run("_gelu_tanh_forward", (x,), outputs=2)
        return out if out is NotImplemented else (out[0], out[1])
    flat = _flat(x)
    if flat is None:
        return NotImplemented
    series = np.array(_ERFC_SERIES[x.dtype], np.float64)
    out, cdf = np.empty_like(flat[0]), np.empty_like(flat[0])
    pick(_KERNELS["_gelu_forward"], out.size)(flat[0], series, out, cdf)
    return out.reshape(x.shape), cdf.reshape(x.shape)


@override_vjp("gelu")
def _gelu_vjp(node, g):
    name = "_gelu_tanh_backward" if node.attrs.get("approximate", False) else "_gelu_backward"
    return _run(name, (node.inputs[0], node.residual, g))


@override_vjp("softplus")
def _softplus_vjp(node, g):
    return _run("_softplus_backward", (node.inputs[0], g))


def _elu_vjp_run(node, g, alpha, scale):
    flat = _flat(node.inputs[0], node.outputs[0], g)
    if flat is None:
        return NotImplemented
    x, y, g = flat
    out = np.empty_like(x)
    dtype = x.dtype.type
    pick(_KERNELS["_elu_backward"], out.size)(x, y, dtype(alpha), dtype(scale), g, out)
    return (out.reshape(node.inputs[0].shape),)


@override_vjp("elu")
def _elu_vjp(node, g):
    return _elu_vjp_run(node, g, node.attrs.get("alpha", 1.0), 1.0)


@override_vjp("selu")
def _selu_vjp(node, g):
    return _elu_vjp_run(node, g, SELU_ALPHA, SELU_SCALE)


def _rows_run(name, inputs, axis):
    """Runs row kernel `name` when `axis` is the last axis of float inputs of one shape."""
    x = inputs[0]
    if (not isinstance(axis, (int, np.integer)) or x.ndim == 0
            or int(axis) not in (-1, x.ndim - 1) or _flat(*inputs) is None):
        return NotImplemented
    rows = [as_rows(a) for a in inputs]
    if rows[0] is None:
        return NotImplemented
    out = np.empty_like(rows[0])
    pick(_KERNELS[name], out.size)(*rows, out)
    return out.reshape(x.shape)


@override("softmax")
def softmax(x, axis=-1):
    """`exp(x) / sum(exp(x))` over the last axis, a row at a time."""
    return _rows_run("_softmax_forward", (x,), axis)


@override_vjp("softmax")
def _softmax_vjp(node, g):
    out = _rows_run("_softmax_backward", (node.outputs[0], g), node.attrs.get("axis", -1))
    return out if out is NotImplemented else (out,)


@override("log_softmax")
def log_softmax(x, axis=-1):
    """`x - logsumexp(x)` over the last axis, a row at a time."""
    return _rows_run("_log_softmax_forward", (x,), axis)


@override_vjp("log_softmax")
def _log_softmax_vjp(node, g):
    out = _rows_run("_log_softmax_backward", (node.outputs[0], g), node.attrs.get("axis", -1))
    return out if out is NotImplemented else (out,)
