"""Optimizer update ops: one fused, in-place kernel per update rule.

Every op takes the variable, its gradient and the optimizer's slots for that
variable (`m`, `v`, accumulators, ...) as arrays and the step's scalars
(learning rate, decay rates, the step number `step = iterations + 1`) as
attributes; it writes the new variable and slot values into those arrays
(`mutates`) and returns None. The ops are never differentiated.

The kernels follow Keras 3's formulas in Keras's order of operations, so
results agree with Keras (and with earlier hikeras versions) bit for bit. A
backend that compiles these loops overrides the ops by name; the optimizers
call them through `hikeras/ops/updates.py`.

A slot the optimizer does not keep (RMSprop's `average_gradient` when it
is not centered, Adafactor's factored `r`/`c` for vectors) is passed as None.
"""

import math

import numpy as np

from .. import shape_rules as rules
from ._inplace import reusable_like
from ._registry import define


def _update_op(name, mutates):
    return define(name, shape=rules.updates_in_place, mutates=mutates, differentiable=False)


def _update_moments(m, v, gradient, beta_1, beta_2, scratch):
    """`m += (1 - beta_1) * (g - m)`, `v += (1 - beta_2) * (g**2 - v)`, in Keras's order."""
    np.subtract(gradient, m, out=scratch)
    scratch *= 1.0 - beta_1
    m += scratch
    np.multiply(gradient, gradient, out=scratch)
    scratch -= v
    scratch *= 1.0 - beta_2
    v += scratch


def _rms(array):
    return float(np.sqrt(np.mean(np.square(array))))


# -- shared by every optimizer --------------------------------------------------

@_update_op("weight_decay_update", mutates=(0,))
def weight_decay_update(variable, *, learning_rate, weight_decay):
    """Decoupled weight decay: `w -= w * weight_decay * learning_rate`."""
    scaled = reusable_like(variable)
    np.multiply(variable, weight_decay * learning_rate, out=scaled)
    variable -= scaled


@_update_op("ema_update", mutates=(0,))
def ema_update(average, variable, *, momentum):
    """Moving average of a variable: `average = momentum * average + (1 - momentum) * w`."""
    average *= momentum
    scaled = reusable_like(variable)
    np.multiply(variable, 1.0 - momentum, out=scaled)
    average += scaled


# -- SGD ------------------------------------------------------------------------

@_update_op("sgd_update", mutates=(0,))
def sgd_update(variable, gradient, *, learning_rate):
    """`w -= learning_rate * g`."""
    step = reusable_like(variable)
    np.multiply(gradient, learning_rate, out=step)
    variable -= step


@_update_op("sgd_momentum_update", mutates=(0, 2))
def sgd_momentum_update(variable, gradient, velocity, *, learning_rate, momentum,
                        nesterov=False):
    """`velocity = momentum * velocity - learning_rate * g`, then `w += velocity`.

    With `nesterov`, `w += momentum * velocity - learning_rate * g` (with the
    updated velocity).
    """
    step = reusable_like(variable)
    np.multiply(gradient, learning_rate, out=step)
    velocity *= momentum
    velocity -= step
    if nesterov:
        variable -= step
        np.multiply(velocity, momentum, out=step)
        variable += step
    else:
        variable += velocity


# -- the Adam family --------------------------------------------------------------

def _adam(variable, gradient, m, v, v_hat, learning_rate, step, beta_1, beta_2, epsilon):
    alpha = learning_rate * math.sqrt(1.0 - beta_2 ** step) / (1.0 - beta_1 ** step)
    tmp = reusable_like(variable)
    _update_moments(m, v, gradient, beta_1, beta_2, tmp)
    if v_hat is not None:
        np.maximum(v_hat, v, out=v_hat)
        v = v_hat
    np.sqrt(v, out=tmp)
    tmp += epsilon
    np.divide(m, tmp, out=tmp)
    tmp *= alpha
    variable -= tmp


@_update_op("adam_update", mutates=(0, 2, 3))
def adam_update(variable, gradient, m, v, *, learning_rate, step, beta_1, beta_2, epsilon):
    """Adam: moments, then `w -= alpha * m / (sqrt(v) + epsilon)`.

    `alpha = learning_rate * sqrt(1 - beta_2**step) / (1 - beta_1**step)`.
    """
    _adam(variable, gradient, m, v, None, learning_rate, step, beta_1, beta_2, epsilon)


