"""Attention: dot-product attention (Luong-style)."""

import numpy as np

from ... import ops
from ...backend import SymbolicTensor
from ...ops import kernels
from ...utils.rng import make_generator
from ..layer import Layer

__all__ = ["Attention"]


def _as_bool(mask):
    if isinstance(mask, SymbolicTensor):  # a traced model (ONNX export): keep it an op
        return ops.cast(mask, "bool")
    return None if mask is None else np.asarray(mask).astype(bool, copy=False)


class Attention(Layer):
    """Dot-product attention, a.k.a. Luong-style attention.

    Called on `[query, value]` or `[query, value, key]` (`key` defaults to
    `value`), of shapes `(B, Tq, dim)`, `(B, Tv, dim)`, `(B, Tv, dim)`:
    scores `(B, Tq, Tv)` from query and key, a softmax over `Tv`, and the
    weighted sum of `value`, `(B, Tq, dim)`.

    Args:
        use_scale: learn a scalar `scale` multiplying the scores.
        score_mode: `"dot"` (`query . key`) or `"concat"`
            (`sum(tanh(query + key))`, times a learned scalar).
        dropout: rate at which attention weights are dropped in training.
        seed: seed of the dropout masks.

    Call arguments:
        inputs: `[query, value]` or `[query, value, key]`.
        mask: `[query_mask, value_mask]` booleans `(B, Tq)` and `(B, Tv)`;
            masked values get zero weight, masked queries a zero output. In a
            model, the Keras masks the inputs carry arrive here.
        return_attention_scores: also return the `(B, Tq, Tv)` weights.
        training: apply dropout.
        use_causal_mask: query position `i` attends only to values `j <= i`.

    >>> import numpy as np
    >>> query, value = np.ones((2, 3, 4), "float32"), np.ones((2, 5, 4), "float32")
    >>> Attention()([query, value]).shape
    (2, 3, 4)
    """

    def __init__(self, use_scale=False, score_mode="dot", dropout=0.0, seed=None, **kwargs):
        super().__init__(**kwargs)
        if score_mode not in ("dot", "concat"):
            raise ValueError(f"{type(self).__name__}: score_mode must be 'dot' or 'concat'. "
                             f"Received: score_mode={score_mode!r}")
        if not 0 <= dropout < 1:
            raise ValueError(f"{type(self).__name__}: dropout must be in [0, 1). "
                             f"Received: dropout={dropout!r}")
        self.use_scale = bool(use_scale)
        self.score_mode = score_mode
        self.dropout = float(dropout)
        self.seed = seed
        self._rng = make_generator(seed)

    def build(self, input_shape):
        self._validate_inputs(input_shape)
        self.scale = None
        self.concat_score_weight = None
        if self.use_scale:
            self.scale = self.add_weight(shape=(), initializer="ones", name="scale")
        if self.score_mode == "concat":
            self.concat_score_weight = self.add_weight(shape=(), initializer="ones",
                                                       name="concat_score_weight")

    def _scores(self, query, key):
        """`(B, Tq, Tv)` attention logits."""
        if self.score_mode == "dot":
            scores = ops.matmul(query, ops.transpose(key, (0, 2, 1)))
            return scores if self.scale is None else ops.multiply(scores, self.scale)
        pairs = ops.add(ops.expand_dims(query, -2), ops.expand_dims(key, -3))
        if self.scale is not None:
            pairs = ops.multiply(self.scale, pairs)
        scores = ops.sum(ops.tanh(pairs), axis=-1)
        return ops.multiply(self.concat_score_weight, scores)

    def call(self, inputs, mask=None, training=None, return_attention_scores=False,
             use_causal_mask=False):
        self._validate_inputs(inputs, mask)
        query, value = inputs[0], inputs[1]
        key = inputs[2] if len(inputs) > 2 else value
        query_mask = _as_bool(mask[0]) if mask else None
        value_mask = _as_bool(mask[1]) if mask else None
        scores = self._scores(query, key)
        keep = None if value_mask is None else value_mask[:, None, :]
        if use_causal_mask:
            causal = np.tril(np.ones((1,) + tuple(scores.shape[-2:]), dtype=bool))
            keep = causal if keep is None else ops.logical_and(keep, causal)
        if keep is not None:
            # Far below any score, so masked values get weight exactly 0 (a row with
            # nothing to attend to spreads its weight uniformly, as in Keras).
            fill = -0.7 * float(np.finfo(scores.dtype).max)
            scores = ops.where(keep, scores, fill)
        weights = ops.softmax(scores, axis=-1)
        dropped = weights
        if training and self.dropout > 0:
            dropped = kernels.dropout(weights, self.dropout, rng=self._rng)
        output = ops.matmul(dropped, value)
        if query_mask is not None:
            output = ops.multiply(output, ops.cast(query_mask[..., None], output.dtype))
        return (output, weights) if return_attention_scores else output

    def compute_mask(self, inputs, mask=None):
        """The output keeps the query's mask."""
        return None if mask is None or mask[0] is None else mask[0]

    def compute_output_spec(self, inputs, mask=None, return_attention_scores=False, **kwargs):
        self._validate_inputs(inputs, mask)
        query, value = inputs[0], inputs[1]
        output = SymbolicTensor(tuple(query.shape[:-1]) + (value.shape[-1],), self.compute_dtype)
        if not return_attention_scores:
            return output
        return output, SymbolicTensor((query.shape[0], query.shape[1], value.shape[1]),
                                      self.compute_dtype)

    def _validate_inputs(self, inputs, mask=None):
        name = type(self).__name__
        if not isinstance(inputs, (list, tuple)) or not 2 <= len(inputs) <= 3:
            raise ValueError(
                f"{name} layer '{self.name}' must be called on a list [query, value] or "
                f"[query, value, key]. Received: inputs={inputs!r}"
            )
        if any(len(s if _is_shape(s) else s.shape) != 3 for s in inputs):
            raise ValueError(
                f"{name} layer '{self.name}' expects query, value and key of rank 3 "
                f"(batch, steps, features). Received: shapes "
                f"{[tuple(s if _is_shape(s) else s.shape) for s in inputs]}"
            )
        if mask is not None and (not isinstance(mask, (list, tuple)) or not 2 <= len(mask) <= 3):
            raise ValueError(
                f"{name} layer '{self.name}': mask must be a list [query_mask, value_mask]. "
                f"Received: mask={mask!r}"
            )

    def get_config(self):
        config = super().get_config()
        config.update({"use_scale": self.use_scale, "score_mode": self.score_mode,
                       "dropout": self.dropout, "seed": self.seed})
        return config


def _is_shape(x):
    return isinstance(x, (tuple, list))
