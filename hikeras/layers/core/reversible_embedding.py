"""ReversibleEmbedding: an Embedding that can also project back to logits."""

import numpy as np

from ... import ops
from ...utils.dtype_utils import standardize_dtype
from .embedding import Embedding

__all__ = ["ReversibleEmbedding"]


class ReversibleEmbedding(Embedding):
    """An `Embedding` that can also project vectors back to vocabulary logits.

    Called with `reverse=True` on `(..., output_dim)` inputs, it returns
    `(..., input_dim)` logits: the inputs times the transposed table (tied
    weights, the default), or times a separate trainable
    `reverse_embeddings` of shape `(output_dim, input_dim)` with
    `tie_weights=False`.

    Args:
        input_dim, output_dim, embeddings_initializer, embeddings_regularizer,
            embeddings_constraint, mask_zero: as `Embedding` (the untied
            reverse table uses the same initializer).
        tie_weights: reuse the embedding table for the reverse projection.
        reverse_dtype: dtype the reverse projection computes (and returns)
            in; default the layer's.
        logit_soft_cap: if set, reverse logits become
            `tanh(logits / logit_soft_cap) * logit_soft_cap`.

    >>> import numpy as np
    >>> layer = ReversibleEmbedding(4, 2, embeddings_initializer="ones")
    >>> hidden = layer(np.array([[1, 3]]))
    >>> layer(hidden, reverse=True).tolist()
    [[[2.0, 2.0, 2.0, 2.0], [2.0, 2.0, 2.0, 2.0]]]
    """

    def __init__(self, input_dim, output_dim, tie_weights=True, embeddings_initializer="uniform",
                 embeddings_regularizer=None, embeddings_constraint=None, mask_zero=False,
                 reverse_dtype=None, logit_soft_cap=None, **kwargs):
        super().__init__(input_dim, output_dim, embeddings_initializer=embeddings_initializer,
                         embeddings_regularizer=embeddings_regularizer,
                         embeddings_constraint=embeddings_constraint, mask_zero=mask_zero,
                         **kwargs)
        self.tie_weights = bool(tie_weights)
        self.reverse_dtype = (None if reverse_dtype is None
                              else standardize_dtype(reverse_dtype))
        if logit_soft_cap is not None and not (
                isinstance(logit_soft_cap, (int, float, np.number)) and logit_soft_cap > 0):
            raise ValueError(f"ReversibleEmbedding '{self.name}': `logit_soft_cap` must be a "
                             f"positive number or None. Received: logit_soft_cap="
                             f"{logit_soft_cap!r}")
        self.logit_soft_cap = logit_soft_cap

    def build(self, input_shape=None):
        super().build(input_shape)
        if not self.tie_weights:
            self.reverse_embeddings = self.add_weight(
                shape=(self.output_dim, self.input_dim),
                initializer=self.embeddings_initializer, name="reverse_embeddings")
        self.built = True

    def call(self, inputs, reverse=False):
        if not reverse:
            return super().call(inputs)
        if inputs.shape[-1] is not None and inputs.shape[-1] != self.output_dim:
            raise ValueError(
                f"ReversibleEmbedding '{self.name}' projects back from vectors of size "
                f"output_dim={self.output_dim}. Received: inputs with shape {tuple(inputs.shape)}")
        kernel = (ops.transpose(self.embeddings) if self.tie_weights
                  else self.reverse_embeddings)
        if self.reverse_dtype is not None:
            inputs = ops.cast(inputs, self.reverse_dtype)
            kernel = ops.cast(kernel, self.reverse_dtype)
        logits = ops.matmul(inputs, kernel)
        if self.logit_soft_cap is not None:
            cap = self.logit_soft_cap
            logits = ops.multiply(ops.tanh(ops.divide(logits, cap)), cap)
        return logits

    def compute_mask(self, inputs, mask=None):
        # Only a forward call (on indices) makes a mask; reverse outputs carry none.
        if not self.mask_zero or not np.issubdtype(np.dtype(inputs.dtype), np.integer):
            return None
        return super().compute_mask(inputs, mask)

    def get_config(self):
        config = super().get_config()
        config.update({"tie_weights": self.tie_weights, "reverse_dtype": self.reverse_dtype,
                       "logit_soft_cap": self.logit_soft_cap})
        return config
