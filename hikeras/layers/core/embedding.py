"""Embedding: maps integer indices to dense vectors."""

import numpy as np

from ... import ops
from ...backend import SymbolicTensor, Tensor
from ...ops import kernels
from ..layer import Layer
from ..lora import LoraMixin, lora_adapted
from ..weight_options import parse_weight_options, serialize_weight_options

__all__ = ["Embedding"]


class Embedding(LoraMixin, Layer):
    """Turns indices `[0, input_dim)` into vectors of size `output_dim`.

    The lookup is one gather; its gradient is a scatter-add of the output
    gradient's rows into the table (no one-hot product).

    Args:
        input_dim: vocabulary size (largest index + 1).
        output_dim: size of each vector.
        embeddings_initializer: default `"uniform"` (uniform in [-0.05, 0.05]).
        embeddings_regularizer, embeddings_constraint: for the table.
        mask_zero: index 0 is padding: the layer then produces a mask
            (`indices != 0`) that downstream layers and losses respect.
            `input_dim` must then leave room for the padding index.
        weights: optional initial table, `[array of shape (input_dim, output_dim)]`.
        lora_rank, lora_alpha: enable LoRA on the table when the layer is
            built (see `enable_lora` and `hikeras.layers.lora`).
        input_length: Keras 2's fixed sequence length; declares the input
            shape `(input_length,)` when no other input shape is given.

    Indices outside `[0, input_dim)` raise a ValueError naming the layer and
    the offending value.

    >>> import numpy as np
    >>> layer = Embedding(10, 3, mask_zero=True)
    >>> ids = np.array([[4, 2, 0]])
    >>> layer(ids).shape
    (1, 3, 3)
    >>> layer.compute_mask(ids).tolist()
    [[True, True, False]]
    """

    def __init__(self, input_dim, output_dim, embeddings_initializer="uniform",
                 embeddings_regularizer=None, embeddings_constraint=None, mask_zero=False,
                 weights=None, lora_rank=None, lora_alpha=None, input_length=None,
                 activity_regularizer=None, **kwargs):
        if input_length is not None and not any(
                k in kwargs for k in ("input_shape", "batch_input_shape", "batch_shape")):
            kwargs["input_shape"] = (input_length,)
        super().__init__(**kwargs)
        for arg, value in (("input_dim", input_dim), ("output_dim", output_dim)):
            if not isinstance(value, (int, np.integer)) or isinstance(value, bool) or value <= 0:
                raise ValueError(f"Embedding '{self.name}': `{arg}` must be a positive integer. "
                                 f"Received: {arg}={value!r}")
        self._init_lora(lora_rank, lora_alpha)
        self.input_dim = int(input_dim)
        self.output_dim = int(output_dim)
        parse_weight_options(self, ("embeddings",), locals())
        self.mask_zero = bool(mask_zero)
        self.supports_masking = self.mask_zero
        self._initial_weights = weights

    _lora_target = "embeddings"
    embeddings = lora_adapted("embeddings")

    def build(self, input_shape=None):
        self.embeddings = self.add_weight(
            shape=(self.input_dim, self.output_dim), initializer=self.embeddings_initializer,
            regularizer=self.embeddings_regularizer, constraint=self.embeddings_constraint,
            name="embeddings")
        if self._initial_weights is not None:
            self.set_weights(self._initial_weights)
            self._initial_weights = None
        self._build_lora()

    def call(self, inputs):
        if isinstance(inputs, SymbolicTensor):
            indices = inputs if np.issubdtype(inputs.dtype, np.integer) else \
                SymbolicTensor(inputs.shape, "int32")
        else:
            indices = self._checked_indices(inputs)
        return kernels.gather_rows(self.embeddings, indices)

    def _checked_indices(self, inputs):
        indices = np.asarray(inputs.value if isinstance(inputs, Tensor) else inputs)
        if not np.issubdtype(indices.dtype, np.integer):
            indices = indices.astype(np.int64)
        if indices.size:
            low, high = indices.min(), indices.max()
            if low < 0 or high >= self.input_dim:
                bad = low if low < 0 else high
                raise ValueError(
                    f"Embedding layer '{self.name}' got index {bad}, outside its vocabulary "
                    f"[0, {self.input_dim}) (input_dim={self.input_dim}). Received: an index "
                    f"of {bad} in inputs of shape {indices.shape}")
        return indices

    def compute_mask(self, inputs, mask=None):
        if not self.mask_zero:
            return None
        return ops.not_equal(inputs, 0)

    def get_config(self):
        config = super().get_config()
        config.update({
            "input_dim": self.input_dim,
            "output_dim": self.output_dim,
            **serialize_weight_options(self, ("embeddings",)),
            "mask_zero": self.mask_zero,
            **self._lora_config(),
        })
        return config
