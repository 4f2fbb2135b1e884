"""The activation functions of `keras.ops.nn` that are composed from other ops.

Each is written with registered ops (so it runs eagerly, symbolically and
on a tape, with its gradient from theirs), except `sparsemax`, which has its
own kernel. Integer inputs become `floatx()`, as in Keras.

>>> hard_tanh([-2.0, 0.5, 3.0]).tolist()
[-1.0, 0.5, 1.0]
"""

from .. import backend
from .core import shape
from .math import float_operand

_apply = backend.apply


def _where(condition, x1, x2):
    return _apply("where", condition, x1, x2)


def celu(x, alpha=1.0):
    """`max(x, 0) + min(alpha * (exp(x / alpha) - 1), 0)`: ELU that stays differentiable at 0."""
    x = float_operand(x)
    negative = _apply("multiply", _apply("expm1", _apply("divide", x, float(alpha))),
                      float(alpha))
    return _apply("add", _apply("maximum", x, 0.0), _apply("minimum", negative, 0.0))


def glu(x, axis=-1):
    """Gated linear unit: `x` split in halves `a, b` along `axis`, `a * sigmoid(b)`."""
    x = float_operand(x)
    size = shape(x)[axis]
    if size is not None and size % 2:
        raise ValueError(
            f"glu needs an even size along axis {axis}. Received: x.shape={shape(x)}, axis={axis}")
    a, b = _apply("split", x, indices_or_sections=2, axis=axis)
    return _apply("multiply", a, _apply("sigmoid", b))


def hard_tanh(x):
    """`clip(x, -1, 1)`."""
    return _apply("clip", float_operand(x), x_min=-1.0, x_max=1.0)


def hard_shrink(x, threshold=0.5):
    """`x` where `|x| > threshold`, else 0."""
    x = float_operand(x)
    keep = _apply("greater", _apply("abs", x), float(threshold))
    return _where(keep, x, 0.0)


def soft_shrink(x, threshold=0.5):
    """`x` moved `threshold` towards 0, and 0 inside `[-threshold, threshold]`."""
    x = float_operand(x)
    t = float(threshold)
    shrunk = _where(_apply("greater", x, t), _apply("subtract", x, t), 0.0)
    return _where(_apply("less", x, -t), _apply("add", x, t), shrunk)


def tanh_shrink(x):
    """`x - tanh(x)`."""
    x = float_operand(x)
    return _apply("subtract", x, _apply("tanh", x))


def threshold(x, threshold, default_value):
    """`x` where `x > threshold`, else `default_value`."""
    x = float_operand(x)
    return _where(_apply("greater", x, threshold), x, default_value)


def log_sigmoid(x):
    """`log(sigmoid(x)) = -softplus(-x)`, without overflow."""
    x = float_operand(x)
    return _apply("negative", _apply("softplus", _apply("negative", x)))


def squareplus(x, b=4):
    """`(x + sqrt(x^2 + b)) / 2`, a smooth ReLU."""
    x = float_operand(x)
    root = _apply("sqrt", _apply("add", _apply("square", x), float(b)))
    return _apply("multiply", _apply("add", x, root), 0.5)


def sparse_plus(x):
    """0 below -1, `x` above 1, `(x + 1)^2 / 4` between: a smooth, sparse ReLU."""
    x = float_operand(x)
    middle = _apply("multiply", _apply("square", _apply("add", x, 1.0)), 0.25)
    upper = _where(_apply("greater_equal", x, 1.0), x, middle)
    return _where(_apply("less_equal", x, -1.0), 0.0, upper)


def sparse_sigmoid(x):
    """0 below -1, 1 above 1, `(x + 1) / 2` between."""
    x = float_operand(x)
    return _apply("clip", _apply("multiply", _apply("add", x, 1.0), 0.5), x_min=0.0, x_max=1.0)


def sparsemax(x, axis=-1):
    """The projection of `x` along `axis` onto the probability simplex (exact zeros allowed).

    >>> sparsemax([1.0, 0.0, -2.0]).tolist()
    [1.0, 0.0, 0.0]
    """
    return _apply("sparsemax", float_operand(x), axis=axis)