@_update_op("amsgrad_update", mutates=(0, 2, 3, 4))
def amsgrad_update(variable, gradient, m, v, v_hat, *, learning_rate, step, beta_1, beta_2,
                   epsilon):
    """Adam's AMSGrad variant: `v_hat = maximum(v_hat, v)` takes `v`'s place in the step."""
    _adam(variable, gradient, m, v, v_hat, learning_rate, step, beta_1, beta_2, epsilon)


@_update_op("adamax_update", mutates=(0, 2, 3))
def adamax_update(variable, gradient, m, u, *, learning_rate, step, beta_1, beta_2, epsilon):
    """Adamax: `u = maximum(beta_2 * u, |g|)`, `w -= lr * m / ((1 - beta_1**step) * (u + eps))`."""
    tmp = reusable_like(variable)
    np.subtract(gradient, m, out=tmp)
    tmp *= 1.0 - beta_1
    m += tmp
    u *= beta_2
    np.maximum(u, np.abs(gradient, out=tmp), out=u)
    np.add(u, epsilon, out=tmp)
    tmp *= 1.0 - beta_1 ** step
    np.divide(m, tmp, out=tmp)
    tmp *= learning_rate
    variable -= tmp


@_update_op("nadam_update", mutates=(0, 2, 3))
def nadam_update(variable, gradient, m, v, *, learning_rate, step, beta_1, beta_2, epsilon,
                 momentum, next_momentum, momentum_product):
    """Nadam with the momentum schedule's `u_t`, `u_{t+1}` and product `U_t` given.

    `m_hat = u_{t+1} m / (1 - U_t u_{t+1}) + (1 - u_t) g / (1 - U_t)`, then
    `w -= learning_rate * m_hat / (sqrt(v / (1 - beta_2**step)) + epsilon)`.
    """
    tmp = reusable_like(variable)
    _update_moments(m, v, gradient, beta_1, beta_2, tmp)
    m_hat = m * (next_momentum / (1.0 - momentum_product * next_momentum))
    np.multiply(gradient, (1.0 - momentum) / (1.0 - momentum_product), out=tmp)
    m_hat += tmp
    np.divide(v, 1.0 - beta_2 ** step, out=tmp)
    np.sqrt(tmp, out=tmp)
    tmp += epsilon
    np.divide(m_hat, tmp, out=tmp)
    tmp *= learning_rate
    variable -= tmp


@_update_op("lamb_update", mutates=(0, 2, 3))
def lamb_update(variable, gradient, m, v, *, learning_rate, step, beta_1, beta_2, epsilon):
    """LAMB: Adam's direction, rescaled by the trust ratio `norm(w) / norm(update)`."""
    tmp = reusable_like(variable)
    _update_moments(m, v, gradient, beta_1, beta_2, tmp)
    # update = m_hat / (sqrt(v_hat) + epsilon), built in the scratch buffer.
    np.divide(v, 1.0 - beta_2 ** step, out=tmp)
    np.sqrt(tmp, out=tmp)
    tmp += epsilon
    np.divide(m, tmp, out=tmp)
    tmp /= 1.0 - beta_1 ** step
    w_norm = float(np.linalg.norm(variable))
    update_norm = float(np.linalg.norm(tmp))
    ratio = w_norm / update_norm if w_norm > 0 and update_norm > 0 else 1.0
    tmp *= learning_rate * ratio
    variable -= tmp


@_update_op("schedule_free_adamw_update", mutates=(0, 2, 3))
def schedule_free_adamw_update(variable, gradient, z, v, *, learning_rate, step, beta_2,
                               epsilon):
    """Schedule-Free AdamW: an Adam-normalised step on `z`, then `w += (z - w) / step`.

    `learning_rate` already includes the warmup factor.
    """
    tmp = reusable_like(variable)
    np.multiply(gradient, gradient, out=tmp)
    tmp -= v
    tmp *= 1.0 - beta_2
    v += tmp
    np.divide(v, 1.0 - beta_2 ** step, out=tmp)
    np.sqrt(tmp, out=tmp)
    tmp += epsilon
    np.divide(gradient, tmp, out=tmp)
    tmp *= learning_rate
    z -= tmp
    # w = (1 - 1/t) w + (1/t) z, as w += (z - w) / t.
    np.subtract(z, variable, out=tmp)
    tmp /= step
    variable += tmp


# -- adaptive per-coordinate rates ----------------------------------------------

