"""Activation functions, by Keras's names, as thin wrappers over `hikeras.ops`.

Because they are written with `ops`, they work on numpy arrays, on tensors
recorded by a `GradientTape` and on symbolic tensors alike. `get` turns what a
layer was given as `activation=` into a function: None is `linear`, a name is
looked up here, a callable is used as it is.

>>> import numpy as np
>>> relu(np.array([-1.0, 2.0])).tolist()
[0.0, 2.0]
>>> get("swish") is silu
True
>>> serialize(get(None))
'linear'
"""

from . import ops
from .serialization import deserialize_keras_object, resolve, serialize_keras_object
from .utils.remembered_logits import remember_logits


def relu(x, negative_slope=0.0, max_value=None, threshold=0.0):
    """Rectified linear unit: `max(x, 0)` with the defaults.

    Args:
        x: input tensor.
        negative_slope: slope below `threshold` (0 gives the standard ReLU).
        max_value: if set, outputs are capped at this value.
        threshold: inputs at or below it are damped (or zeroed).

    >>> import numpy as np
    >>> relu(np.array([-10.0, -5.0, 0.0, 5.0, 10.0]), negative_slope=0.5).tolist()
    [-5.0, -2.5, 0.0, 5.0, 10.0]
    >>> relu(np.array([-10.0, -5.0, 0.0, 5.0, 10.0]), max_value=5.0).tolist()
    [0.0, 0.0, 0.0, 5.0, 5.0]
    """
    if negative_slope == 0 and max_value is None and threshold == 0:
        return ops.relu(x)
    x = ops.convert_to_tensor(x)
    if negative_slope != 0:
        if max_value is None and threshold == 0:
            return ops.leaky_relu(x, negative_slope=negative_slope)
        negative_part = ops.relu(threshold - x) if threshold != 0 else ops.relu(-x)
    clip_max = max_value is not None
    if threshold != 0:
        x = x * ops.cast(ops.greater(x, threshold), x.dtype)  # x above threshold, else 0
    elif max_value == 6:
        x = ops.relu6(x)
        clip_max = False
    else:
        x = ops.relu(x)
    if clip_max:
        x = ops.clip(x, 0.0, max_value)
    if negative_slope != 0:
        x = x - negative_slope * negative_part
    return x


def leaky_relu(x, negative_slope=0.2):
    """`x` for positive inputs, `negative_slope * x` otherwise."""
    return ops.leaky_relu(x, negative_slope=negative_slope)


def relu6(x):
    """`min(max(x, 0), 6)`."""
    return ops.relu6(x)


def sigmoid(x):
    """`1 / (1 + exp(-x))`; the crossentropy losses use `x` itself (see
    `utils.remembered_logits`), as Keras 3 does."""
    output = ops.sigmoid(x)
    remember_logits(output, x, "sigmoid")
    return output


def tanh(x):
    """Hyperbolic tangent."""
    return ops.tanh(x)


def softmax(x, axis=-1):
    """`exp(x) / sum(exp(x))` along `axis`: a probability distribution. The
    crossentropy losses use `x` itself (see `utils.remembered_logits`), as Keras 3 does."""
    output = ops.softmax(x, axis=axis)
    remember_logits(output, x, "softmax", axis)
    return output


def log_softmax(x, axis=-1):
    """`log(softmax(x))` along `axis`, computed stably."""
    return ops.log_softmax(x, axis=axis)


def softplus(x):
    """`log(exp(x) + 1)`."""
    return ops.softplus(x)


def softsign(x):
    """`x / (abs(x) + 1)`."""
    return ops.softsign(x)


def elu(x, alpha=1.0):
    """Exponential linear unit: `x` if `x > 0`, else `alpha * (exp(x) - 1)`."""
    return ops.elu(x, alpha=alpha)


def selu(x):
    """Scaled ELU: `scale * elu(x, alpha)` with `alpha=1.67326324`, `scale=1.05070098`."""
    return ops.selu(x)


def gelu(x, approximate=False):
    """Gaussian error linear unit `x * P(X <= x)`, `X ~ N(0, 1)` (tanh form if `approximate`)."""
    return ops.gelu(x, approximate=approximate)


def silu(x):
    """`x * sigmoid(x)`, also called swish."""
    return ops.silu(x)


def hard_sigmoid(x):
    """Piecewise linear sigmoid: `0` below -3, `1` above 3, `x / 6 + 0.5` between."""
    return ops.hard_sigmoid(x)


def hard_silu(x):
    """`x * hard_sigmoid(x)`, also called hard swish."""
    return ops.hard_silu(x)


def mish(x):
    """`x * tanh(softplus(x))`."""
    return x * ops.tanh(ops.softplus(x))


def exponential(x):
    """`exp(x)`."""
    return ops.exp(x)


def linear(x):
    """The identity: returns `x` unchanged."""
    return x


def celu(x, alpha=1.0):
    """Continuously differentiable ELU: `x` if `x > 0`, else `alpha * (exp(x / alpha) - 1)`."""
    x = ops.convert_to_tensor(x)
    return ops.relu(x) + ops.minimum(0.0, alpha * (ops.exp(x / alpha) - 1.0))


def glu(x, axis=-1):
    """Gated linear unit: splits `x` in two halves `a, b` along `axis`, returns `a * sigmoid(b)`."""
    x = ops.convert_to_tensor(x)
    if x.shape[axis] is not None and x.shape[axis] % 2:
        raise ValueError("glu needs an even size along `axis` to split it in two halves. "
                         f"Received: x.shape={tuple(x.shape)}, axis={axis}")
    a, b = ops.split(x, 2, axis=axis)
    return a * ops.sigmoid(b)


