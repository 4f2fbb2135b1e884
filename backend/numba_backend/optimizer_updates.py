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

from ._jit import inline, jit, prange
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


@inline
def _maximum(a, b):
    """`np.maximum` for one pair: NaN wins, and a tie keeps `a`."""
    return a if a >= b or np.isnan(a) else b


@inline
def _moments(g, m, v, i, one_minus_beta_1, one_minus_beta_2):
    """Adam's moments of element `i`, `m += (1 - beta_1) (g - m)`, `v += (1 - beta_2) (g**2 - v)`."""
    gi = g[i]
    mi = m[i] + (gi - m[i]) * one_minus_beta_1
    vi = v[i] + (gi * gi - v[i]) * one_minus_beta_2
    m[i] = mi
    v[i] = vi
    return mi, vi


def _weight_decay(w, c):
    for i in prange(w.size):
        w[i] -= w[i] * c


def _ema(average, w, momentum, one_minus_momentum):
    for i in prange(average.size):
        average[i] = average[i] * momentum + w[i] * one_minus_momentum


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


def _adam(w, g, m, v, v_hat, amsgrad, alpha, one_minus_beta_1, one_minus_beta_2, epsilon):
    for i in prange(w.size):
        mi, vi = _moments(g, m, v, i, one_minus_beta_1, one_minus_beta_2)
        if amsgrad:
            vi = _maximum(v_hat[i], vi)
            v_hat[i] = vi
        w[i] -= mi / (np.sqrt(vi) + epsilon) * alpha


def _adamax(w, g, m, u, one_minus_beta_1, beta_2, epsilon, correction, lr):
    for i in prange(w.size):
        gi = g[i]
        mi = m[i] + (gi - m[i]) * one_minus_beta_1
        ui = _maximum(u[i] * beta_2, abs(gi))
        m[i] = mi
        u[i] = ui
        w[i] -= mi / ((ui + epsilon) * correction) * lr


def _nadam(w, g, m, v, one_minus_beta_1, one_minus_beta_2, m_scale, g_scale, v_scale,
           epsilon, lr):
    for i in prange(w.size):
        mi, vi = _moments(g, m, v, i, one_minus_beta_1, one_minus_beta_2)
        m_hat = mi * m_scale + g[i] * g_scale
        w[i] -= m_hat / (np.sqrt(vi / v_scale) + epsilon) * lr


def _schedule_free(w, g, z, v, one_minus_beta_2, v_scale, epsilon, lr, step):
    for i in prange(w.size):
        gi = g[i]
        vi = v[i] + (gi * gi - v[i]) * one_minus_beta_2
        v[i] = vi
        zi = z[i] - gi / (np.sqrt(vi / v_scale) + epsilon) * lr
        z[i] = zi
        w[i] += (zi - w[i]) / step


def _rmsprop(w, g, velocity, average, centered, slot, has_momentum, rho, one_minus_rho,
             momentum, epsilon, lr):
    for i in prange(w.size):
        gi = g[i]
        vi = velocity[i] * rho + gi * gi * one_minus_rho
        velocity[i] = vi
        if centered:
            ai = average[i] * rho + gi * one_minus_rho
            average[i] = ai
            denominator = (vi - ai * ai) + epsilon
        else:
            denominator = vi + epsilon
        step = gi / np.sqrt(denominator) * lr
        if has_momentum:
            step = slot[i] * momentum + step
            slot[i] = step
        w[i] -= step


def _adagrad(w, g, accumulator, epsilon, lr):
    for i in prange(w.size):
        gi = g[i]
        ai = accumulator[i] + gi * gi
        accumulator[i] = ai
        w[i] -= gi / np.sqrt(ai + epsilon) * lr


def _adadelta(w, g, accumulated_grad, accumulated_delta, rho, one_minus_rho, epsilon, lr):
    for i in prange(w.size):
        gi = g[i]
        ag = accumulated_grad[i] * rho + gi * gi * one_minus_rho
        accumulated_grad[i] = ag
        delta = -(np.sqrt(accumulated_delta[i] + epsilon) * gi / np.sqrt(ag + epsilon))
        accumulated_delta[i] = accumulated_delta[i] * rho + delta * delta * one_minus_rho
        w[i] += delta * lr


def _lion(w, g, m, beta_1, one_minus_beta_1, lr, beta_2, one_minus_beta_2):
    for i in prange(w.size):
        gi = g[i]
        w[i] -= np.sign(m[i] * beta_1 + gi * one_minus_beta_1) * lr
        m[i] = m[i] * beta_2 + gi * one_minus_beta_2

_KERNELS = {fn.__name__: (jit()(fn), jit(parallel=True)(fn))
            for fn in (_weight_decay, _ema, _sgd, _sgd_momentum, _adam, _adamax, _nadam,
                       _schedule_free, _rmsprop, _adagrad, _adadelta, _lion)}


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
    _run("_adam", views + views[3:], False, _adam_alpha(learning_rate, step, beta_1, beta_2),
         1.0 - float(beta_1), 1.0 - float(beta_2), float(epsilon))


