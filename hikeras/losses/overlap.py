"""Overlap losses for segmentation: Dice and Tversky.

Both compare the "soft" intersection `sum(y_true * y_pred)` of labels and
predictions with their sizes, over the axes given by `axis`. With the default
`axis=None` every value of the batch is pooled into one number (one overlap
for the whole batch); `axis=(1, 2, 3)` on `(batch, height, width, channels)`
gives one value per image, which the reduction then averages as usual.

`epsilon()` in the denominator keeps an empty label against an empty
prediction at a loss of 1 instead of 0/0.
"""

from .. import ops
from ..backend import epsilon
from .loss import Loss, LossFunctionWrapper, as_tensor_or_array

# Elementwise steps below go through `ops` rather than numpy operators, so a plain
# array watched by a `GradientTape` is traced too.


def _axis(axis):
    # A tuple axis comes back from a JSON config as a list.
    return tuple(axis) if isinstance(axis, list) else axis


def dice(y_true, y_pred, axis=None):
    """Dice loss: `1 - 2 * sum(y_true * y_pred) / (sum(y_true) + sum(y_pred))`.

    Args:
        y_true: targets, usually 0/1 masks.
        y_pred: predictions in `[0, 1]`, shaped like `y_true`.
        axis: the axes the sums run over; `None` (the default) sums over all.

    Returns:
        A scalar for `axis=None`, otherwise the values over the remaining axes.

    >>> import numpy as np
    >>> round(float(dice(np.array([[1.0, 0.0]]), np.array([[1.0, 1.0]]))), 4)
    0.3333
    """
    y_pred = as_tensor_or_array(y_pred)
    y_true = as_tensor_or_array(y_true, y_pred.dtype)
    axis = _axis(axis)
    intersection = ops.sum(ops.multiply(y_true, y_pred), axis=axis)
    total = ops.sum(y_true, axis=axis) + ops.sum(y_pred, axis=axis) + epsilon()
    return 1.0 - 2.0 * intersection / total


def tversky(y_true, y_pred, alpha=0.5, beta=0.5, axis=None):
    """Tversky loss: `1 - TP / (TP + alpha * FP + beta * FN)`, with soft counts.

    `TP = sum(y_true * y_pred)`, `FP = sum((1 - y_pred) * y_true)` and
    `FN = sum(y_pred * (1 - y_true))`, as Keras 3 computes them (so, despite
    the names, `alpha` weights the positives the prediction misses and `beta`
    the predicted values where the label is 0). `alpha = beta = 0.5` gives
    the Dice loss.

    Args:
        y_true: targets, usually 0/1 masks.
        y_pred: predictions in `[0, 1]`, shaped like `y_true`.
        alpha: weight of `FP`. Defaults to `0.5`.
        beta: weight of `FN`. Defaults to `0.5`.
        axis: the axes the sums run over; `None` (the default) sums over all.

    >>> import numpy as np
    >>> round(float(tversky(np.array([[1.0, 0.0]]), np.array([[1.0, 1.0]]), 0.2, 0.8)), 4)
    0.4444
    """
    y_pred = as_tensor_or_array(y_pred)
    y_true = as_tensor_or_array(y_true, y_pred.dtype)
    axis = _axis(axis)
    true_pos = ops.sum(ops.multiply(y_true, y_pred), axis=axis)
    false_pos = ops.sum(ops.multiply(ops.subtract(1.0, y_pred), y_true), axis=axis)
    false_neg = ops.sum(ops.multiply(y_pred, 1.0 - y_true), axis=axis)
    denominator = true_pos + alpha * false_pos + beta * false_neg + epsilon()
    return 1.0 - true_pos / denominator


class Dice(LossFunctionWrapper):
    """The Dice loss, `1 - 2|A∩B| / (|A| + |B|)` on soft masks.

    Args:
        reduction: see `Loss`.
        name: defaults to `"dice"`.
        axis: axes the overlap is computed over; `None` (the default) pools
            the whole batch into one value.
        dtype: see `Loss`.

    >>> import numpy as np
    >>> y_true = np.array([[1.0, 1.0, 0.0], [1.0, 0.0, 0.0]])
    >>> y_pred = np.array([[1.0, 0.0, 0.0], [0.5, 0.0, 0.5]])
    >>> [round(float(v), 4) for v in Dice(axis=1, reduction=None)(y_true, y_pred)]
    [0.3333, 0.5]
    """

    def __init__(self, reduction="sum_over_batch_size", name="dice", axis=None, dtype=None):
        super().__init__(dice, name=name, reduction=reduction, dtype=dtype, axis=axis)
        self.axis = axis

    def get_config(self):
        return {**Loss.get_config(self), "axis": self.axis}


class Tversky(LossFunctionWrapper):
    """The Tversky loss (Salehi et al., 2017): Dice with weighted error terms.

    Args:
        alpha: weight of the `FP` term (see `tversky`). Defaults to `0.5`.
        beta: weight of the `FN` term. Defaults to `0.5`.
        reduction: see `Loss`.
        name: defaults to `"tversky"`.
        axis: axes the overlap is computed over; `None` pools the whole batch.
        dtype: see `Loss`.

    >>> import numpy as np
    >>> loss = Tversky(alpha=0.7, beta=0.3)
    >>> round(float(loss(np.array([[1.0, 1.0, 0.0]]), np.array([[1.0, 0.0, 1.0]]))), 4)
    0.5
    """

    def __init__(self, alpha=0.5, beta=0.5, reduction="sum_over_batch_size", name="tversky",
                 axis=None, dtype=None):
        super().__init__(tversky, name=name, reduction=reduction, dtype=dtype, alpha=alpha,
                         beta=beta, axis=axis)
        self.alpha = alpha
        self.beta = beta
        self.axis = axis

    def get_config(self):
        return {**Loss.get_config(self), "alpha": self.alpha, "beta": self.beta,
                "axis": self.axis}
