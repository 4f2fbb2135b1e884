"""Regression losses: errors between real-valued targets and predictions.

Each loss comes as a function returning one value per sample (the mean over
the last axis) and as a `Loss` class reducing those over the batch.
"""

import math

import numpy as np

from .. import ops
from ..backend import epsilon
from .loss import Loss, LossFunctionWrapper, as_tensor_or_array, squeeze_or_expand_to_same_rank


def _prepare(fn_name, y_true, y_pred):
    """Labels in the predictions' dtype, at the same rank, checked to broadcast."""
    y_pred = as_tensor_or_array(y_pred)
    y_true = as_tensor_or_array(y_true, y_pred.dtype)
    y_true, y_pred = squeeze_or_expand_to_same_rank(y_true, y_pred)
    try:
        np.broadcast_shapes(tuple(y_true.shape), tuple(y_pred.shape))
    except ValueError:
        raise ValueError(
            f"{fn_name} needs y_true and y_pred of the same shape (or broadcastable). "
            f"Received: y_true.shape={tuple(y_true.shape)}, y_pred.shape={tuple(y_pred.shape)}"
        ) from None
    return y_true, y_pred


def mean_squared_error(y_true, y_pred):
    """Mean of squared errors over the last axis: `mean(square(y_true - y_pred), axis=-1)`.

    Args:
        y_true: targets, shape `(batch_size, d0, ..., dN)`.
        y_pred: predictions, same shape.

    Returns:
        Values of shape `(batch_size, d0, ..., dN-1)`.

    >>> import numpy as np
    >>> mean_squared_error(np.array([[0.0, 1.0]]), np.array([[1.0, 3.0]])).tolist()
    [2.5]
    """
    y_true, y_pred = _prepare("mean_squared_error", y_true, y_pred)
    return ops.mean(ops.square(ops.subtract(y_true, y_pred)), axis=-1)


def mean_absolute_error(y_true, y_pred):
    """Mean of absolute errors over the last axis: `mean(abs(y_true - y_pred), axis=-1)`.

    Args:
        y_true: targets, shape `(batch_size, d0, ..., dN)`.
        y_pred: predictions, same shape.

    Returns:
        Values of shape `(batch_size, d0, ..., dN-1)`.

    >>> import numpy as np
    >>> mean_absolute_error(np.array([[0.0, 1.0]]), np.array([[1.0, 3.0]])).tolist()
    [1.5]
    """
    y_true, y_pred = _prepare("mean_absolute_error", y_true, y_pred)
    return ops.mean(ops.abs(ops.subtract(y_true, y_pred)), axis=-1)


def mean_absolute_percentage_error(y_true, y_pred):
    """`100 * mean(abs((y_true - y_pred) / max(abs(y_true), epsilon)), axis=-1)`.

    A target of 0 is divided by `epsilon()` (1e-7) instead, as in Keras.

    >>> import numpy as np
    >>> mean_absolute_percentage_error(np.array([[2.0, 4.0]]), np.array([[1.0, 5.0]])).tolist()
    [37.5]
    """
    y_true, y_pred = _prepare("mean_absolute_percentage_error", y_true, y_pred)
    scale = ops.maximum(ops.abs(y_true), epsilon())
    return 100.0 * ops.mean(ops.abs(ops.divide(ops.subtract(y_true, y_pred), scale)), axis=-1)


def mean_squared_logarithmic_error(y_true, y_pred):
    """`mean(square(log(max(y_pred, eps) + 1) - log(max(y_true, eps) + 1)), axis=-1)`.

    Values at or below 0 count as `epsilon()` (1e-7), as in Keras.

    >>> import numpy as np
    >>> r = mean_squared_logarithmic_error(np.array([[0.0]]), np.array([[np.e - 1]]))
    >>> round(float(r[0]), 4)
    1.0
    """
    y_true, y_pred = _prepare("mean_squared_logarithmic_error", y_true, y_pred)
    first = ops.log(ops.maximum(y_pred, epsilon()) + 1.0)
    second = ops.log(ops.maximum(y_true, epsilon()) + 1.0)
    return ops.mean(ops.square(ops.subtract(first, second)), axis=-1)


