"""Regression losses: errors between real-valued targets and predictions.

Each loss comes as a function returning one value per sample (the mean over
the last axis) and as a `Loss` class reducing those over the batch.
"""

import numpy as np

from .. import ops
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
