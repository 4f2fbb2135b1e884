"""Crossentropy losses, for predictions that are probabilities or logits.

The numerics live in `hikeras.ops` (`binary_crossentropy`,
`categorical_crossentropy`, `sparse_categorical_crossentropy`): probabilities
are clipped to `[epsilon, 1 - epsilon]`, so a prediction of exactly 0 for the
true class costs `-log(1e-7)` ~ 16.12 rather than infinity, and
`from_logits=True` uses fused, stable softmax/sigmoid kernels. This module
adds what Keras adds on top: label smoothing, the label-format checks that
turn the most common mistake (integer labels with the categorical loss, or
one-hot labels with the sparse one) into a clear message, and `ignore_class`.
"""

import warnings

import numpy as np

from .. import ops
from ..backend import Tensor
from ..utils.remembered_logits import remembered_logits
from .loss import Loss, LossFunctionWrapper, as_tensor_or_array, squeeze_or_expand_to_same_rank


def _shape(x):
    return tuple(x.shape)


def binary_crossentropy(y_true, y_pred, from_logits=False, label_smoothing=0.0, axis=-1):
    """Binary crossentropy, averaged over `axis` (the last one by default).

    Args:
        y_true: 0/1 targets (or probabilities), shape `(batch_size, d0, ..., dN)`;
            `(batch_size,)` labels against `(batch_size, 1)` predictions are fine.
        y_pred: probabilities, or logits if `from_logits`.
        from_logits: whether `y_pred` holds logits.
        label_smoothing: in `[0, 1]`; labels are squeezed towards 0.5:
            `y_true * (1 - label_smoothing) + 0.5 * label_smoothing`.
        axis: the axis the mean is taken over.

    Returns:
        Values of shape `(batch_size, d0, ..., dN-1)`.

    >>> import numpy as np
    >>> y_true = np.array([[0.0, 1.0], [0.0, 0.0]])
    >>> y_pred = np.array([[0.6, 0.4], [0.4, 0.6]])
    >>> np.round(binary_crossentropy(y_true, y_pred), 3).tolist()
    [0.916, 0.714]
    """
    y_pred, from_logits = _logits_if_remembered(y_pred, from_logits, "sigmoid")
    y_pred = as_tensor_or_array(y_pred)
    y_true = as_tensor_or_array(y_true, y_pred.dtype)
    y_true, y_pred = squeeze_or_expand_to_same_rank(y_true, y_pred)
    if _shape(y_true) != _shape(y_pred):
        hint = ""
        if len(y_true.shape) == len(y_pred.shape) - 1 and y_pred.shape[-1] > 1:
            hint = (" If y_true holds integer class indices of a multi-class problem, use "
                    "sparse_categorical_crossentropy.")
        raise ValueError(
            "binary_crossentropy needs y_true and y_pred of the same shape "
            f"(one 0/1 target per prediction).{hint} "
            f"Received: y_true.shape={_shape(y_true)}, y_pred.shape={_shape(y_pred)}"
        )
    if label_smoothing:
        y_true = y_true * (1.0 - label_smoothing) + 0.5 * label_smoothing
    return ops.mean(ops.binary_crossentropy(y_true, y_pred, from_logits=from_logits), axis=axis)


def categorical_crossentropy(y_true, y_pred, from_logits=False, label_smoothing=0.0, axis=-1):
    """Categorical crossentropy between one-hot labels and class scores.

    Args:
        y_true: one-hot labels (or class probabilities), same shape as `y_pred`.
        y_pred: probabilities (renormalised to sum to 1 along `axis`), or
            logits if `from_logits`.
        from_logits: whether `y_pred` holds logits.
        label_smoothing: in `[0, 1]`; labels become
            `y_true * (1 - label_smoothing) + label_smoothing / num_classes`.
        axis: the class axis.

    Returns:
        Values with the class axis removed.

    Raises:
        ValueError: if `y_true` is not shaped like `y_pred`, which usually
            means integer labels that belong to `sparse_categorical_crossentropy`.

    >>> import numpy as np
    >>> y_true = np.array([[0.0, 1.0, 0.0], [0.0, 0.0, 1.0]])
    >>> y_pred = np.array([[0.05, 0.95, 0.0], [0.1, 0.8, 0.1]])
    >>> np.round(categorical_crossentropy(y_true, y_pred), 4).tolist()
    [0.0513, 2.3026]
    """
    if isinstance(axis, bool) or not isinstance(axis, (int, np.integer)):
        raise ValueError(f"`axis` must be an int. Received: axis={axis!r}")
    y_pred, from_logits = _logits_if_remembered(y_pred, from_logits, "softmax", axis)
    y_pred = as_tensor_or_array(y_pred)
    y_true = as_tensor_or_array(y_true, y_pred.dtype)
    if _shape(y_true) != _shape(y_pred):
        raise ValueError(
            "categorical_crossentropy expects y_true to be one-hot encoded (or class "
            "probabilities) with the same shape as y_pred. If y_true holds integer class "
            "indices, use sparse_categorical_crossentropy instead (or one-hot encode the "
            f"labels). Received: y_true.shape={_shape(y_true)}, y_pred.shape={_shape(y_pred)}"
        )
    if y_pred.shape[axis] == 1:
        warnings.warn(
            "categorical_crossentropy expects y_pred of shape (batch_size, num_classes) with "
            f"num_classes > 1; with one class the loss is always 0. Received: "
            f"y_pred.shape={_shape(y_pred)}. Consider binary_crossentropy for 2 classes.",
            stacklevel=2,
        )
    if label_smoothing:
        num_classes = y_true.shape[axis]
        y_true = y_true * (1.0 - label_smoothing) + label_smoothing / num_classes
    return ops.categorical_crossentropy(y_true, y_pred, from_logits=from_logits, axis=axis)