@_update_op("rmsprop_update", mutates=(0, 2, 3, 4))
def rmsprop_update(variable, gradient, velocity, average_gradient, momentum_slot, *,
                   learning_rate, rho, momentum, epsilon):
    """RMSprop: `v = rho * v + (1 - rho) * g**2`, `step = lr * g / sqrt(v + epsilon)`.

    Centered (an `average_gradient` slot, None otherwise): the denominator is
    `sqrt(v - a**2 + epsilon)` with `a = rho * a + (1 - rho) * g`. With a
    `momentum_slot` (None when `momentum` is 0): `s = momentum * s + step;
    w -= s`, else `w -= step`.
    """
    tmp = reusable_like(variable)
    velocity *= rho
    np.multiply(gradient, gradient, out=tmp)
    tmp *= 1.0 - rho
    velocity += tmp
    if average_gradient is not None:
        average_gradient *= rho
        np.multiply(gradient, 1.0 - rho, out=tmp)
        average_gradient += tmp
        np.multiply(average_gradient, average_gradient, out=tmp)
        np.subtract(velocity, tmp, out=tmp)
        tmp += epsilon
    else:
        np.add(velocity, epsilon, out=tmp)
    np.sqrt(tmp, out=tmp)
    np.divide(gradient, tmp, out=tmp)
    tmp *= learning_rate
    if momentum_slot is not None:
        momentum_slot *= momentum
        momentum_slot += tmp
        variable -= momentum_slot
    else:
        variable -= tmp


@_update_op("adagrad_update", mutates=(0, 2))
def adagrad_update(variable, gradient, accumulator, *, learning_rate, epsilon):
    """Adagrad: `acc += g**2`, `w -= learning_rate * g / sqrt(acc + epsilon)`."""
    tmp = reusable_like(variable)
    np.multiply(gradient, gradient, out=tmp)
    accumulator += tmp
    np.add(accumulator, epsilon, out=tmp)
    np.sqrt(tmp, out=tmp)
    np.divide(gradient, tmp, out=tmp)
    tmp *= learning_rate
    variable -= tmp


@_update_op("adadelta_update", mutates=(0, 2, 3))
def adadelta_update(variable, gradient, accumulated_grad, accumulated_delta, *, learning_rate,
                    rho, epsilon):
    """Adadelta (Zeiler, 2012), as Keras 3 computes it.

    `a_g = rho a_g + (1 - rho) g**2`; `delta = -sqrt(a_d + eps) g / sqrt(a_g + eps)`;
    `a_d = rho a_d + (1 - rho) delta**2`; `w += learning_rate * delta`.
    """
    tmp = reusable_like(variable)
    accumulated_grad *= rho
    np.multiply(gradient, gradient, out=tmp)
    tmp *= 1.0 - rho
    accumulated_grad += tmp
    np.add(accumulated_grad, epsilon, out=tmp)
    np.sqrt(tmp, out=tmp)
    delta = np.sqrt(accumulated_delta + epsilon)
    delta *= gradient
    delta /= tmp
    np.negative(delta, out=delta)
    accumulated_delta *= rho
    np.multiply(delta, delta, out=tmp)
    tmp *= 1.0 - rho
    accumulated_delta += tmp
    delta *= learning_rate
    variable += delta


@_update_op("lion_update", mutates=(0, 2))
def lion_update(variable, gradient, momentum, *, learning_rate, beta_1, beta_2):
    """Lion: `w -= lr * sign(beta_1 m + (1 - beta_1) g)`, then `m = beta_2 m + (1 - beta_2) g`."""
    tmp = reusable_like(variable)
    np.multiply(momentum, beta_1, out=tmp)
    tmp += gradient * (1.0 - beta_1)
    np.sign(tmp, out=tmp)
    tmp *= learning_rate
    variable -= tmp
    momentum *= beta_2
    np.multiply(gradient, 1.0 - beta_2, out=tmp)
    momentum += tmp


def _orthogonalise(x, steps, a, b, c):
    """Newton-Schulz's quintic iteration towards the orthogonal factor of `x` (last two axes).

    `x` is first scaled to a Frobenius norm of about 1, so its spectral norm is
    at most 1; each step maps every singular value `s` to `a s + b s**3 + c s**5`.
    A tall matrix is iterated on its transpose, so the Gram products stay small.
    """
    tall = x.shape[-2] > x.shape[-1]
    if tall:
        x = np.swapaxes(x, -1, -2)
    x = x / (np.linalg.norm(x, axis=(-2, -1), keepdims=True) + 1e-7)
    for _ in range(steps):
        gram = x @ np.swapaxes(x, -1, -2)
        x = a * x + (b * gram + (c * gram) @ gram) @ x
    return np.swapaxes(x, -1, -2) if tall else x


