"""Accuracy metrics: how often predictions match labels.

Each comes as a function returning one 0/1 match per sample (or per
position, e.g. per pixel) and as a `MeanMetricWrapper` class averaging them
over the epoch. Accuracy is never differentiated, so these are plain numpy.
"""

import numpy as np

from ..backend import floatx
from .metric import as_array
from .reduction_metrics import MeanMetricWrapper, _to_same_rank


def _matches(equal):
    return equal.astype(floatx())


def accuracy(y_true, y_pred):
    """Exact-match accuracy, elementwise: `y_true == y_pred` as 0/1 floats.

    Like Keras 3, one value per element (a `Mean` then averages each sample's
    values, then the samples).

    >>> accuracy([[1], [2], [3], [4]], [[0], [2], [3], [4]]).tolist()
    [[0.0], [1.0], [1.0], [1.0]]
    """
    y_pred = as_array(y_pred)
    y_true = as_array(y_true, dtype=y_pred.dtype)
    y_true, y_pred = _to_same_rank(y_true, y_pred)
    return _matches(np.equal(y_true, y_pred))


def binary_accuracy(y_true, y_pred, threshold=0.5):
    """Whether `y_pred > threshold` equals the 0/1 label, elementwise (Keras 3).

    >>> binary_accuracy([[1], [1], [0], [0]], [[0.98], [1], [0], [0.6]]).tolist()
    [[1.0], [1.0], [1.0], [0.0]]
    """
    y_true = as_array(y_true)
    y_pred = as_array(y_pred)
    y_true, y_pred = _to_same_rank(y_true, y_pred)
    predicted = (y_pred > threshold).astype(y_true.dtype)
    return _matches(np.equal(y_true, predicted))


def categorical_accuracy(y_true, y_pred):
    """Whether the argmax of the one-hot label equals the argmax of the prediction.

    Raises:
        ValueError: if `y_true` does not end in the class axis of `y_pred`
            (integer labels belong to `sparse_categorical_accuracy`).

    >>> categorical_accuracy([[0, 0, 1], [0, 1, 0]], [[0.1, 0.9, 0.8], [0.05, 0.95, 0]]).tolist()
    [0.0, 1.0]
    """
    y_true = as_array(y_true)
    y_pred = as_array(y_pred)
    if y_true.shape != y_pred.shape:
        raise ValueError(
            "categorical_accuracy expects one-hot labels with the same shape as y_pred. If "
            "y_true holds integer class indices, use sparse_categorical_accuracy. "
            f"Received: y_true.shape={y_true.shape}, y_pred.shape={y_pred.shape}"
        )
    return _matches(np.argmax(y_true, axis=-1) == np.argmax(y_pred, axis=-1))


def _sparse_labels(fn_name, y_true, y_pred):
    """Integer-class labels shaped like `y_pred` without its last axis."""
    y_true = as_array(y_true)
    if y_true.ndim == y_pred.ndim and y_true.ndim and y_true.shape[-1] == 1:
        y_true = y_true[..., 0]
    if y_true.shape != y_pred.shape[:-1]:
        hint = ""
        if y_true.shape == y_pred.shape:
            hint = " y_true looks one-hot encoded: use the non-sparse metric for one-hot labels."
        raise ValueError(
            f"{fn_name} expects integer class indices shaped like y_pred without its last "
            f"(class) axis, e.g. (batch_size,) or (batch_size, 1).{hint} "
            f"Received: y_true.shape={np.shape(y_true)}, y_pred.shape={y_pred.shape}"
        )
    return y_true


def sparse_categorical_accuracy(y_true, y_pred):
    """Whether the integer label equals the argmax of the prediction.

    Labels may be `(N,)` or `(N, 1)` against `(N, C)` predictions, or
    `(N, H, W)` (or `(N, H, W, 1)`) against `(N, H, W, C)` for segmentation.

    >>> sparse_categorical_accuracy([[2], [1]], [[0.1, 0.6, 0.3], [0.05, 0.95, 0]]).tolist()
    [0.0, 1.0]
    """
    y_pred = as_array(y_pred)
    y_true = _sparse_labels("sparse_categorical_accuracy", y_true, y_pred)
    return _matches(y_true == np.argmax(y_pred, axis=-1))


def _in_top_k(labels, scores, k, fn_name):
    """Whether each label's score is among the `k` largest (ties count as in)."""
    num_classes = scores.shape[-1]
    labels = labels.astype(np.int64, copy=False)
    if labels.size and (labels.min() < 0 or labels.max() >= num_classes):
        bad = labels[(labels < 0) | (labels >= num_classes)].flat[0]
        raise ValueError(
            f"{fn_name} received a label value of {bad}, outside the valid range "
            f"[0, {num_classes}). Received: y_pred.shape={scores.shape}"
        )
    k = min(int(k), num_classes)
    kth_largest = np.partition(scores, num_classes - k, axis=-1)[..., num_classes - k]
    target = np.take_along_axis(scores, labels[..., None], axis=-1)[..., 0]
    return _matches(target >= kth_largest)