def sparse_categorical_crossentropy(y_true, y_pred, from_logits=False, ignore_class=None,
                                    axis=-1):
    """Categorical crossentropy with integer class indices as labels.

    Args:
        y_true: integer class indices in `[0, num_classes)`, shaped like
            `y_pred` without its class axis; a trailing axis of size 1 is
            allowed (`(batch_size, 1)` labels).
        y_pred: probabilities, or logits if `from_logits`.
        from_logits: whether `y_pred` holds logits.
        ignore_class: optional class index (e.g. -1 or 255, a "void" class in
            segmentation maps) whose positions get a loss of 0.
        axis: the class axis of `y_pred`.

    Returns:
        Values shaped like the labels.

    Raises:
        ValueError: for one-hot labels (use `categorical_crossentropy`), labels
            of the wrong shape, non-integer labels, or labels outside
            `[0, num_classes)`.

    >>> import numpy as np
    >>> y_pred = np.array([[0.05, 0.95, 0.0], [0.1, 0.8, 0.1]])
    >>> np.round(sparse_categorical_crossentropy(np.array([1, 2]), y_pred), 4).tolist()
    [0.0513, 2.3026]
    """
    y_pred, from_logits = _logits_if_remembered(y_pred, from_logits, "softmax", axis)
    y_pred = as_tensor_or_array(y_pred)
    labels, valid = _sparse_labels(y_true, y_pred, axis, ignore_class)
    values = ops.sparse_categorical_crossentropy(labels, y_pred, from_logits=from_logits,
                                                 axis=axis)
    if valid is not None:
        values = ops.where(valid, values, np.zeros((), dtype=values.dtype))
    return values


def _logits_if_remembered(y_pred, from_logits, kind, axis=-1):
    """`(logits, True)` when `y_pred` is a softmax/sigmoid output whose logits are known
    (Keras 3 computes the crossentropy from them), else `(y_pred, from_logits)`."""
    if from_logits:
        return y_pred, from_logits
    logits = remembered_logits(y_pred, kind, axis)
    return (y_pred, False) if logits is None else (logits, True)


def _sparse_labels(y_true, y_pred, axis, ignore_class):
    """Checked integer labels (ignored ones set to 0) and the boolean valid mask."""
    labels = np.asarray(y_true.value if isinstance(y_true, Tensor) else y_true)
    pred_shape = _shape(y_pred)
    rank = len(pred_shape)
    class_axis = axis % rank if rank else 0
    if labels.ndim == rank and rank and labels.shape[-1] == 1:
        labels = labels.reshape(labels.shape[:-1])
    elif labels.ndim == rank and rank and labels.shape[-1] > 1:
        raise ValueError(
            "sparse_categorical_crossentropy expects integer class indices, one per sample "
            "(shape (batch_size,) or (batch_size, 1)), but y_true has the rank of y_pred and "
            "looks one-hot encoded. Use categorical_crossentropy for one-hot labels. "
            f"Received: y_true.shape={labels.shape}, y_pred.shape={pred_shape}"
        )
    expected = pred_shape[:class_axis] + pred_shape[class_axis + 1:]
    if labels.shape != expected:
        raise ValueError(
            f"sparse_categorical_crossentropy expects y_true of shape {expected}: y_pred's "
            "shape without the class axis, one integer class index per position. "
            f"Received: y_true.shape={np.shape(y_true)}, y_pred.shape={pred_shape}"
        )
    if labels.dtype.kind == "f":
        fractional = labels != np.floor(labels)
        if fractional.any():
            raise ValueError(
                "sparse_categorical_crossentropy expects integer class indices as labels. "
                f"Received: a label value of {labels[fractional].flat[0].item()!r} "
                f"(y_true.shape={np.shape(y_true)}, y_pred.shape={pred_shape})"
            )
    valid = None if ignore_class is None else labels != ignore_class
    checked = labels if valid is None else labels[valid]
    num_classes = pred_shape[class_axis]
    if checked.size and (checked.min() < 0 or checked.max() >= num_classes):
        bad = checked[(checked < 0) | (checked >= num_classes)]
        raise ValueError(
            f"sparse_categorical_crossentropy received a label value of {bad.flat[0].item()!r}, "
            f"outside the valid range [0, {num_classes}) for y_pred with {num_classes} "
            f"classes ({bad.size} label(s) out of range). Received: "
            f"y_true.shape={np.shape(y_true)}, y_pred.shape={pred_shape}"
        )
    labels = labels.astype(np.int64, copy=False)
    if valid is not None:
        labels = np.where(valid, labels, 0)
    return labels, valid


