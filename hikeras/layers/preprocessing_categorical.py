"""Categorical preprocessing layers: `CategoryEncoding`, `Discretization`,
`IntegerLookup` and `StringLookup`.

These layers map data to indices or count vectors with numpy; they have no
gradient and no trainable weights. They work on arrays (and on `Input`s of
integer dtype, or of `"string"` dtype for `StringLookup`, in functional
models). The lookup machinery is in `index_lookup.py`.
"""

import numpy as np

from ..backend import SymbolicTensor, Tensor
from .categorical_encoding import (OUTPUT_MODES, encode_categorical, encoded_shape,
                                   integer_values)
from .index_lookup import IndexLookup, check_choice
from .layer import Layer


def _values(inputs):
    return inputs.value if isinstance(inputs, Tensor) else np.asarray(inputs)


class CategoryEncoding(Layer):
    """Encodes integer category ids `[0, num_tokens)` as one-hot, multi-hot or count vectors.

    Args:
        num_tokens: the number of categories; every input must lie in
            `[0, num_tokens)`, otherwise the call raises a ValueError.
        output_mode: `"one_hot"` (one vector per entry; a trailing axis of
            size 1 is replaced), `"multi_hot"` (default; one vector per sample,
            1 where a category occurs in the sample's last axis) or `"count"`
            (how often each category occurs).
        sparse: must be False (hikeras has no sparse tensors).

    Call arguments:
        inputs: integer ids.
        count_weights: in `"count"` mode, a weight per input entry (same
            shape) summed instead of counting 1.

    >>> import numpy as np
    >>> CategoryEncoding(4, output_mode="count")(np.array([[0, 1, 1], [3, 3, 2]])).tolist()
    [[1.0, 2.0, 0.0, 0.0], [0.0, 0.0, 1.0, 2.0]]
    """

    def __init__(self, num_tokens=None, output_mode="multi_hot", sparse=False, **kwargs):
        super().__init__(**kwargs)
        if output_mode == "binary":
            output_mode = "multi_hot"
        check_choice(self, "output_mode", output_mode, OUTPUT_MODES)
        if (not isinstance(num_tokens, (int, np.integer)) or isinstance(num_tokens, bool)
                or num_tokens < 1):
            raise ValueError(
                f"Layer '{self.name}' (CategoryEncoding) needs `num_tokens`, a positive integer "
                "(use IntegerLookup when the number of categories is not known). "
                f"Received: num_tokens={num_tokens!r}")
        if sparse:
            raise ValueError(f"Layer '{self.name}' (CategoryEncoding): hikeras has no sparse "
                             f"tensors, so `sparse` must be False. Received: sparse={sparse!r}")
        self.num_tokens = int(num_tokens)
        self.output_mode = output_mode
        self.sparse = False

    def call(self, inputs, count_weights=None):
        if isinstance(inputs, SymbolicTensor):
            return self.compute_output_spec(inputs, count_weights)
        indices = integer_values(self, _values(inputs))
        if indices.size and (indices.min() < 0 or indices.max() >= self.num_tokens):
            bad = indices.min() if indices.min() < 0 else indices.max()
            raise ValueError(
                f"Layer '{self.name}' (CategoryEncoding) expects inputs in [0, {self.num_tokens}) "
                f"(num_tokens={self.num_tokens}). Received: a value of {bad} in inputs of shape "
                f"{indices.shape}")
        if count_weights is not None:
            if self.output_mode != "count":
                raise ValueError(
                    f"Layer '{self.name}' (CategoryEncoding) uses `count_weights` only when "
                    f"output_mode='count'. Received: output_mode={self.output_mode!r} with "
                    "count_weights")
            count_weights = _values(count_weights)
            if count_weights.shape != indices.shape:
                raise ValueError(
                    f"Layer '{self.name}' (CategoryEncoding) needs `count_weights` of the inputs' "
                    f"shape {indices.shape}. Received: count_weights of shape "
                    f"{count_weights.shape}")
        return encode_categorical(indices, self.output_mode, self.num_tokens, self.dtype,
                                  count_weights)

    def compute_output_spec(self, inputs, count_weights=None):
        return SymbolicTensor(encoded_shape(inputs.shape, self.output_mode, self.num_tokens),
                              self.dtype)

    def compute_output_shape(self, input_shape):
        return encoded_shape(input_shape, self.output_mode, self.num_tokens)

    def get_config(self):
        config = super().get_config()
        config.update({"num_tokens": self.num_tokens, "output_mode": self.output_mode})
        return config


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


