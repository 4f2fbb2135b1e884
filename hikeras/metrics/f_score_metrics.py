"""`FBetaScore` and `F1Score`: per-class F-scores from accumulated counts."""

import numpy as np

from .metric import Metric, as_array

_EPSILON = 1e-7


class FBetaScore(Metric):
    """`(1 + beta**2) * precision * recall / (beta**2 * precision + recall)`.

    Inputs are `(batch, num_classes)` one-hot (or multi-hot) labels and
    scores. True/false positives and false negatives are accumulated per
    class over the epoch (per sample weight), so the result is exact.

    Args:
        average: `None` (one score per class), `"micro"` (one score from the
            pooled counts), `"macro"` (the mean of the per-class scores) or
            `"weighted"` (their mean weighted by each class's support).
        beta: weight of recall against precision, a float > 0. Defaults to `1.0`.
        threshold: a prediction above it counts as positive; `None` (default)
            takes each sample's highest score as its (only) positive.
        name: defaults to `"fbeta_score"`.
        dtype: dtype of the state and result.

    >>> import numpy as np
    >>> m = FBetaScore(beta=2.0, threshold=0.5)
    >>> m.update_state(np.array([[1, 0], [1, 1]]), np.array([[0.9, 0.8], [0.2, 0.7]]))
    >>> [round(float(v), 4) for v in m.result()]
    [0.5556, 0.8333]
    """

    def __init__(self, average=None, beta=1.0, threshold=None, name="fbeta_score", dtype=None):
        super().__init__(name=name, dtype=dtype)
        self._direction = "up"
        if average not in (None, "micro", "macro", "weighted"):
            raise ValueError("Invalid `average` argument value. Expected one of: {None, "
                             f"'micro', 'macro', 'weighted'}}. Received: average={average!r}")
        if not isinstance(beta, float) or beta <= 0.0:
            raise ValueError("Invalid `beta` argument value. It should be a Python float > 0. "
                             f"Received: beta={beta!r}")
        if threshold is not None and (not isinstance(threshold, float)
                                      or not 0.0 < threshold <= 1.0):
            raise ValueError("Invalid `threshold` argument value. It should be a Python float "
                             f"with 0 < threshold <= 1. Received: threshold={threshold!r}")
        self.average = average
        self.beta = beta
        self.threshold = threshold
        self._axis = None if average == "micro" else 0
        self._built = False

    def _build(self, y_true_shape, y_pred_shape):
        if len(y_pred_shape) != 2 or len(y_true_shape) != 2:
            raise ValueError(
                f"{type(self).__name__} expects 2D inputs with shape (batch_size, output_dim). "
                f"Received: y_true.shape={y_true_shape}, y_pred.shape={y_pred_shape}")
        shape = () if self.average == "micro" else (y_pred_shape[-1],)
        self.true_positives = self.add_variable(shape, name="true_positives")
        self.false_positives = self.add_variable(shape, name="false_positives")
        self.false_negatives = self.add_variable(shape, name="false_negatives")
        self.intermediate_weights = self.add_variable(shape, name="intermediate_weights")
        self._built = True

    def update_state(self, y_true, y_pred, sample_weight=None):
        """Adds the batch's per-class counts."""
        y_true = as_array(y_true, self.dtype)
        y_pred = as_array(y_pred, self.dtype)
        if not self._built:
            self._build(y_true.shape, y_pred.shape)
        if self.threshold is None:
            top = np.max(y_pred, axis=-1, keepdims=True)
            predicted = (y_pred >= top) & (np.abs(y_pred) > 1e-9)
        else:
            predicted = y_pred > self.threshold
        predicted = predicted.astype(self.dtype)
        weight = None if sample_weight is None else as_array(sample_weight, self.dtype)[:, None]

        def weighted_sum(values):
            if weight is not None:
                values = values * weight
            return np.sum(values, axis=self._axis)

        self.true_positives.value += weighted_sum(predicted * y_true)
        self.false_positives.value += weighted_sum(predicted * (1 - y_true))
        self.false_negatives.value += weighted_sum((1 - predicted) * y_true)
        self.intermediate_weights.value += weighted_sum(y_true)

    def result(self):
        if not self._built:
            return np.zeros((), dtype=self.dtype)[()]
        tp, fp, fn = self.true_positives.value, self.false_positives.value, \
            self.false_negatives.value
        precision = tp / (tp + fp + _EPSILON)
        recall = tp / (tp + fn + _EPSILON)
        beta2 = self.beta ** 2
        score = precision * recall / (beta2 * precision + recall + _EPSILON) * (1 + beta2)
        if self.average == "weighted":
            support = self.intermediate_weights.value
            score = np.sum(score * (support / (np.sum(support) + _EPSILON)))
        elif self.average is not None:
            score = np.mean(score)
        return np.asarray(score, dtype=self.dtype)[()]

    def get_config(self):
        return {**super().get_config(), "average": self.average, "beta": self.beta,
                "threshold": self.threshold}


class F1Score(FBetaScore):
    """The harmonic mean of precision and recall, per class (`FBetaScore` with `beta=1`).

    Args: `average`, `threshold`, `name` (defaults to `"f1_score"`), `dtype`:
    see `FBetaScore`.

    >>> import numpy as np
    >>> m = F1Score(average="macro", threshold=0.5)
    >>> m.update_state(np.array([[1, 0], [0, 1]]), np.array([[0.9, 0.8], [0.2, 0.7]]))
    >>> round(float(m.result()), 4)
    0.8333
    """

    def __init__(self, average=None, threshold=None, name="f1_score", dtype=None):
        super().__init__(average=average, beta=1.0, threshold=threshold, name=name, dtype=dtype)

    def get_config(self):
        config = super().get_config()
        del config["beta"]
        return config
