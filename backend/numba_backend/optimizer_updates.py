"""Fused optimizer updates: one compiled pass over each variable and its slots.

The numpy kernels make several passes (one per numpy call) through a scratch
buffer; these read every element of the variable, gradient and slots once.
Each kernel performs numpy's operations in numpy's order and in the
variable's dtype (the scalars are cast to it first, as numpy does with
Python floats), and numba does not contract or reorder floating-point
operations without `fastmath`, so results equal the numpy backend's bit for
bit, on any number of threads (every element is independent).

Variables that are not contiguous, or whose gradient or slots differ in
dtype, take the numpy kernel.
"""

import math

import numpy as np

from ._jit import jit, prange
from ._registry import override

_PARALLEL_FROM = 1 << 16   # below this many elements a thread launch costs more than it saves


def _flat(*arrays):
    """1-D views of `arrays`, or None unless all are contiguous float32/float64 of one dtype."""
    dtype = arrays[0].dtype
    if dtype not in (np.float32, np.float64):
        return None
    views = []
    for a in arrays:
        if not isinstance(a, np.ndarray) or a.dtype != dtype or not a.flags.c_contiguous:
            return None
        views.append(a.reshape(-1))
    return views


def _pick(serial, parallel, size):
    return parallel if size >= _PARALLEL_FROM else serial


def _sgd(w, g, lr):
    for i in prange(w.size):
        w[i] -= g[i] * lr


def _sgd_momentum(w, g, velocity, lr, momentum, nesterov):
    for i in prange(w.size):
        step = g[i] * lr
        vel = velocity[i] * momentum - step
        velocity[i] = vel
        if nesterov:
            w[i] = (w[i] - step) + vel * momentum
        else:
            w[i] += vel


def _adam(w, g, m, v, alpha, one_minus_beta_1, one_minus_beta_2, epsilon):
    for i in prange(w.size):
        gi = g[i]
        mi = m[i] + (gi - m[i]) * one_minus_beta_1
        vi = v[i] + (gi * gi - v[i]) * one_minus_beta_2
        m[i] = mi
        v[i] = vi
        w[i] -= mi / (np.sqrt(vi) + epsilon) * alpha


_KERNELS = {fn.__name__: (jit()(fn), jit(parallel=True)(fn)) for fn in (_sgd, _sgd_momentum, _adam)}


def _run(name, views, *scalars):
    dtype = views[0].dtype.type
    serial, parallel = _KERNELS[name]
    _pick(serial, parallel, views[0].size)(*views, *(dtype(s) if isinstance(s, float) else s
                                                      for s in scalars))


@override("sgd_update")
def sgd_update(variable, gradient, *, learning_rate):
    """`w -= learning_rate * g` in one pass."""
    views = _flat(variable, gradient)
    if views is None:
        return NotImplemented
    _run("_sgd", views, float(learning_rate))


@override("sgd_momentum_update")
def sgd_momentum_update(variable, gradient, velocity, *, learning_rate, momentum,
                        nesterov=False):
    """SGD with (Nesterov) momentum in one pass."""
    views = _flat(variable, gradient, velocity)
    if views is None:
        return NotImplemented
    _run("_sgd_momentum", views, float(learning_rate), float(momentum), bool(nesterov))


@override("adam_update")
def adam_update(variable, gradient, m, v, *, learning_rate, step, beta_1, beta_2, epsilon):
    """Adam's moments and step in one pass."""
    views = _flat(variable, gradient, m, v)
    if views is None:
        return NotImplemented
    alpha = learning_rate * math.sqrt(1.0 - beta_2 ** step) / (1.0 - beta_1 ** step)
    _run("_adam", views, float(alpha), 1.0 - float(beta_1), 1.0 - float(beta_2), float(epsilon))
