"""Metrics that reduce values over all samples seen: `Mean`, `Sum`, `MeanMetricWrapper`.

`Mean` keeps a running weighted `total` and `count`, so its result is the
exact mean over every sample of the epoch however the batches were sized
(a smaller last batch counts for what it holds, not as a full batch).
`MeanMetricWrapper` puts any per-sample function behind a `Mean`; it is what
`compile(metrics=["mae"])` builds.
"""

import numpy as np

from .. import losses
from ..ops import updates
from ..serialization import resolve, serialize_keras_object
from .metric import ALL_OBJECTS_DICT, Metric, as_array


def _to_same_rank(values, weight):
    """Keras's fix-up when ranks differ by one and the longer ends in 1."""
    if values.ndim == weight.ndim + 1 and values.shape[-1] == 1:
        if weight.ndim == 1:
            weight = weight[:, None]
        else:
            values = values[..., 0]
    elif weight.ndim == values.ndim + 1 and weight.shape[-1] == 1:
        if values.ndim == 1:
            values = values[:, None]
        else:
            weight = weight[..., 0]
    return values, weight


def aligned_values_and_weights(values, sample_weight, dtype):
    """`values` and `sample_weight` as arrays of `dtype` that `Mean` and `Sum` can reduce.

    Applies Keras's rank fix-up and checks that the weights broadcast over
    the values' leading axes (values with more axes than the weights are
    reduced over the extra trailing ones, inside the update op).

    Raises:
        ValueError: if the weights do not fit the values.
    """
    values = as_array(values, dtype)
    if sample_weight is None:
        return values, None
    weight = as_array(sample_weight, dtype)
    values, weight = _to_same_rank(values, weight)
    leading = values.shape[:weight.ndim] if values.ndim > weight.ndim else values.shape
    try:
        fits = np.broadcast_shapes(weight.shape, leading) == leading
    except ValueError:
        fits = False
    if not fits:
        raise ValueError(
            "`sample_weight` must have one weight per sample (or per value). Received: "
            f"sample_weight.shape={np.shape(sample_weight)}, values.shape={leading}"
        )
    return values, weight


class Sum(Metric):
    """The (weighted) sum of all values seen.

    Args:
        name: defaults to `"sum"`.
        dtype: dtype of the state and result; `None` means `floatx()`.

    >>> m = Sum()
    >>> m.update_state([1, 3, 5, 7])
    >>> float(m.result())
    16.0
    >>> m.reset_state()
    >>> m.update_state([1, 3, 5, 7], sample_weight=[1, 1, 0, 0])
    >>> float(m.result())
    4.0
    """

    def __init__(self, name="sum", dtype=None):
        super().__init__(name=name, dtype=dtype)
        self.total = self.add_variable(shape=(), initializer="zeros", name="total")

    def update_state(self, values, sample_weight=None):
        """Adds the (weighted) sum of `values` to the total."""
        values, weight = aligned_values_and_weights(values, sample_weight, self.dtype)
        updates.sum_metric_update(self.total.value, values, weight)

    def result(self):
        return self.total.value.copy()[()]


class Mean(Metric):
    """The (weighted) mean of all values seen: `total / count`.

    Each sample counts with its weight (1 by default); values with extra
    axes (e.g. per-timestep) are first averaged within their sample.

    Args:
        name: defaults to `"mean"`.
        dtype: dtype of the state and result; `None` means `floatx()`.

    >>> m = Mean()
    >>> m.update_state([1, 3, 5, 7])
    >>> float(m.result())
    4.0
    >>> m.reset_state()
    >>> m.update_state([1, 3, 5, 7], sample_weight=[1, 1, 0, 0])
    >>> float(m.result())
    2.0
    """

    def __init__(self, name="mean", dtype=None):
        super().__init__(name=name, dtype=dtype)
        self.total = self.add_variable(shape=(), initializer="zeros", name="total")
        self.count = self.add_variable(shape=(), initializer="zeros", name="count")

    def update_state(self, values, sample_weight=None):
        """Adds one batch of values (and optional per-sample weights)."""
        values, weight = aligned_values_and_weights(values, sample_weight, self.dtype)
        updates.mean_metric_update(self.total.value, self.count.value, values, weight)

    def result(self):
        count = self.count.value
        if count == 0:
            return np.zeros((), dtype=self.dtype)[()]
        return (self.total.value / count).astype(self.dtype)[()]


class MeanMetricWrapper(Mean):
    """The mean over all samples of a per-sample function `fn(y_true, y_pred)`.

    Inputs are converted to numpy first, so the function never records on a
    gradient tape. When both inputs have rank 1 and `fn` averages over the
    last axis (as `mean_squared_error` or `binary_accuracy` do), that axis is
    the batch, so each element is kept as its own sample: the epoch mean is
    then exact for any batching.

    Args:
        fn: the function, returning one value per sample (or per position).
        name: defaults to `fn`'s name.
        dtype: dtype of the state and result; `None` means `floatx()`.
        **kwargs: passed on to `fn` (and saved in the config).

    >>> import numpy as np
    >>> def absolute_error(y_true, y_pred):
    ...     return np.abs(y_true - y_pred)
    >>> m = MeanMetricWrapper(absolute_error)
    >>> m.update_state(np.array([0.0, 0.0, 0.0, 0.0]), np.array([1.0, 2.0, 3.0, 4.0]))
    >>> m.update_state(np.array([0.0, 0.0]), np.array([5.0, 6.0]))
    >>> float(m.result())
    3.5
    """

    def __init__(self, fn, name=None, dtype=None, **kwargs):
        if not callable(fn):
            raise TypeError(f"`fn` must be callable. Received: fn={fn!r}")
        super().__init__(name=name or getattr(fn, "__name__", None), dtype=dtype)
        self._fn = fn
        self._fn_kwargs = kwargs
        self._direction = "down" if _is_loss(fn) else None

    def update_state(self, y_true, y_pred, sample_weight=None):
        """Evaluates `fn` on one batch and adds its per-sample values."""
        y_true = as_array(y_true)
        y_pred = as_array(y_pred)
        # (N,) labels against (N, 1) predictions: never broadcast them into (N, N)
        y_true, y_pred = _to_same_rank(y_true, y_pred)
        if y_true.ndim == 1 and y_pred.ndim == 1 and self._fn in _last_axis_mean_fns():
            y_true, y_pred = y_true[:, None], y_pred[:, None]
        values = self._fn(y_true, y_pred, **self._fn_kwargs)
        super().update_state(values, sample_weight=sample_weight)

    def get_config(self):
        config = super().get_config()
        config["fn"] = serialize_keras_object(self._fn)
        config.update(self._fn_kwargs)
        return config

    @classmethod
    def from_config(cls, config):
        config = dict(config)
        if "fn" in config:
            config["fn"] = _resolve_fn(config["fn"])
        return cls(**config)


def _resolve_fn(identifier):
    """A wrapped function from its saved name: metric functions, then losses."""
    try:
        return resolve(identifier, ALL_OBJECTS_DICT, "metric")
    except ValueError:
        return losses.get(identifier)


def _is_loss(fn):
    return isinstance(fn, losses.Loss) or fn in losses.LOSS_FUNCTIONS


def _last_axis_mean_fns():
    """Functions whose value is a mean over the last axis of elementwise terms."""
    return (losses.mean_squared_error, losses.mean_absolute_error,
            losses.mean_absolute_percentage_error, losses.mean_squared_logarithmic_error,
            losses.binary_crossentropy, losses.binary_focal_crossentropy, losses.huber,
            losses.log_cosh, losses.hinge, losses.squared_hinge, losses.poisson)
