"""Focal crossentropies (Lin et al., 2017): crossentropy scaled down on easy examples.

A well-classified example (true-class probability `p_t` near 1) has its
crossentropy multiplied by `(1 - p_t) ** gamma`, so training concentrates on
the hard ones; `gamma = 0` gives back the plain crossentropy.
"""

import warnings

from .. import ops
from ..backend import epsilon
from .loss import Loss, LossFunctionWrapper, as_tensor_or_array, squeeze_or_expand_to_same_rank


def _check_same_shape(fn_name, y_true, y_pred):
    if tuple(y_true.shape) != tuple(y_pred.shape):
        raise ValueError(
            f"{fn_name} needs y_true and y_pred of the same shape. Received: "
            f"y_true.shape={tuple(y_true.shape)}, y_pred.shape={tuple(y_pred.shape)}"
        )


def binary_focal_crossentropy(y_true, y_pred, apply_class_balancing=False, alpha=0.25,
                              gamma=2.0, from_logits=False, label_smoothing=0.0, axis=-1):
    """Binary focal crossentropy, averaged over `axis`.

    Per value: `(1 - p_t) ** gamma * bce`, with `p_t = y_pred` for label 1 and
    `1 - y_pred` for label 0; with `apply_class_balancing`, also times `alpha`
    for label 1 and `1 - alpha` for label 0.

    Args:
        y_true: 0/1 labels, shaped like `y_pred`.
        y_pred: probabilities, or logits if `from_logits`.
        apply_class_balancing: whether to weight the classes by `alpha`.
        alpha: weight of class 1 when balancing. Defaults to `0.25`.
        gamma: focusing parameter. Defaults to `2.0`.
        from_logits: whether `y_pred` holds logits.
        label_smoothing: labels are squeezed towards 0.5 by this much.
        axis: the axis the mean is taken over.

    >>> import numpy as np
    >>> r = binary_focal_crossentropy(np.array([[0.0, 1.0]]), np.array([[0.4, 0.6]]), gamma=2.0)
    >>> round(float(r[0]), 4)
    0.0817
    """
    y_pred = as_tensor_or_array(y_pred)
    y_true = as_tensor_or_array(y_true, y_pred.dtype)
    y_true, y_pred = squeeze_or_expand_to_same_rank(y_true, y_pred)
    _check_same_shape("binary_focal_crossentropy", y_true, y_pred)
    if label_smoothing:
        y_true = y_true * (1.0 - label_smoothing) + 0.5 * label_smoothing
    if from_logits:
        y_pred = ops.sigmoid(y_pred)
    bce = ops.binary_crossentropy(y_true, y_pred)
    p_t = y_true * y_pred + (1.0 - y_true) * (1.0 - y_pred)
    focal = ops.power(1.0 - p_t, gamma) * bce
    if apply_class_balancing:
        focal = (y_true * alpha + (1.0 - y_true) * (1.0 - alpha)) * focal
    return ops.mean(focal, axis=axis)


def categorical_focal_crossentropy(y_true, y_pred, alpha=0.25, gamma=2.0, from_logits=False,
                                   label_smoothing=0.0, axis=-1):
    """Categorical focal crossentropy: `sum(alpha * (1 - p) ** gamma * -y_true * log(p))`.

    `p` is the prediction renormalised to sum to 1 along `axis` and clipped
    to `[epsilon, 1 - epsilon]` (after a softmax when `from_logits`).

    >>> import numpy as np
    >>> r = categorical_focal_crossentropy(np.array([[0.0, 1.0]]), np.array([[0.5, 0.5]]))
    >>> round(float(r[0]), 4)
    0.0433
    """
    y_pred = as_tensor_or_array(y_pred)
    y_true = as_tensor_or_array(y_true, y_pred.dtype)
    _check_same_shape("categorical_focal_crossentropy", y_true, y_pred)
    if y_pred.shape[-1] == 1:
        warnings.warn(
            "categorical_focal_crossentropy expects y_pred of shape (batch_size, "
            f"num_classes) with num_classes > 1. Received: y_pred.shape={tuple(y_pred.shape)}. "
            "Consider binary_focal_crossentropy for 2 classes.", stacklevel=2)
    if label_smoothing:
        y_true = y_true * (1.0 - label_smoothing) + label_smoothing / y_true.shape[-1]
    if from_logits:
        y_pred = ops.softmax(y_pred, axis=axis)
    output = y_pred / ops.sum(y_pred, axis=axis, keepdims=True)
    output = ops.clip(output, epsilon(), 1.0 - epsilon())
    crossentropy = -y_true * ops.log(output)
    focal = ops.power(1.0 - output, gamma) * alpha * crossentropy
    return ops.sum(focal, axis=axis)