def l2_normalize(x, axis=-1):
    """`x / max(norm(x, axis), epsilon())`: a zero vector stays zero."""
    squares = ops.sum(ops.square(x), axis=axis, keepdims=True)
    return ops.multiply(x, ops.rsqrt(ops.maximum(squares, epsilon() ** 2)))


def cosine_similarity(y_true, y_pred, axis=-1):
    """Negative cosine similarity along `axis`: `-sum(l2_norm(y_true) * l2_norm(y_pred))`.

    Ranges from -1 (same direction) to 1 (opposite); 0 when either vector is zero.

    >>> import numpy as np
    >>> cosine_similarity(np.array([[0.0, 1.0], [1.0, 1.0]]),
    ...                   np.array([[1.0, 0.0], [2.0, 2.0]])).round(4).tolist()
    [-0.0, -1.0]
    """
    y_true, y_pred = _prepare("cosine_similarity", y_true, y_pred)
    return ops.negative(ops.sum(ops.multiply(l2_normalize(y_true, axis),
                                             l2_normalize(y_pred, axis)), axis=axis))


def huber(y_true, y_pred, delta=1.0):
    """Huber loss, averaged over the last axis.

    Per error `x = y_pred - y_true`: `0.5 * x**2` where `|x| <= delta`, else
    `delta * |x| - 0.5 * delta**2`.

    >>> import numpy as np
    >>> huber(np.array([[0.0, 0.0]]), np.array([[0.5, 3.0]])).tolist()
    [1.3125]
    """
    y_true, y_pred = _prepare("huber", y_true, y_pred)
    error = ops.subtract(y_pred, y_true)
    abs_error = ops.abs(error)
    quadratic = 0.5 * ops.square(error)
    linear = delta * abs_error - 0.5 * delta * delta
    return ops.mean(ops.where(ops.less_equal(abs_error, delta), quadratic, linear), axis=-1)


def log_cosh(y_true, y_pred):
    """`mean(log(cosh(y_pred - y_true)), axis=-1)`, computed without overflow.

    Uses `log(cosh(x)) = x + softplus(-2x) - log(2)`.

    >>> import numpy as np
    >>> round(float(log_cosh(np.array([[0.0]]), np.array([[1.0]]))[0]), 4)
    0.4338
    """
    y_true, y_pred = _prepare("log_cosh", y_true, y_pred)
    error = ops.subtract(y_pred, y_true)
    values = error + ops.softplus(error * -2.0) - math.log(2.0)
    return ops.mean(values, axis=-1)


class MeanSquaredError(LossFunctionWrapper):
    """Mean of squared errors: `loss = mean(square(y_true - y_pred))`.

    Args:
        reduction: see `Loss`; defaults to `"sum_over_batch_size"`.
        name: defaults to `"mean_squared_error"`.
        dtype: computation dtype; `None` means `floatx()`.

    >>> import numpy as np
    >>> mse = MeanSquaredError()
    >>> float(mse(np.array([[0.0, 1.0], [0.0, 0.0]]), np.array([[1.0, 1.0], [1.0, 0.0]])))
    0.5
    """

    def __init__(self, reduction="sum_over_batch_size", name="mean_squared_error", dtype=None):
        super().__init__(mean_squared_error, name=name, reduction=reduction, dtype=dtype)

    def get_config(self):
        return Loss.get_config(self)


