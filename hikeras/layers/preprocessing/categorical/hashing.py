"""Hashing: strings or integers to bucket numbers, with Keras's exact hashes."""

import numpy as np

from .... import backend
from ....backend import SymbolicTensor, Tensor
from ...layer import Layer
from .encoding import encode_categorical, encoded_shape
from .farmhash import fingerprint64
from .index_lookup import check_choice
from .siphash import siphash24
from .string_hashing import as_bytes, hash_bytes, value_kind

__all__ = ["Hashing"]

_MODES = ("int", "one_hot", "multi_hot", "count")


def _is_int(value):
    return isinstance(value, (int, np.integer)) and not isinstance(value, bool)


class Hashing(Layer):
    """Hashes strings or integers into `num_bins` buckets, as Keras does on TensorFlow.

    Without a `salt` the hash is FarmHash Fingerprint64 (Keras's
    `to_hash_bucket_fast`); with one it is SipHash-2-4 keyed by the salt
    (`to_hash_bucket_strong`). The bucket numbers are Keras's, bit for bit:
    strings are hashed as UTF-8 bytes, integers as their decimal text, floats
    after truncation to integers.

    Args:
        num_bins: the number of buckets, including the mask bucket when
            `mask_value` is set.
        mask_value: inputs equal to it go to bucket 0, and the others to
            `[1, num_bins)`. None (default) means no mask bucket.
        salt: an integer, or a pair of integers, keying SipHash; None (default)
            uses FarmHash.
        output_mode: `"int"` (default, the bucket numbers), `"one_hot"`,
            `"multi_hot"` or `"count"` (as `CategoryEncoding`).
        sparse: must be False (hikeras has no sparse tensors).

    >>> import numpy as np
    >>> Hashing(num_bins=3)(np.array([["A"], ["B"], ["C"], ["D"], ["E"]])).tolist()
    [[1], [0], [1], [1], [2]]
    """

    def __init__(self, num_bins, mask_value=None, salt=None, output_mode="int", sparse=False,
                 **kwargs):
        if output_mode == "binary":
            output_mode = "multi_hot"
        if kwargs.get("dtype") is None:
            kwargs["dtype"] = "int64" if output_mode == "int" else backend.floatx()
        super().__init__(**kwargs)
        check_choice(self, "output_mode", output_mode, _MODES)
        if not _is_int(num_bins) or num_bins <= 0:
            raise ValueError(f"Layer '{self.name}' (Hashing) needs `num_bins`, a positive "
                             f"integer. Received: num_bins={num_bins!r}")
        if output_mode == "int" and self.dtype not in ("int32", "int64"):
            raise ValueError(f"Layer '{self.name}' (Hashing): with output_mode='int' the dtype "
                             f"must be 'int32' or 'int64'. Received: dtype={self.dtype!r}")
        if sparse:
            raise ValueError(f"Layer '{self.name}' (Hashing): hikeras has no sparse tensors, "
                             f"so `sparse` must be False. Received: sparse={sparse!r}")
        if salt is not None:
            if _is_int(salt):
                salt = [int(salt), int(salt)]
            elif isinstance(salt, (list, tuple)) and len(salt) == 2 and all(map(_is_int, salt)):
                salt = [int(s) for s in salt]
            else:
                raise ValueError(f"Layer '{self.name}' (Hashing) takes a `salt` of one integer "
                                 f"or a pair of integers. Received: salt={salt!r}")
        self.num_bins = int(num_bins)
        self.mask_value = mask_value
        self.salt = salt
        self.strong_hash = salt is not None
        self.output_mode = output_mode
        self.sparse = False

    def _convert_inputs(self, inputs):
        return inputs  # hashed as given: no cast of floats to the layer's dtype (as Keras)

    def call(self, inputs):
        if isinstance(inputs, SymbolicTensor):
            return self.compute_output_spec(inputs)
        values = inputs.value if isinstance(inputs, Tensor) else np.asarray(inputs)
        bins = self.hash_to_bins(values)
        if self.output_mode == "int":
            return bins.astype(self.dtype)
        return encode_categorical(bins, self.output_mode, self.num_bins, self.dtype)

    def hash_to_bins(self, values):
        """The int64 bucket number of each entry of the numpy array `values`."""
        kind = value_kind(values)
        if kind is None:
            raise TypeError(f"Layer '{self.name}' (Hashing) hashes strings, integers, floats "
                            f"or bools. Received: inputs of dtype {values.dtype}")
        strings = as_bytes(values, kind)
        num_hash_bins = self.num_bins
        masked = None
        if self.mask_value is not None and self.num_bins > 1:
            num_hash_bins -= 1
            masked = self._masked(values, kind, strings)
        if self.strong_hash:
            hashes = hash_bytes(strings, lambda rows: siphash24(rows, self.salt))
        else:
            hashes = hash_bytes(strings, fingerprint64)
        bins = (hashes % np.uint64(num_hash_bins)).astype(np.int64).reshape(values.shape)
        if masked is not None:
            bins = np.where(masked, 0, bins + 1)
        return bins

    def _masked(self, values, kind, strings):
        if kind == "string":
            mask = self.mask_value
            mask = mask if isinstance(mask, bytes) else str(mask).encode("utf-8")
            return np.array([s == mask for s in strings], dtype=bool).reshape(values.shape)
        return values == self.mask_value

    def compute_output_spec(self, inputs):
        return SymbolicTensor(self.compute_output_shape(inputs.shape), self.dtype)

    def compute_output_shape(self, input_shape):
        return encoded_shape(input_shape, self.output_mode, self.num_bins)

    def get_config(self):
        config = super().get_config()
        config.update({"num_bins": self.num_bins, "salt": self.salt,
                       "mask_value": self.mask_value, "output_mode": self.output_mode,
                       "sparse": self.sparse})
        return config
