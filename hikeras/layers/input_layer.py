"""`InputLayer` and `Input`: the entry points of functional models."""

import numpy as np

from ..utils.dtype_utils import standardize_dtype
from .layer import Layer
from .node import KerasHistory, KerasTensor, Node


class InputLayer(Layer):
    """A layer that only holds a model input's shape and dtype.

    Args:
        shape: shape without the batch axis, e.g. `(64,)`.
        batch_size: fixed batch size, or None.
        dtype: input dtype (default `floatx()`).
        batch_shape: full shape including the batch axis (Keras 3); Keras 2's
            `batch_input_shape` and `input_shape` are accepted too.
        name: the layer's name.
    """

    def __init__(self, shape=None, batch_size=None, dtype=None, sparse=None, batch_shape=None,
                 input_tensor=None, name=None, **kwargs):
        legacy_batch = kwargs.pop("batch_input_shape", None)
        legacy_shape = kwargs.pop("input_shape", None)
        for ignored in ("ragged",):
            kwargs.pop(ignored, None)
        if sparse:
            raise ValueError(f"Sparse inputs are not supported. Received: sparse={sparse}")
        super().__init__(name=name, dtype=dtype, **kwargs)
        if batch_shape is None:
            batch_shape = legacy_batch
        if shape is None:
            shape = legacy_shape
        if batch_shape is None:
            if shape is None:
                raise ValueError(
                    "An Input needs a shape: pass `shape=` (without the batch axis) or "
                    "`batch_shape=`. Received: shape=None"
                )
            if isinstance(shape, (int, np.integer)):
                shape = (shape,)
            batch_shape = (batch_size,) + tuple(shape)
        self.batch_shape = tuple(None if d is None else int(d) for d in batch_shape)
        self.built = True
        tensor = KerasTensor(self.batch_shape, self.dtype, name=self.name,
                             keras_history=KerasHistory(self, 0, 0))
        self._inbound_nodes.append(Node(self, outputs=tensor))
        self._batch_input_shape = self.batch_shape

    @property
    def output(self):
        return self._inbound_nodes[0].outputs

    def call(self, inputs):
        return inputs

    def get_config(self):
        dtype = "string" if self.dtype == "object" else self.dtype  # Keras's name
        return {"batch_input_shape": list(self.batch_shape), "dtype": dtype,
                "sparse": False, "ragged": False, "name": self.name}


def Input(shape=None, batch_size=None, dtype=None, sparse=None, batch_shape=None, name=None,
          tensor=None):
    """Creates a symbolic model input.

    >>> x = Input(shape=(3,))
    >>> x.shape
    (None, 3)
    """
    layer = InputLayer(shape=shape, batch_size=batch_size, dtype=standardize_dtype(dtype),
                       sparse=sparse, batch_shape=batch_shape, name=name)
    return layer.output
