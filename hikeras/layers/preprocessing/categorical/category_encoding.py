"""CategoryEncoding: integer ids to one-hot, multi-hot or counts."""

import numpy as np

from ....backend import SymbolicTensor, Tensor
from ...layer import Layer
from .encoding import OUTPUT_MODES, encode_categorical, encoded_shape, integer_values
from .index_lookup import check_choice

__all__ = ["CategoryEncoding"]


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