class BinaryCrossentropy(LossFunctionWrapper):
    """Crossentropy between 0/1 labels and predicted probabilities (or logits).

    Args:
        from_logits: whether predictions are logits (more stable) rather
            than probabilities.
        label_smoothing: in `[0, 1]`; labels are squeezed towards 0.5.
        axis: the axis the per-sample mean is taken over.
        reduction: see `Loss`; defaults to `"sum_over_batch_size"`.
        name: defaults to `"binary_crossentropy"`.
        dtype: computation dtype; `None` means `floatx()`.

    >>> import numpy as np
    >>> bce = BinaryCrossentropy()
    >>> y_true = np.array([[0.0, 1.0], [0.0, 0.0]])
    >>> round(float(bce(y_true, np.array([[0.6, 0.4], [0.4, 0.6]]))), 3)
    0.815
    """

    def __init__(self, from_logits=False, label_smoothing=0.0, axis=-1,
                 reduction="sum_over_batch_size", name="binary_crossentropy", dtype=None):
        super().__init__(binary_crossentropy, name=name, reduction=reduction, dtype=dtype,
                         from_logits=from_logits, label_smoothing=label_smoothing, axis=axis)
        self.from_logits = from_logits
        self.label_smoothing = label_smoothing
        self.axis = axis

    def get_config(self):
        config = Loss.get_config(self)
        config.update(from_logits=self.from_logits, label_smoothing=self.label_smoothing,
                      axis=self.axis)
        return config


class CategoricalCrossentropy(LossFunctionWrapper):
    """Crossentropy between one-hot labels and predicted class probabilities.

    Use `SparseCategoricalCrossentropy` for integer class-index labels.

    Args:
        from_logits: whether predictions are logits rather than probabilities.
        label_smoothing: in `[0, 1]`; `0.1` means a target of
            `0.9 + 0.1 / num_classes` and `0.1 / num_classes` elsewhere.
        axis: the class axis.
        reduction: see `Loss`; defaults to `"sum_over_batch_size"`.
        name: defaults to `"categorical_crossentropy"`.
        dtype: computation dtype; `None` means `floatx()`.

    >>> import numpy as np
    >>> cce = CategoricalCrossentropy()
    >>> y_true = np.array([[0, 1, 0], [0, 0, 1]])
    >>> round(float(cce(y_true, np.array([[0.05, 0.95, 0], [0.1, 0.8, 0.1]]))), 3)
    1.177
    """

    def __init__(self, from_logits=False, label_smoothing=0.0, axis=-1,
                 reduction="sum_over_batch_size", name="categorical_crossentropy", dtype=None):
        super().__init__(categorical_crossentropy, name=name, reduction=reduction, dtype=dtype,
                         from_logits=from_logits, label_smoothing=label_smoothing, axis=axis)
        self.from_logits = from_logits
        self.label_smoothing = label_smoothing
        self.axis = axis

    def get_config(self):
        config = Loss.get_config(self)
        config.update(from_logits=self.from_logits, label_smoothing=self.label_smoothing,
                      axis=self.axis)
        return config


class SparseCategoricalCrossentropy(LossFunctionWrapper):
    """Crossentropy between integer class indices and predicted class probabilities.

    With `ignore_class`, positions labelled with that class get no loss and
    the mean reductions divide by the number of positions that remain.

    Args:
        from_logits: whether predictions are logits rather than probabilities.
        ignore_class: optional label value to leave out (e.g. 255 or -1).
        reduction: see `Loss`; defaults to `"sum_over_batch_size"`.
        name: defaults to `"sparse_categorical_crossentropy"`.
        dtype: computation dtype; `None` means `floatx()`.

    >>> import numpy as np
    >>> scce = SparseCategoricalCrossentropy()
    >>> round(float(scce(np.array([1, 2]), np.array([[0.05, 0.95, 0], [0.1, 0.8, 0.1]]))), 3)
    1.177
    """

    _cast_labels = False  # labels stay integer class indices

    def __init__(self, from_logits=False, ignore_class=None,
                 reduction="sum_over_batch_size", name="sparse_categorical_crossentropy",
                 dtype=None):
        super().__init__(sparse_categorical_crossentropy, name=name, reduction=reduction,
                         dtype=dtype, from_logits=from_logits, ignore_class=ignore_class)
        self.from_logits = from_logits
        self.ignore_class = ignore_class

    def _loss_mask(self, y_true, y_pred):
        if self.ignore_class is None:
            return None
        labels = np.asarray(y_true.value if isinstance(y_true, Tensor) else y_true)
        if labels.ndim == len(y_pred.shape) and labels.ndim and labels.shape[-1] == 1:
            labels = labels.reshape(labels.shape[:-1])
        return labels != self.ignore_class

    def get_config(self):
        config = Loss.get_config(self)
        config.update(from_logits=self.from_logits, ignore_class=self.ignore_class)
        return config