def hard_shrink(x, threshold=0.5):
    """`x` where `abs(x) > threshold`, else 0."""
    x = ops.convert_to_tensor(x)
    return ops.where(ops.greater(ops.abs(x), threshold), x, ops.zeros_like(x))


def hard_tanh(x):
    """`x` clipped to `[-1, 1]`."""
    return ops.clip(x, -1.0, 1.0)


def log_sigmoid(x):
    """`log(sigmoid(x))`, computed stably as `-softplus(-x)`."""
    return -ops.softplus(-ops.convert_to_tensor(x))


def soft_shrink(x, threshold=0.5):
    """Moves `x` towards 0 by `threshold`, and to 0 inside `[-threshold, threshold]`."""
    x = ops.convert_to_tensor(x)
    return ops.relu(x - threshold) - ops.relu(-x - threshold)


def sparse_plus(x):
    """0 below -1, `x` above 1, and `(x + 1)**2 / 4` between: a smooth ReLU with flat tails."""
    x = ops.convert_to_tensor(x)
    middle = ops.square(ops.clip(x, -1.0, 1.0) + 1.0) / 4.0
    return ops.where(ops.greater_equal(x, 1.0), x, middle)


def sparse_sigmoid(x):
    """0 below -1, 1 above 1, and `(x + 1) / 2` between."""
    return (ops.clip(x, -1.0, 1.0) + 1.0) / 2.0


def sparsemax(x, axis=-1):
    """Euclidean projection of `x` onto the probability simplex along `axis`.

    Like softmax it gives probabilities that sum to 1, but exact zeros for
    small logits. An element `z_j` is in the support when
    `1 + z_j * k_j > s_j`, with `k_j` and `s_j` the count and the sum of the
    elements `>= z_j`; comparing all pairs finds it without sorting, so the
    result stays differentiable through `hikeras.ops`.
    """
    x = ops.convert_to_tensor(x)
    last = len(x.shape) - 1
    axis = axis % len(x.shape)
    if axis != last:
        x = ops.transpose(x, _swap(len(x.shape), axis, last))
    row, column = ops.expand_dims(x, -1), ops.expand_dims(x, -2)
    at_least = ops.cast(ops.greater_equal(column, row), x.dtype)  # [.., j, i]: z_i >= z_j
    count = ops.sum(at_least, axis=-1)
    total = ops.sum(at_least * column, axis=-1)
    support = ops.cast(ops.greater(1.0 + x * count, total), x.dtype)
    tau = (ops.sum(x * support, axis=-1, keepdims=True) - 1.0) / ops.sum(
        support, axis=-1, keepdims=True)
    out = ops.relu(x - tau)
    if axis != last:
        out = ops.transpose(out, _swap(len(x.shape), axis, last))
    return out


def _swap(ndim, a, b):
    order = list(range(ndim))
    order[a], order[b] = order[b], order[a]
    return order


def squareplus(x, b=4):
    """`(x + sqrt(x**2 + b)) / 2`: a smooth ReLU without exponentials."""
    x = ops.convert_to_tensor(x)
    return (x + ops.sqrt(ops.square(x) + b)) / 2.0


def tanh_shrink(x):
    """`x - tanh(x)`."""
    x = ops.convert_to_tensor(x)
    return x - ops.tanh(x)


def threshold(x, threshold, default_value):
    """`x` where `x > threshold`, else `default_value`."""
    x = ops.convert_to_tensor(x)
    return ops.where(ops.greater(x, threshold), x, ops.full_like(x, default_value))


swish = silu
hard_swish = hard_silu

ALL_OBJECTS_DICT = {fn.__name__: fn for fn in (
    relu, leaky_relu, relu6, sigmoid, tanh, softmax, log_softmax, softplus, softsign, elu,
    selu, gelu, silu, hard_sigmoid, hard_silu, mish, exponential, linear, celu, glu,
    hard_shrink, hard_tanh, log_sigmoid, soft_shrink, sparse_plus, sparse_sigmoid, sparsemax,
    squareplus, tanh_shrink, threshold,
)}
ALL_OBJECTS_DICT.update({"swish": silu, "hard_swish": hard_silu})


def serialize(activation):
    """The name of a built-in or registered activation; a config dict for objects."""
    return serialize_keras_object(activation)


def deserialize(config, custom_objects=None):
    """An activation function from its name (or a Keras function-config dict)."""
    if isinstance(config, dict) and config.get("class_name") == "function":
        # Keras 3 writes a function as {"class_name": "function", "config": NAME, ...}
        config = config.get("config")
    return deserialize_keras_object(config, ALL_OBJECTS_DICT, custom_objects,
                                    printable_module_name="activation")


def get(identifier):
    """An activation function from None (`linear`), a name, a config dict or a callable.

    An unknown name raises `ValueError` listing the valid names.
    """
    if identifier is None:
        return linear
    if isinstance(identifier, dict):
        return deserialize(identifier)
    if not (isinstance(identifier, str) or callable(identifier)):
        raise ValueError("Could not interpret activation function identifier; expected a "
                         f"name or a callable. Received: activation={identifier!r}")
    return resolve(identifier, ALL_OBJECTS_DICT, "activation")


__all__ = sorted(ALL_OBJECTS_DICT) + ["deserialize", "get", "serialize"]