class MeanAbsoluteError(LossFunctionWrapper):
    """Mean of absolute errors: `loss = mean(abs(y_true - y_pred))`.

    Args:
        reduction: see `Loss`; defaults to `"sum_over_batch_size"`.
        name: defaults to `"mean_absolute_error"`.
        dtype: computation dtype; `None` means `floatx()`.

    >>> import numpy as np
    >>> mae = MeanAbsoluteError()
    >>> float(mae(np.array([[0.0, 1.0], [0.0, 0.0]]), np.array([[1.0, 1.0], [1.0, 0.0]])))
    0.5
    """

    def __init__(self, reduction="sum_over_batch_size", name="mean_absolute_error", dtype=None):
        super().__init__(mean_absolute_error, name=name, reduction=reduction, dtype=dtype)

    def get_config(self):
        return Loss.get_config(self)


class MeanAbsolutePercentageError(LossFunctionWrapper):
    """`100 * mean(abs((y_true - y_pred) / y_true))`, with `|y_true|` at least epsilon.

    >>> import numpy as np
    >>> float(MeanAbsolutePercentageError()(np.array([[2.0, 4.0]]), np.array([[1.0, 5.0]])))
    37.5
    """

    def __init__(self, reduction="sum_over_batch_size",
                 name="mean_absolute_percentage_error", dtype=None):
        super().__init__(mean_absolute_percentage_error, name=name, reduction=reduction,
                         dtype=dtype)

    def get_config(self):
        return Loss.get_config(self)


class MeanSquaredLogarithmicError(LossFunctionWrapper):
    """`mean(square(log(y_pred + 1) - log(y_true + 1)))`, values clamped at epsilon.

    >>> import numpy as np
    >>> round(float(MeanSquaredLogarithmicError()(np.array([[0.0]]), np.array([[np.e - 1]]))), 4)
    1.0
    """

    def __init__(self, reduction="sum_over_batch_size",
                 name="mean_squared_logarithmic_error", dtype=None):
        super().__init__(mean_squared_logarithmic_error, name=name, reduction=reduction,
                         dtype=dtype)

    def get_config(self):
        return Loss.get_config(self)


class CosineSimilarity(LossFunctionWrapper):
    """Negative cosine similarity between labels and predictions along `axis`.

    Args:
        axis: the axis the similarity is computed along. Defaults to `-1`.
        reduction, name, dtype: see `Loss`.

    >>> import numpy as np
    >>> loss = CosineSimilarity()
    >>> round(float(loss(np.array([[0.0, 1.0], [1.0, 1.0]]), np.array([[1.0, 0.0], [1.0, 1.0]]))), 4)
    -0.5
    """

    def __init__(self, axis=-1, reduction="sum_over_batch_size", name="cosine_similarity",
                 dtype=None):
        super().__init__(cosine_similarity, name=name, reduction=reduction, dtype=dtype,
                         axis=axis)
        self.axis = axis

    def get_config(self):
        return {**Loss.get_config(self), "axis": self.axis}


class Huber(LossFunctionWrapper):
    """Quadratic for errors up to `delta`, linear beyond: robust to outliers.

    Args:
        delta: where the loss turns from quadratic to linear. Defaults to `1.0`.
        reduction, name, dtype: see `Loss`.

    >>> import numpy as np
    >>> float(Huber()(np.array([[0.0, 0.0]]), np.array([[0.5, 3.0]])))
    1.3125
    """

    def __init__(self, delta=1.0, reduction="sum_over_batch_size", name="huber_loss",
                 dtype=None):
        super().__init__(huber, name=name, reduction=reduction, dtype=dtype, delta=delta)
        self.delta = delta

    def get_config(self):
        return {**Loss.get_config(self), "delta": self.delta}


class LogCosh(LossFunctionWrapper):
    """`mean(log(cosh(y_pred - y_true)))`: like MSE near 0, like MAE far from it.

    >>> import numpy as np
    >>> round(float(LogCosh()(np.array([[0.0]]), np.array([[1.0]]))), 4)
    0.4338
    """

    def __init__(self, reduction="sum_over_batch_size", name="log_cosh", dtype=None):
        super().__init__(log_cosh, name=name, reduction=reduction, dtype=dtype)

    def get_config(self):
        return Loss.get_config(self)
