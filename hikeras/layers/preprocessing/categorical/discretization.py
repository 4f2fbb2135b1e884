"""Discretization: buckets continuous values, with bin boundaries from `adapt`."""

import numpy as np

from ....backend import SymbolicTensor, Tensor
from ...layer import Layer
from .category_encoding import _values
from .encoding import OUTPUT_MODES, encode_categorical, encoded_shape
from .index_lookup import check_choice

__all__ = ["Discretization"]


class Discretization(Layer):
    """Buckets numbers into ranges: `bin_boundaries` given, or learned by `adapt`.

    With boundaries `[b0, b1, ...]`, a value `x` goes to bin 0 if `x < b0`,
    bin `i` if `b(i-1) <= x < b(i)` and the last bin if `x >= b(-1)`.
    Inputs are compared in the float dtype `floatx()`.

    Args:
        bin_boundaries: the sorted boundaries (`len + 1` bins).
        num_bins: instead, the number of bins for `adapt` to find: it places
            the boundaries at approximate quantiles of the data (Keras's
            algorithm: per batch, a summary of about `1 / epsilon` sorted
            values, merged and interpolated to `num_bins` equal-weight bins).
        epsilon: the error tolerance of the quantile summary.
        output_mode: `"int"` (the bin index, int32), `"one_hot"`,
            `"multi_hot"` or `"count"` (as `CategoryEncoding`).
        sparse: must be False.

    >>> import numpy as np
    >>> layer = Discretization(bin_boundaries=[0.0, 1.0, 2.0])
    >>> layer(np.array([[-1.0, 0.0, 0.5, 1.0, 3.0]])).tolist()
    [[0, 1, 1, 2, 3]]
    >>> layer = Discretization(num_bins=4)
    >>> layer.adapt(np.arange(1.0, 11.0))
    >>> layer.bin_boundaries
    [2.5, 5.0, 7.5]
    """

    def __init__(self, bin_boundaries=None, num_bins=None, epsilon=0.01, output_mode="int",
                 sparse=False, dtype=None, name=None, **kwargs):
        super().__init__(dtype=dtype, name=name, **kwargs)
        check_choice(self, "output_mode", output_mode, ("int",) + OUTPUT_MODES)
        if sparse:
            raise ValueError(f"Layer '{self.name}' (Discretization): hikeras has no sparse "
                             f"tensors, so `sparse` must be False. Received: sparse={sparse!r}")
        if num_bins is not None and (isinstance(num_bins, bool) or num_bins < 0):
            raise ValueError(f"Layer '{self.name}' (Discretization) needs `num_bins` >= 0. "
                             f"Received: num_bins={num_bins!r}")
        if (num_bins is None) == (bin_boundaries is None):
            raise ValueError(
                f"Layer '{self.name}' (Discretization) needs exactly one of `bin_boundaries` "
                f"and `num_bins`. Received: bin_boundaries={bin_boundaries!r}, "
                f"num_bins={num_bins!r}")
        self.bin_boundaries = None if bin_boundaries is None else _float_list(bin_boundaries)
        if self.bin_boundaries is not None and np.any(np.diff(self.bin_boundaries) < 0):
            raise ValueError(f"Layer '{self.name}' (Discretization) needs sorted "
                             f"`bin_boundaries`. Received: bin_boundaries={bin_boundaries!r}")
        self.num_bins = None if num_bins is None else int(num_bins)
        self.epsilon = float(epsilon)
        self.output_mode = output_mode
        self.sparse = False

    def adapt(self, data):
        """Learns `num_bins - 1` boundaries at approximate quantiles of `data`.

        Args:
            data: a numpy array (one batch), or an iterable of batches (a
                list, generator or dataset yielding arrays), as in Keras.
        """
        if self.num_bins is None:
            raise ValueError(
                f"Layer '{self.name}' (Discretization) was given `bin_boundaries`; only a layer "
                "made with `num_bins` can adapt. Received: bin_boundaries="
                f"{self.bin_boundaries}")
        if isinstance(data, (np.ndarray, Tensor)) or not hasattr(data, "__iter__"):
            data = [data]
        summary = _empty_summary()
        for batch in data:
            batch = np.asarray(_values(batch), dtype=np.float32).reshape(-1)
            summary = _merge(_summarize(batch, self.epsilon), summary, self.epsilon)
        if summary.shape[1] == 0:
            raise ValueError(f"Layer '{self.name}' (Discretization) cannot adapt to empty data. "
                             "Received: no values")
        self.bin_boundaries = _compress(summary, 1.0 / self.num_bins)[0, :-1].tolist()

    def _depth(self):
        if self.bin_boundaries is not None:
            return len(self.bin_boundaries) + 1
        return self.num_bins

    def call(self, inputs):
        if isinstance(inputs, SymbolicTensor):
            return self.compute_output_spec(inputs)
        if self.bin_boundaries is None:
            raise ValueError(
                f"Layer '{self.name}' (Discretization) has no bin boundaries yet: pass "
                "`bin_boundaries` or call `adapt(data)` first. Received: bin_boundaries=None")
        values = _values(inputs).astype(self.dtype, copy=False)
        edges = np.asarray(self.bin_boundaries, dtype=self.dtype)
        indices = np.searchsorted(edges, values, side="right").astype(np.int32)
        if self.output_mode == "int":
            return indices
        return encode_categorical(indices, self.output_mode, self._depth(), self.dtype)

    def compute_output_spec(self, inputs):
        dtype = "int32" if self.output_mode == "int" else self.dtype
        return SymbolicTensor(encoded_shape(inputs.shape, self.output_mode, self._depth()),
                              dtype)

    def compute_output_shape(self, input_shape):
        return encoded_shape(input_shape, self.output_mode, self._depth())

    def get_config(self):
        config = {"bin_boundaries": self.bin_boundaries, "num_bins": self.num_bins,
                  "epsilon": self.epsilon, "output_mode": self.output_mode,
                  "sparse": self.sparse, "name": self.name, "dtype": self.dtype}
        if self._batch_input_shape is not None:
            config["batch_input_shape"] = self._batch_input_shape
        return config

    @classmethod
    def from_config(cls, config, custom_objects=None):
        """Also restores an adapted layer, whose config holds both `num_bins`
        and the learned `bin_boundaries` (as Keras writes it)."""
        config = dict(config)
        boundaries = config.get("bin_boundaries")
        if boundaries is not None and config.get("num_bins") is not None:
            del config["bin_boundaries"]
            layer = cls(**config)
            layer.bin_boundaries = _float_list(boundaries)
            return layer
        return cls(**config)


