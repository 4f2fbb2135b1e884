"""`SparseTensor`: what a `VarLenFeature` parses to, with TensorFlow's three fields."""

import numpy as np


class SparseTensor:
    """A sparse array as `indices` (int64, `(n, rank)`), `values` (`(n,)`) and `dense_shape`.

    This is the value `tf.io.VarLenFeature` parses to; `to_dense()` gives the
    padded dense array (`tf.sparse.to_dense`).
    """

    def __init__(self, indices, values, dense_shape):
        self.indices = np.asarray(indices, dtype=np.int64)
        self.values = np.asarray(values)
        self.dense_shape = np.asarray(dense_shape, dtype=np.int64)

    @property
    def shape(self):
        return tuple(int(d) for d in self.dense_shape)

    @property
    def dtype(self):
        return self.values.dtype

    def to_dense(self, default_value=None):
        """The dense array, holes filled with `default_value` (0, or b"" for strings)."""
        if default_value is None:
            default_value = b"" if self.values.dtype == object else 0
        dense = np.full(self.shape, default_value, dtype=self.values.dtype)
        dense[tuple(self.indices.T)] = self.values
        return dense

    def __repr__(self):
        return (f"SparseTensor(indices={self.indices.tolist()}, values={self.values!r}, "
                f"dense_shape={self.dense_shape.tolist()})")
