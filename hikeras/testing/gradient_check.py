"""`check_gradients`: tape gradients against central differences in random directions.

For a function `fn(*inputs)` written with `hikeras.ops`, it draws a random
cotangent `u` for the output and a random direction `v` for each input, and
compares `<tape.gradient(<u, fn(x)>, x_i), v>` with the central difference
`(<u, fn(x + t v)> - <u, fn(x - t v)>) / 2t`. One direction per input costs
two extra calls whatever the input's size (autograd's `check_grads`).
"""

import numpy as np

from ..backend import GradientTape, Tensor

_STEP = 1e-6


def _value(x):
    return np.asarray(getattr(x, "numpy", lambda: x)(), dtype=np.float64)


def _contract(out, u):
    return float(np.sum(_value(out) * u))


def check_gradients(fn, inputs, wrt=None, rtol=1e-5, atol=1e-7, num_directions=2, seed=0):
    """Asserts that `fn`'s tape gradients match finite differences.

    Inputs are cast to float64 first, so differences are accurate; choose
    inputs away from kinks (`relu` at 0, ties in `max`), where the two sides
    of the difference disagree by design.

    Args:
        fn: a function of arrays, written with `hikeras.ops`, returning one tensor.
        inputs: a list of arrays (or one array).
        wrt: indices of the inputs to check (default: all float inputs).
        rtol, atol: tolerance of the comparison, relative to `max(|numeric|, 1)`.
        num_directions: random directions tried per input.
        seed: seed of the random directions.

    Raises:
        AssertionError: naming the input, the tape's and the numeric values.

    >>> from hikeras import ops
    >>> check_gradients(lambda x: ops.sum(ops.tanh(x) * x), [np.linspace(-1, 1, 5)])
    """
    if not isinstance(inputs, (list, tuple)):
        inputs = [inputs]
    inputs = [np.asarray(x, np.float64) if np.issubdtype(np.asarray(x).dtype, np.floating)
              else np.asarray(x) for x in inputs]
    if wrt is None:
        wrt = [i for i, x in enumerate(inputs) if x.dtype == np.float64]
    bad = [i for i in wrt if not 0 <= i < len(inputs) or inputs[i].dtype != np.float64]
    if bad:
        raise ValueError("check_gradients differentiates float inputs only. "
                         f"Received: wrt={list(wrt)} with input dtypes "
                         f"{[str(x.dtype) for x in inputs]}")
    rng = np.random.default_rng(seed)
    out = fn(*inputs)
    u = rng.standard_normal(np.shape(_value(out)))
    with GradientTape(persistent=True) as tape:
        # Tensors, not bare arrays: numpy's own operators on a watched array
        # would bypass the tape, and `fn` may well write `x * y`.
        watched = list(inputs)
        for i in wrt:
            watched[i] = Tensor(inputs[i])
            tape.watch(watched[i])
        target = fn(*watched)
    grads = tape.gradient(target, [watched[i] for i in wrt], output_gradients=u)
    for i, grad in zip(wrt, grads):
        for _ in range(num_directions):
            v = rng.standard_normal(inputs[i].shape)
            numeric = _directional_difference(fn, inputs, i, v, u)
            analytic = 0.0 if grad is None else float(np.sum(_value(grad) * v))
            scale = max(abs(numeric), abs(analytic), 1.0)
            assert abs(numeric - analytic) <= atol + rtol * scale, (
                f"check_gradients: the gradient of input {i} is wrong: the tape gives "
                f"{analytic!r} along a random direction, finite differences {numeric!r}")


def _directional_difference(fn, inputs, i, v, u):
    def at(t):
        shifted = list(inputs)
        shifted[i] = inputs[i] + t * v
        return _contract(fn(*shifted), u)

    return (at(_STEP) - at(-_STEP)) / (2 * _STEP)
