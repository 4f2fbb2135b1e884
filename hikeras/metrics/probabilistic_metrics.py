"""Loss-valued metrics: the epoch mean of a loss function's per-sample values.

`compile(metrics=["binary_crossentropy"])` gives the same numbers as these
classes; they exist for their arguments (`from_logits`, `label_smoothing`,
...) and for Keras's class names.
"""

from .. import losses
from .metric import as_array
from .reduction_metrics import Mean, MeanMetricWrapper


class _LossMean(MeanMetricWrapper):
    """The mean of `function(y_true, y_pred, **options)` over the epoch."""

    def __init__(self, function, name, dtype, **options):
        super().__init__(function, name=name, dtype=dtype, **options)
        self._options = options
        self._direction = "down"

    def get_config(self):
        return {"name": self.name, "dtype": self.dtype, **self._options}


class BinaryCrossentropy(_LossMean):
    """Mean binary crossentropy over the epoch.

    >>> m = BinaryCrossentropy()
    >>> m.update_state([[0.0, 1.0], [0.0, 0.0]], [[0.6, 0.4], [0.4, 0.6]])
    >>> round(float(m.result()), 3)
    0.815
    """

    def __init__(self, name="binary_crossentropy", dtype=None, from_logits=False,
                 label_smoothing=0):
        super().__init__(losses.binary_crossentropy, name, dtype, from_logits=from_logits,
                         label_smoothing=label_smoothing)


class CategoricalCrossentropy(_LossMean):
    """Mean categorical crossentropy over the epoch.

    >>> m = CategoricalCrossentropy()
    >>> m.update_state([[0, 1, 0], [0, 0, 1]], [[0.05, 0.95, 0], [0.1, 0.8, 0.1]])
    >>> round(float(m.result()), 3)
    1.177
    """

    def __init__(self, name="categorical_crossentropy", dtype=None, from_logits=False,
                 label_smoothing=0, axis=-1):
        super().__init__(losses.categorical_crossentropy, name, dtype, from_logits=from_logits,
                         label_smoothing=label_smoothing, axis=axis)


class SparseCategoricalCrossentropy(_LossMean):
    """Mean sparse categorical crossentropy over the epoch.

    With `ignore_class`, positions labelled with that class are left out of
    the mean (as the loss leaves them out); Keras 3.15 instead averages their
    zero losses in, and fails when sample weights are given as well.

    >>> m = SparseCategoricalCrossentropy()
    >>> m.update_state([1, 2], [[0.05, 0.95, 0], [0.1, 0.8, 0.1]])
    >>> round(float(m.result()), 3)
    1.177
    >>> m = SparseCategoricalCrossentropy(ignore_class=-1)
    >>> m.update_state([1, -1], [[0.05, 0.95, 0], [0.1, 0.8, 0.1]])
    >>> round(float(m.result()), 3)  # -log(0.95), the second sample left out
    0.051
    """

    def __init__(self, name="sparse_categorical_crossentropy", dtype=None, from_logits=False,
                 ignore_class=None, axis=-1):
        super().__init__(losses.sparse_categorical_crossentropy, name, dtype,
                         from_logits=from_logits, ignore_class=ignore_class, axis=axis)

    def update_state(self, y_true, y_pred, sample_weight=None):
        ignore_class = self._options["ignore_class"]
        if ignore_class is None:
            return super().update_state(y_true, y_pred, sample_weight)
        values = self._fn(as_array(y_true), as_array(y_pred), **self._fn_kwargs)
        valid = as_array(y_true).reshape(values.shape) != ignore_class
        weight = valid.astype(values.dtype)
        if sample_weight is not None:
            sample_weight = as_array(sample_weight, values.dtype)
            sample_weight = sample_weight.reshape(
                sample_weight.shape + (1,) * (values.ndim - sample_weight.ndim))
            weight = weight * sample_weight
        return Mean.update_state(self, values, sample_weight=weight)


class KLDivergence(_LossMean):
    """Mean Kullback-Leibler divergence over the epoch.

    >>> m = KLDivergence()
    >>> m.update_state([[1.0, 0.0]], [[0.5, 0.5]])
    >>> round(float(m.result()), 4)
    0.6931
    """

    def __init__(self, name="kl_divergence", dtype=None):
        super().__init__(losses.kl_divergence, name, dtype)


class Poisson(_LossMean):
    """Mean Poisson loss over the epoch.

    >>> m = Poisson()
    >>> m.update_state([[1.0]], [[1.0]])
    >>> round(float(m.result()), 4)
    1.0
    """

    def __init__(self, name="poisson", dtype=None):
        super().__init__(losses.poisson, name, dtype)


class Hinge(_LossMean):
    """Mean hinge loss over the epoch (0/1 labels are mapped to -1/1).

    >>> m = Hinge()
    >>> m.update_state([[0.0, 1.0]], [[0.5, 0.5]])
    >>> float(m.result())
    1.0
    """

    def __init__(self, name="hinge", dtype=None):
        super().__init__(losses.hinge, name, dtype)


class SquaredHinge(_LossMean):
    """Mean squared hinge loss over the epoch.

    >>> m = SquaredHinge()
    >>> m.update_state([[0.0, 1.0]], [[0.5, 0.5]])
    >>> float(m.result())
    1.25
    """

    def __init__(self, name="squared_hinge", dtype=None):
        super().__init__(losses.squared_hinge, name, dtype)


class CategoricalHinge(_LossMean):
    """Mean categorical hinge loss over the epoch.

    >>> m = CategoricalHinge()
    >>> m.update_state([[0.0, 1.0]], [[0.3, 0.6]])
    >>> round(float(m.result()), 4)
    0.7
    """

    def __init__(self, name="categorical_hinge", dtype=None):
        super().__init__(losses.categorical_hinge, name, dtype)
