"""IntegerLookup: integer values to indices through a vocabulary."""

import numpy as np

from .encoding import integer_values
from .index_lookup import IndexLookup

__all__ = ["IntegerLookup"]


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