@override("amsgrad_update")
def amsgrad_update(variable, gradient, m, v, v_hat, *, learning_rate, step, beta_1, beta_2,
                   epsilon):
    """Adam's AMSGrad variant in one pass."""
    views = _flat(variable, gradient, m, v, v_hat)
    if views is None:
        return NotImplemented
    _run("_adam", views, True, _adam_alpha(learning_rate, step, beta_1, beta_2),
         1.0 - float(beta_1), 1.0 - float(beta_2), float(epsilon))


@override("adamax_update")
def adamax_update(variable, gradient, m, u, *, learning_rate, step, beta_1, beta_2, epsilon):
    """Adamax's moments and step in one pass."""
    views = _flat(variable, gradient, m, u)
    if views is None:
        return NotImplemented
    _run("_adamax", views, 1.0 - float(beta_1), float(beta_2), float(epsilon),
         1.0 - float(beta_1) ** step, float(learning_rate))


@override("nadam_update")
def nadam_update(variable, gradient, m, v, *, learning_rate, step, beta_1, beta_2, epsilon,
                 momentum, next_momentum, momentum_product):
    """Nadam's moments and step in one pass."""
    views = _flat(variable, gradient, m, v)
    if views is None:
        return NotImplemented
    _run("_nadam", views, 1.0 - float(beta_1), 1.0 - float(beta_2),
         float(next_momentum / (1.0 - momentum_product * next_momentum)),
         float((1.0 - momentum) / (1.0 - momentum_product)), 1.0 - float(beta_2) ** step,
         float(epsilon), float(learning_rate))


@override("schedule_free_adamw_update")
def schedule_free_adamw_update(variable, gradient, z, v, *, learning_rate, step, beta_2,
                               epsilon):
    """Schedule-Free AdamW's second moment, `z` step and average in one pass."""
    views = _flat(variable, gradient, z, v)
    if views is None:
        return NotImplemented
    _run("_schedule_free", views, 1.0 - float(beta_2), 1.0 - float(beta_2) ** step,
         float(epsilon), float(learning_rate), float(step))


@override("rmsprop_update")
def rmsprop_update(variable, gradient, velocity, average_gradient, momentum_slot, *,
                   learning_rate, rho, momentum, epsilon):
    """RMSprop (centered or not, with or without momentum) in one pass."""
    optional = [a for a in (average_gradient, momentum_slot) if a is not None]
    views = _flat(variable, gradient, velocity, *optional)
    if views is None:
        return NotImplemented
    extra = iter(views[3:])
    average = next(extra) if average_gradient is not None else views[2]
    slot = next(extra) if momentum_slot is not None else views[2]
    _run("_rmsprop", views[:3] + [average], average_gradient is not None, slot,
         momentum_slot is not None, float(rho), 1.0 - float(rho), float(momentum),         float(epsilon), float(learning_rate))


@override("adagrad_update")
def adagrad_update(variable, gradient, accumulator, *, learning_rate, epsilon):
    """Adagrad's accumulator and step in one pass."""
    views = _flat(variable, gradient, accumulator)
    if views is None:
        return NotImplemented
    _run("_adagrad", views, float(epsilon), float(learning_rate))


@override("adadelta_update")
def adadelta_update(variable, gradient, accumulated_grad, accumulated_delta, *, learning_rate,
                    rho, epsilon):
    """Adadelta's accumulators and step in one pass."""
    views = _flat(variable, gradient, accumulated_grad, accumulated_delta)
    if views is None:
        return NotImplemented
    _run("_adadelta", views, float(rho), 1.0 - float(rho), float(epsilon), float(learning_rate))


@override("lion_update")
def lion_update(variable, gradient, momentum, *, learning_rate, beta_1, beta_2):
    """Lion's signed step and momentum in one pass."""
    views = _flat(variable, gradient, momentum)
    if views is None:
        return NotImplemented
    _run("_lion", views, float(beta_1), 1.0 - float(beta_1), float(learning_rate),
         float(beta_2), 1.0 - float(beta_2))


@override("weight_decay_update")
def weight_decay_update(variable, *, learning_rate, weight_decay):
    """Decoupled weight decay, `w -= w * (weight_decay * learning_rate)`, in one pass."""
    views = _flat(variable)
    if views is None:
        return NotImplemented
    _run("_weight_decay", views, float(weight_decay * learning_rate))


@override("ema_update")
def ema_update(average, variable, *, momentum):
    """A moving average of a variable in one pass."""
    views = _flat(average, variable)
    if views is None:
        return NotImplemented
    _run("_ema", views, float(momentum), 1.0 - float(momentum))


def _adam_alpha(learning_rate, step, beta_1, beta_2):
    """Adam's step size with both bias corrections, computed as the numpy kernel does."""
    return float(learning_rate) * math.sqrt(1.0 - beta_2 ** step) / (1.0 - beta_1 ** step)