def top_k_categorical_accuracy(y_true, y_pred, k=5):
    """Whether the one-hot label's class is among the `k` highest-scored classes.

    >>> top_k_categorical_accuracy([[0, 0, 1], [0, 1, 0]], [[0.1, 0.9, 0.8], [0.05, 0.95, 0]],
    ...                            k=1).tolist()
    [0.0, 1.0]
    """
    y_true = as_array(y_true)
    y_pred = as_array(y_pred)
    if y_true.shape != y_pred.shape:
        raise ValueError(
            "top_k_categorical_accuracy expects one-hot labels with the same shape as y_pred. "
            "If y_true holds integer class indices, use sparse_top_k_categorical_accuracy. "
            f"Received: y_true.shape={y_true.shape}, y_pred.shape={y_pred.shape}"
        )
    return _in_top_k(np.argmax(y_true, axis=-1), y_pred, k, "top_k_categorical_accuracy")


def sparse_top_k_categorical_accuracy(y_true, y_pred, k=5):
    """Whether the integer label is among the `k` highest-scored classes.

    >>> sparse_top_k_categorical_accuracy([2, 1], [[0.1, 0.9, 0.8], [0.05, 0.95, 0]],
    ...                                   k=1).tolist()
    [0.0, 1.0]
    """
    y_pred = as_array(y_pred)
    y_true = _sparse_labels("sparse_top_k_categorical_accuracy", y_true, y_pred)
    return _in_top_k(y_true, y_pred, k, "sparse_top_k_categorical_accuracy")


class Accuracy(MeanMetricWrapper):
    """How often predictions exactly equal labels.

    >>> m = Accuracy()
    >>> m.update_state([[1], [2], [3], [4]], [[0], [2], [3], [4]])
    >>> float(m.result())
    0.75
    """

    def __init__(self, name="accuracy", dtype=None):
        super().__init__(accuracy, name=name, dtype=dtype)
        self._direction = "up"

    def get_config(self):
        return {"name": self.name, "dtype": self.dtype}


class BinaryAccuracy(MeanMetricWrapper):
    """How often thresholded predictions match 0/1 labels.

    Args:
        name: defaults to `"binary_accuracy"`.
        dtype: dtype of the state and result.
        threshold: in `(0, 1)`; predictions above it count as 1.

    >>> m = BinaryAccuracy()
    >>> m.update_state([[1], [1], [0], [0]], [[0.98], [1], [0], [0.6]])
    >>> float(m.result())
    0.75
    """

    def __init__(self, name="binary_accuracy", dtype=None, threshold=0.5):
        if threshold is not None and not 0 < threshold < 1:
            raise ValueError(
                "Invalid value for argument `threshold`. Expected a value in interval (0, 1). "
                f"Received: threshold={threshold}"
            )
        super().__init__(binary_accuracy, name=name, dtype=dtype, threshold=threshold)
        self.threshold = threshold
        self._direction = "up"

    def get_config(self):
        return {"name": self.name, "dtype": self.dtype, "threshold": self.threshold}


class CategoricalAccuracy(MeanMetricWrapper):
    """How often the predicted class (argmax) matches the one-hot label.

    >>> m = CategoricalAccuracy()
    >>> m.update_state([[0, 0, 1], [0, 1, 0]], [[0.1, 0.9, 0.8], [0.05, 0.95, 0]])
    >>> float(m.result())
    0.5
    """

    def __init__(self, name="categorical_accuracy", dtype=None):
        super().__init__(categorical_accuracy, name=name, dtype=dtype)
        self._direction = "up"

    def get_config(self):
        return {"name": self.name, "dtype": self.dtype}


class SparseCategoricalAccuracy(MeanMetricWrapper):
    """How often the predicted class (argmax) matches the integer label.

    >>> m = SparseCategoricalAccuracy()
    >>> m.update_state([[2], [1]], [[0.1, 0.6, 0.3], [0.05, 0.95, 0]])
    >>> float(m.result())
    0.5
    """

    def __init__(self, name="sparse_categorical_accuracy", dtype=None):
        super().__init__(sparse_categorical_accuracy, name=name, dtype=dtype)
        self._direction = "up"

    def get_config(self):
        return {"name": self.name, "dtype": self.dtype}


class TopKCategoricalAccuracy(MeanMetricWrapper):
    """How often the one-hot label's class is among the top `k` predictions.

    >>> m = TopKCategoricalAccuracy(k=1)
    >>> m.update_state([[0, 0, 1], [0, 1, 0]], [[0.1, 0.9, 0.8], [0.05, 0.95, 0]])
    >>> float(m.result())
    0.5
    """

    def __init__(self, k=5, name="top_k_categorical_accuracy", dtype=None):
        super().__init__(top_k_categorical_accuracy, name=name, dtype=dtype, k=k)
        self.k = k
        self._direction = "up"

    def get_config(self):
        return {"name": self.name, "dtype": self.dtype, "k": self.k}


class SparseTopKCategoricalAccuracy(MeanMetricWrapper):
    """How often the integer label is among the top `k` predictions.

    >>> m = SparseTopKCategoricalAccuracy(k=1)
    >>> m.update_state([2, 1], [[0.1, 0.9, 0.8], [0.05, 0.95, 0]])
    >>> float(m.result())
    0.5
    """

    def __init__(self, k=5, name="sparse_top_k_categorical_accuracy", dtype=None):
        super().__init__(sparse_top_k_categorical_accuracy, name=name, dtype=dtype, k=k)
        self.k = k
        self._direction = "up"

    def get_config(self):
        return {"name": self.name, "dtype": self.dtype, "k": self.k}
