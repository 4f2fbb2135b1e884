"""Normalization: feature-wise standardisation with statistics from `adapt` or given values."""

import math

import numpy as np

from ... import backend, ops
from ...backend import Tensor
from ..layer import Layer
from .rescaling import _json_value, _to_float

__all__ = ["Normalization"]


class Normalization(Layer):
    """Standardises features: `(x - mean) / sqrt(variance)`, per position of `axis`.

    The statistics are given (`mean`, `variance`) or learned from data by
    `adapt`, which stores them in the non-trainable weights `mean`,
    `variance` and `count`, so they are saved with the model.

    Args:
        axis: the axis or axes that keep separate statistics (the features);
            all others are reduced. `None` means one scalar mean and variance.
        mean, variance: fixed statistics (both or neither), broadcast against
            the kept axes; the layer then has no weights.
        invert: apply the inverse, `mean + x * sqrt(variance)`.

    >>> import numpy as np
    >>> layer = Normalization()
    >>> layer.adapt(np.array([[0.0, 10.0], [2.0, 30.0]]))
    >>> layer(np.array([[1.0, 20.0]], "float32")).tolist()
    [[0.0, 0.0]]
    """

    def __init__(self, axis=-1, mean=None, variance=None, invert=False, **kwargs):
        super().__init__(**kwargs)
        if axis is None:
            self.axis = ()
        elif isinstance(axis, int):
            self.axis = (axis,)
        else:
            self.axis = tuple(int(a) for a in axis)
        if (mean is None) != (variance is None):
            raise ValueError(
                "Normalization needs both `mean` and `variance`, or neither (then call "
                f"`adapt`). Received: mean={mean!r}, variance={variance!r}"
            )
        self.input_mean = _json_value(mean)
        self.input_variance = _json_value(variance)
        self.invert = bool(invert)

    def build(self, input_shape):
        ndim = len(input_shape)
        if any(not -ndim <= a < ndim for a in self.axis):
            raise ValueError(
                f"Layer '{self.name}' (Normalization) got axes out of range for inputs of "
                f"rank {ndim}. Received: axis={self.axis}"
            )
        keep = tuple(sorted(a % ndim for a in self.axis))
        if any(input_shape[a] is None for a in keep):
            raise ValueError(
                f"Layer '{self.name}' (Normalization) needs known sizes on the kept axes "
                f"{keep}. Received: input_shape={tuple(input_shape)}"
            )
        self._keep_axes = keep
        self._reduce_axes = tuple(a for a in range(ndim) if a not in keep)
        self._broadcast_shape = tuple(input_shape[a] if a in keep else 1 for a in range(ndim))
        shape = tuple(input_shape[a] for a in keep)
        if self.input_mean is None:
            self.adapt_mean = self.add_weight(shape=shape, name="mean", initializer="zeros",
                                              trainable=False)
            self.adapt_variance = self.add_weight(shape=shape, name="variance",
                                                  initializer="ones", trainable=False)
            self.count = self.add_weight(shape=(), name="count", dtype="int64",
                                         initializer="zeros", trainable=False)
        else:
            self._mean = self._aligned(self.input_mean)
            self._variance = self._aligned(self.input_variance)
        super().build(input_shape)

    def _aligned(self, value):
        """A given mean or variance in the inputs' rank: its axes map onto the kept axes
        from the right (Keras's rule), so `[m0, m1, m2]` with `axis=1` on 4D inputs
        becomes shape `(1, 3, 1, 1)`."""
        value = np.asarray(value, self.dtype)
        if value.ndim:
            expanded = [1] * len(self._broadcast_shape)
            for i in range(1, value.ndim + 1):
                expanded[self._keep_axes[-i]] = value.shape[-i]
            value = value.reshape(expanded)
        return np.broadcast_to(value, self._broadcast_shape)

    def _statistics(self):
        if self.input_mean is not None:
            return self._mean, self._variance
        return (ops.reshape(self.adapt_mean, self._broadcast_shape),
                ops.reshape(self.adapt_variance, self._broadcast_shape))

    def call(self, inputs):
        mean, variance = self._statistics()
        spread = ops.maximum(ops.sqrt(variance), backend.epsilon())
        inputs = _to_float(self, inputs)
        if self.invert:
            return ops.add(mean, ops.multiply(inputs, spread))
        return ops.divide(ops.subtract(inputs, mean), spread)

    def adapt(self, data):
        """Sets `mean` and `variance` to the statistics of `data`.

        Args:
            data: an array of samples, or an iterable of batches (e.g. a
                generator or a dataset yielding arrays); batches are merged
                exactly, as if concatenated.
        """
        if self.input_mean is not None:
            raise ValueError(
                f"Layer '{self.name}' (Normalization) was given fixed `mean` and `variance`; "
                "it cannot be adapted. Received: mean and variance in the constructor"
            )
        if isinstance(data, (np.ndarray, Tensor, list)):
            batches = [ops.convert_to_numpy(data)]
        else:
            batches = (ops.convert_to_numpy(b) for b in data)
        count, mean, variance = 0, None, None
        for batch in batches:
            batch = np.asarray(batch, dtype=np.float64)
            self._maybe_build(batch)
            self._check_adapt_shape(batch.shape)
            n = math.prod(batch.shape[a] for a in self._reduce_axes)
            batch_mean = batch.mean(axis=self._reduce_axes)
            batch_var = batch.var(axis=self._reduce_axes)
            if mean is None:
                count, mean, variance = n, batch_mean, batch_var
                continue
            # Chan et al.'s pairwise update: exact for the union of the samples.
            total = count + n
            delta = batch_mean - mean
            mean = mean + delta * (n / total)
            variance = (variance * count + batch_var * n + delta ** 2 * (count * n / total)) / total
            count = total
        if mean is None:
            raise ValueError(f"Layer '{self.name}' (Normalization) cannot adapt to empty data. "
                             "Received: no batches")
        self.adapt_mean.assign(mean)
        self.adapt_variance.assign(variance)
        self.count.assign(count)

    def _check_adapt_shape(self, shape):
        expected = self._broadcast_shape
        if len(shape) != len(expected) or any(
                shape[a] != expected[a] for a in self._keep_axes):
            raise ValueError(
                f"Layer '{self.name}' (Normalization) was built for inputs of shape "
                f"{(None,) + expected[1:]} with axes {self._keep_axes} kept, so it cannot adapt "
                f"to data of shape {shape}. Received: data of shape {shape}"
            )

    def get_config(self):
        config = super().get_config()
        config.update({"axis": self.axis, "invert": self.invert, "mean": self.input_mean,
                       "variance": self.input_variance})
        return config
