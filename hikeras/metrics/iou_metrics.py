"""Intersection-over-union metrics for segmentation: `IoU`, `MeanIoU` and variants.

A `(num_classes, num_classes)` confusion matrix (rows: true class, columns:
predicted class) is accumulated over the epoch; per class,
`IoU = tp / (tp + fp + fn)`, and classes that never occur (in labels or
predictions) are left out of the mean.
"""

import warnings

import numpy as np

from ..ops import updates
from .metric import Metric, as_array

_EPSILON = 1e-7


class IoU(Metric):
    """Mean IoU over `target_class_ids`, from the epoch's confusion matrix.

    Args:
        num_classes: number of classes.
        target_class_ids: the classes whose IoU is averaged.
        name: the metric's name.
        dtype: dtype of the confusion matrix; defaults to `"int32"` as in
            Keras (so fractional sample weights are truncated: pass integer
            weights, or `dtype="float32"`).
        ignore_class: a label value (e.g. 255) whose pixels are left out.
        sparse_y_true: whether labels are class indices (True) or one-hot.
        sparse_y_pred: whether predictions are class indices (True) or scores.
        axis: the class axis of one-hot labels / score predictions.

    >>> m = IoU(num_classes=2, target_class_ids=[0])
    >>> m.update_state([0, 0, 1, 1], [0, 1, 0, 1])
    >>> round(float(m.result()), 4)
    0.3333
    """

    def __init__(self, num_classes, target_class_ids, name=None, dtype=None, ignore_class=None,
                 sparse_y_true=True, sparse_y_pred=True, axis=-1):
        super().__init__(name=name, dtype=dtype or "int32")
        self._direction = "up"
        if max(target_class_ids) >= num_classes:
            raise ValueError(f"Target class id {max(target_class_ids)} is out of range, which "
                             f"is [0, {num_classes}). Received: "
                             f"target_class_ids={list(target_class_ids)}")
        self.num_classes = num_classes
        self.target_class_ids = list(target_class_ids)
        self.ignore_class = ignore_class
        self.sparse_y_true = sparse_y_true
        self.sparse_y_pred = sparse_y_pred
        self.axis = axis
        self.total_cm = self.add_variable((num_classes, num_classes),
                                          name="total_confusion_matrix")

    def update_state(self, y_true, y_pred, sample_weight=None):
        """Adds the batch's (weighted) confusion matrix."""
        y_true, y_pred = as_array(y_true), as_array(y_pred)
        if not self.sparse_y_true:
            y_true = np.argmax(y_true, axis=self.axis)
        if not self.sparse_y_pred:
            y_pred = np.argmax(y_pred, axis=self.axis)
        y_true = y_true.astype(self.dtype).reshape(-1)
        y_pred = y_pred.astype(self.dtype).reshape(-1)
        if sample_weight is None:
            weight = np.ones(y_true.shape, dtype=self.dtype)
        else:
            weight = as_array(sample_weight)
            if weight.dtype.kind == "f" and np.dtype(self.dtype).kind in "iu":
                warnings.warn("You are passing weight as `float`, but dtype is `int`. This may "
                              "result in an incorrect weight due to type casting. Consider "
                              "using integer weights.", stacklevel=2)
            weight = np.broadcast_to(weight.astype(self.dtype).reshape(-1)
                                     if weight.ndim > 1 else weight.astype(self.dtype),
                                     y_true.shape)
        updates.confusion_matrix_update(self.total_cm.value, y_true, y_pred, weight,
                                        ignore_class=self.ignore_class)

    def result(self):
        cm = self.total_cm.value
        tp = np.diag(cm).astype(np.float32)
        denominator = (cm.sum(axis=0) + cm.sum(axis=1)).astype(np.float32) - tp
        ids = self.target_class_ids
        tp, denominator = tp[ids], denominator[ids]
        valid = denominator > 1e-9
        iou = np.where(valid, tp / (denominator + np.float32(_EPSILON)), 0.0)
        return np.float32(iou.sum() / (valid.sum() + np.float32(_EPSILON)))

    def get_config(self):
        return {**super().get_config(), "num_classes": self.num_classes,
                "target_class_ids": self.target_class_ids, "ignore_class": self.ignore_class,
                "sparse_y_true": self.sparse_y_true, "sparse_y_pred": self.sparse_y_pred,
                "axis": self.axis}


class MeanIoU(IoU):
    """The mean IoU over all `num_classes` classes (those present in the epoch).

    >>> m = MeanIoU(num_classes=2)
    >>> m.update_state([0, 0, 1, 1], [0, 1, 0, 1])
    >>> round(float(m.result()), 4)
    0.3333
    """

    def __init__(self, num_classes, name=None, dtype=None, ignore_class=None,
                 sparse_y_true=True, sparse_y_pred=True, axis=-1):
        super().__init__(num_classes, list(range(num_classes)), name=name, dtype=dtype,
                         ignore_class=ignore_class, sparse_y_true=sparse_y_true,
                         sparse_y_pred=sparse_y_pred, axis=axis)

    def get_config(self):
        config = super().get_config()
        del config["target_class_ids"]
        return config


class BinaryIoU(IoU):
    """IoU of a binary problem: predictions `>= threshold` are class 1.

    >>> m = BinaryIoU(target_class_ids=[1])
    >>> m.update_state([0, 1, 1, 1], [0.2, 0.7, 0.4, 0.9])
    >>> round(float(m.result()), 4)
    0.6667
    """

    def __init__(self, target_class_ids=(0, 1), threshold=0.5, name=None, dtype=None):
        super().__init__(2, target_class_ids, name=name, dtype=dtype)
        self.threshold = threshold

    def update_state(self, y_true, y_pred, sample_weight=None):
        predicted = (as_array(y_pred, "float32") >= self.threshold).astype(self.dtype)
        super().update_state(y_true, predicted, sample_weight)

    def get_config(self):
        return {"target_class_ids": self.target_class_ids, "threshold": self.threshold,
                "name": self.name, "dtype": self.dtype}


class OneHotIoU(IoU):
    """`IoU` for one-hot labels and per-class scores (argmax over `axis`)."""

    def __init__(self, num_classes, target_class_ids, name=None, dtype=None, ignore_class=None,
                 sparse_y_pred=False, axis=-1):
        super().__init__(num_classes, target_class_ids, name=name, dtype=dtype,
                         ignore_class=ignore_class, sparse_y_true=False,
                         sparse_y_pred=sparse_y_pred, axis=axis)

    def get_config(self):
        config = super().get_config()
        del config["sparse_y_true"]
        return config


class OneHotMeanIoU(MeanIoU):
    """`MeanIoU` for one-hot labels and per-class scores (argmax over `axis`)."""

    def __init__(self, num_classes, name=None, dtype=None, ignore_class=None,
                 sparse_y_pred=False, axis=-1):
        super().__init__(num_classes, name=name, dtype=dtype, ignore_class=ignore_class,
                         sparse_y_true=False, sparse_y_pred=sparse_y_pred, axis=axis)

    def get_config(self):
        config = super().get_config()
        del config["sparse_y_true"]
        return config
