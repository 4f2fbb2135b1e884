"""StringLookup: strings to indices through a vocabulary."""

import numpy as np

from .index_lookup import IndexLookup

__all__ = ["StringLookup"]


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