def _float_list(values):
    return [float(v) for v in np.asarray(values, dtype=np.float64).reshape(-1)]


# Keras's approximate quantiles. A summary is a 2-row float32 array: sorted
# values and the weight (number of samples) each stands for. Matching its
# arithmetic step for step makes adapted boundaries equal Keras's.
def _empty_summary():
    return np.zeros((2, 0), dtype=np.float32)


def _summarize(values, epsilon):
    """Every `step`-th sorted value, `step` chosen to keep about `1/epsilon` values."""
    values = np.sort(values)
    step = max(values.size / (1.0 / epsilon), 1)  # Keras's rounding: not size * epsilon
    picked = values[int(step - 1)::int(step)]
    return np.stack([picked, np.full_like(picked, 1) * step])


def _merge(summary, other, epsilon):
    both = np.concatenate((summary, other), axis=1)
    return _compress(both[:, np.argsort(both[0])], epsilon)


def _compress(summary, epsilon):
    """Re-samples a summary at cumulative-weight fractions `epsilon, 2*epsilon, ..., 1`."""
    if summary.shape[1] * epsilon < 1:
        return summary
    fractions = epsilon + np.arange(0.0, 1.0, epsilon)
    cumulative = summary[1].cumsum()
    position = cumulative / cumulative[-1]
    values = np.interp(fractions, position, summary[0])
    new_cumulative = np.interp(fractions, position, cumulative)
    weights = new_cumulative - np.concatenate(([0.0], new_cumulative[:-1]))
    return np.stack((values, weights)).astype(np.float32)