class BinaryFocalCrossentropy(LossFunctionWrapper):
    """Binary crossentropy down-weighting well-classified examples.

    Args:
        apply_class_balancing: weight class 1 by `alpha`, class 0 by `1 - alpha`.
        alpha: class-1 weight when balancing. Defaults to `0.25`.
        gamma: focusing parameter. Defaults to `2.0`.
        from_logits: whether predictions are logits.
        label_smoothing: in `[0, 1]`; labels are squeezed towards 0.5.
        axis: the axis the per-sample mean is taken over.
        reduction, name, dtype: see `Loss`.

    >>> import numpy as np
    >>> loss = BinaryFocalCrossentropy(gamma=2.0)
    >>> round(float(loss(np.array([[0.0, 1.0]]), np.array([[0.4, 0.6]]))), 4)
    0.0817
    """

    def __init__(self, apply_class_balancing=False, alpha=0.25, gamma=2.0, from_logits=False,
                 label_smoothing=0.0, axis=-1, reduction="sum_over_batch_size",
                 name="binary_focal_crossentropy", dtype=None):
        super().__init__(binary_focal_crossentropy, name=name, reduction=reduction,
                         dtype=dtype, apply_class_balancing=apply_class_balancing,
                         alpha=alpha, gamma=gamma, from_logits=from_logits,
                         label_smoothing=label_smoothing, axis=axis)
        self.apply_class_balancing = apply_class_balancing
        self.alpha = alpha
        self.gamma = gamma
        self.from_logits = from_logits
        self.label_smoothing = label_smoothing
        self.axis = axis

    def get_config(self):
        return {**Loss.get_config(self), "apply_class_balancing": self.apply_class_balancing,
                "alpha": self.alpha, "gamma": self.gamma, "from_logits": self.from_logits,
                "label_smoothing": self.label_smoothing, "axis": self.axis}


class CategoricalFocalCrossentropy(LossFunctionWrapper):
    """Categorical crossentropy down-weighting well-classified examples.

    Args:
        alpha: class weighting factor (a float). Defaults to `0.25`.
        gamma: focusing parameter. Defaults to `2.0`.
        from_logits: whether predictions are logits.
        label_smoothing: in `[0, 1]`, as in `CategoricalCrossentropy`.
        axis: the class axis.
        reduction, name, dtype: see `Loss`.

    >>> import numpy as np
    >>> loss = CategoricalFocalCrossentropy()
    >>> round(float(loss(np.array([[0.0, 1.0]]), np.array([[0.5, 0.5]]))), 4)
    0.0433
    """

    def __init__(self, alpha=0.25, gamma=2.0, from_logits=False, label_smoothing=0.0, axis=-1,
                 reduction="sum_over_batch_size", name="categorical_focal_crossentropy",
                 dtype=None):
        super().__init__(categorical_focal_crossentropy, name=name, reduction=reduction,
                         dtype=dtype, alpha=alpha, gamma=gamma, from_logits=from_logits,
                         label_smoothing=label_smoothing, axis=axis)
        self.alpha = alpha
        self.gamma = gamma
        self.from_logits = from_logits
        self.label_smoothing = label_smoothing
        self.axis = axis

    def get_config(self):
        return {**Loss.get_config(self), "alpha": self.alpha, "gamma": self.gamma,
                "from_logits": self.from_logits, "label_smoothing": self.label_smoothing,
                "axis": self.axis}