class IntegerLookup(IndexLookup):
    """Maps integer tokens to contiguous indices (or back, with `invert=True`).

    The vocabulary is given (`vocabulary=[...]`, `set_vocabulary`) or learned
    by `adapt`: every distinct token of the data, most frequent first, ties
    broken by the larger token first, cut to `max_tokens`. Index layout, in
    `"int"` mode: the mask index 0 (if `mask_token` is set), then
    `num_oov_indices` out-of-vocabulary indices, then the vocabulary.
    With several OOV indices, an unknown token `t` goes to OOV index
    `t mod num_oov_indices`.

    Args:
        max_tokens: the largest vocabulary size, special indices included.
        num_oov_indices: indices for unknown tokens (0 makes unknown tokens
            an error).
        mask_token: a token that maps to index 0 (and to no slot in the other
            output modes), e.g. 0 for padding.
        oov_token: what `invert=True` returns for OOV indices (default -1).
        vocabulary: a list or 1-D array of tokens, optionally starting with
            the special tokens in the layout above.
        vocabulary_dtype: only `"int64"`.
        idf_weights: in `"tf_idf"` mode with a given vocabulary, one weight
            per vocabulary token (OOV slots get their mean).
        invert: map indices back to tokens.
        output_mode: `"int"`, `"one_hot"`, `"multi_hot"`, `"count"` or
            `"tf_idf"` (counts times inverse document frequencies).
        pad_to_max_tokens: in the vector modes, make the last axis
            `max_tokens` long whatever the vocabulary size.

    >>> import numpy as np
    >>> layer = IntegerLookup(vocabulary=[12, 36, 1138, 42], mask_token=0)
    >>> layer(np.array([[12, 0, 1138, 5]])).tolist()
    [[2, 0, 4, 1]]
    """

    _vocabulary_dtype = "int64"

    def __init__(self, max_tokens=None, num_oov_indices=1, mask_token=None, oov_token=-1,
                 vocabulary=None, vocabulary_dtype="int64", idf_weights=None, invert=False,
                 output_mode="int", sparse=False, pad_to_max_tokens=False,
                 oov_method="floormod", salt=None, name=None, **kwargs):
        if vocabulary_dtype != "int64":
            raise ValueError(f"IntegerLookup supports only vocabulary_dtype='int64'. "
                             f"Received: vocabulary_dtype={vocabulary_dtype!r}")
        super().__init__(max_tokens=max_tokens, num_oov_indices=num_oov_indices,
                         mask_token=mask_token, oov_token=oov_token,
                         vocabulary=vocabulary, idf_weights=idf_weights, invert=invert,
                         output_mode=output_mode, sparse=sparse,
                         pad_to_max_tokens=pad_to_max_tokens, oov_method=oov_method,
                         salt=salt, name=name, **kwargs)

    def _token(self, value):
        if isinstance(value, (bool, np.bool_)) or not isinstance(value, (int, np.integer)):
            raise TypeError(f"Layer '{self.name}' (IntegerLookup) needs integer tokens. "
                            f"Received: token {value!r} of type {type(value).__name__}")
        return int(value)

    def _tokens_from_inputs(self, values):
        return integer_values(self, values)

    def _token_from_text(self, line):
        return int(line)

    def get_config(self):
        config = super().get_config()
        config["vocabulary_dtype"] = self._vocabulary_dtype
        return config


class StringLookup(IndexLookup):
    """Maps string tokens to contiguous indices (or back, with `invert=True`).

    As `IntegerLookup` (which see for the arguments), for strings: numpy
    arrays of `str`, `bytes` (decoded with `encoding`) or Python objects.
    The default `oov_token` is `"[UNK]"`; ties in `adapt` go to the token
    that sorts last. `invert=True` returns a numpy `str` array. Several OOV
    indices would need Keras's FarmHash bucketing and are refused.

    >>> import numpy as np
    >>> layer = StringLookup(vocabulary=["a", "b", "c"])
    >>> layer(np.array([["a", "c", "z"]])).tolist()
    [[1, 3, 0]]
    """

    _vocabulary_dtype = "string"

    def __init__(self, max_tokens=None, num_oov_indices=1, mask_token=None, oov_token="[UNK]",
                 vocabulary=None, idf_weights=None, invert=False, output_mode="int",
                 pad_to_max_tokens=False, sparse=False, encoding="utf-8", name=None, salt=None,
                 **kwargs):
        kwargs.pop("vocabulary_dtype", None)
        self.encoding = encoding
        super().__init__(max_tokens=max_tokens, num_oov_indices=num_oov_indices,
                         mask_token=mask_token, oov_token=oov_token, vocabulary=vocabulary,
                         idf_weights=idf_weights, invert=invert, output_mode=output_mode,
                         sparse=sparse, pad_to_max_tokens=pad_to_max_tokens, salt=salt,
                         name=name, **kwargs)
        if self.num_oov_indices > 1:
            raise ValueError(
                f"Layer '{self.name}' (StringLookup): several OOV indices need Keras's FarmHash "
                "bucketing of strings, which hikeras does not implement; use "
                f"num_oov_indices=1. Received: num_oov_indices={self.num_oov_indices}")

    def _token(self, value):
        if isinstance(value, bytes):
            return value.decode(self.encoding)
        if isinstance(value, str):
            return str(value)
        raise TypeError(f"Layer '{self.name}' (StringLookup) needs string tokens. "
                        f"Received: token {value!r} of type {type(value).__name__}")

    def _tokens_from_inputs(self, values):
        if values.dtype.kind in "US" or values.dtype == object:
            return values
        raise TypeError(f"Layer '{self.name}' (StringLookup) expects string inputs (a numpy "
                        f"str, bytes or object array). Received: inputs of dtype {values.dtype}")

    def _output_tokens(self, tokens, shape):
        return np.array(tokens, dtype=str).reshape(shape)

    def get_config(self):
        config = super().get_config()
        config["encoding"] = self.encoding
        return config


__all__ = ["CategoryEncoding", "Discretization", "IntegerLookup", "StringLookup"]