@_update_op("muon_update", mutates=(0, 2))
def muon_update(variable, gradient, m, *, learning_rate, momentum, nesterov, ns_steps,
                muon_a, muon_b, muon_c, rms_rate):
    """Muon on a matrix: momentum SGD whose step is orthogonalised.

    `m = momentum m + g`; the direction `d` is `g + momentum m` (Nesterov) or
    `m`, replaced by its Newton-Schulz orthogonalisation (`_orthogonalise`);
    then `w -= lr * d * sqrt(max(rows, cols)) * rms_rate` (the scale factor is
    left out when `rms_rate` is None).
    """
    tmp = reusable_like(variable)
    np.multiply(m, momentum - 1.0, out=tmp)
    tmp += gradient
    m += tmp
    direction = gradient + momentum * m if nesterov else m
    step = _orthogonalise(direction, ns_steps, muon_a, muon_b, muon_c).astype(
        variable.dtype, copy=False)
    step *= learning_rate
    if rms_rate is not None:
        step *= math.sqrt(max(variable.shape[-2], variable.shape[-1]))
        step *= rms_rate
    variable -= step


@_update_op("ftrl_update", mutates=(0, 2, 3))
def ftrl_update(variable, gradient, accumulator, linear, *, learning_rate, learning_rate_power,
                l1, l2, l2_shrinkage, beta):
    """FTRL-Proximal with L1, L2 and L2-shrinkage strengths (`n` = accumulator, `z` = linear).

    With `p = -learning_rate_power`, `l2' = l2 + beta / (2 lr)`:
    `n' = n + g**2`; `z += g + 2 l2_shrinkage w - (n'**p - n**p) / lr * w`;
    `w = (clip(z, -l1, l1) - z) / (n'**p / lr + 2 l2')`; `n = n'`.
    """
    power = -learning_rate_power
    l2 = l2 + beta / (2.0 * learning_rate)
    new_accumulator = accumulator + gradient * gradient
    new_scaled = np.power(new_accumulator, power)
    tmp = reusable_like(variable)
    np.power(accumulator, power, out=tmp)
    np.subtract(new_scaled, tmp, out=tmp)
    tmp /= learning_rate
    tmp *= variable
    linear += gradient
    if l2_shrinkage:
        linear += (2.0 * l2_shrinkage) * variable
    linear -= tmp
    new_scaled /= learning_rate
    new_scaled += 2.0 * l2
    np.clip(linear, -l1, l1, out=tmp)
    tmp -= linear
    np.divide(tmp, new_scaled, out=variable)
    accumulator[...] = new_accumulator


@_update_op("adafactor_update", mutates=(0, 2, 3, 4))
def adafactor_update(variable, gradient, r, c, v, *, learning_rate, step, beta_2_decay,
                     epsilon_1, epsilon_2, clip_threshold):
    """Adafactor (Shazeer & Stern, 2018), as Keras 3 computes it.

    Variables of 2 or more dimensions keep factored second moments: row
    means `r` and column means `c` of `g**2 + epsilon_1`, from which `v` is
    rebuilt; smaller ones (`r` and `c` None) average `g**2 + epsilon_1` into
    `v` directly. The step, `alpha * u / max(1, rms(u) / clip_threshold)`
    with `u = g / sqrt(v)`, is relative to `max(epsilon_2, rms(w))`.
    """
    dtype = variable.dtype.type
    rho = min(float(dtype(learning_rate)), 1.0 / math.sqrt(step))
    alpha = max(epsilon_2, _rms(variable)) * rho
    beta = 1.0 - step ** beta_2_decay
    g2 = reusable_like(variable)
    np.multiply(gradient, gradient, out=g2)
    g2 += dtype(epsilon_1)

    if r is not None:
        r *= beta
        r += (1.0 - beta) * np.mean(g2, axis=-1)
        c *= beta
        c += (1.0 - beta) * np.mean(g2, axis=-2)
        row_scale = r / np.mean(r, axis=-1, keepdims=True)
        np.multiply(row_scale[..., None], c[..., None, :], out=v)
    else:
        v *= beta
        g2 *= 1.0 - beta
        v += g2

    update = g2  # the squared gradients are no longer needed
    np.sqrt(v, out=update)
    np.divide(gradient, update, out=update)
    update *= alpha / max(1.0, _rms(update) / clip_threshold)
    variable -= update
