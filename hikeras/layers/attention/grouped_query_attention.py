"""`GroupQueryAttention`: attention with fewer key/value heads than query heads."""

import math

from ... import ops
from ...backend import SymbolicTensor
from ...ops import kernels
from ..core.einsum_dense import EinsumDense
from .multi_head_attention import _check_positive_int, _ProjectedAttention, _shape


class GroupQueryAttention(_ProjectedAttention):
    """Grouped-query attention (Ainslie et al., 2023), weight-compatible with Keras 3.

    The query is projected to `num_query_heads` heads, key and value to
    `num_key_value_heads`; each key/value head serves a group of
    `num_query_heads // num_key_value_heads` consecutive query heads. With as
    many key/value heads as query heads this is multi-head attention; with
    one, multi-query attention. Weights, in Keras's order: `query` kernel
    `(dim, num_query_heads, head_dim)`, `key` and `value` kernels
    `(dim, num_key_value_heads, head_dim)`, an optional `gate`, and
    `attention_output` `(num_query_heads, head_dim, dim)`, each with a bias
    when `use_bias`.

    Args:
        head_dim: size of every head.
        num_query_heads: number of query heads.
        num_key_value_heads: number of key/value heads; divides
            `num_query_heads`.
        dropout: rate at which attention probabilities are dropped in training.
        use_bias: whether the projections have biases.
        sliding_window: if set, query position `i` attends only to keys `j`
            with `|i - j| < sliding_window` (with `use_causal_mask`, the
            usual causal window).
        use_gate: multiply the attention output by `sigmoid` of a further
            projection of the query (`gate`) before the output projection.
        flash_attention: accepted for Keras compatibility; has no effect.
        kernel_initializer, bias_initializer, kernel_regularizer,
        bias_regularizer, activity_regularizer, kernel_constraint,
        bias_constraint: for the projections.
        seed: seed of the dropout masks.

    Call arguments: as `MultiHeadAttention`'s, for `(B, T, dim)` queries and
    `(B, S, dim)` values and keys; the scores returned with
    `return_attention_scores` are `(B, num_query_heads, T, S)`.

    >>> import numpy as np
    >>> gqa = GroupQueryAttention(head_dim=4, num_query_heads=4, num_key_value_heads=2)
    >>> x = np.ones((3, 5, 8), "float32")
    >>> gqa(x, x).shape
    (3, 5, 8)
    >>> [w.shape for w in gqa.weights[::2]]  # the kernels
    [(8, 4, 4), (8, 2, 4), (8, 2, 4), (4, 4, 8)]
    """

    def __init__(self, head_dim, num_query_heads, num_key_value_heads, dropout=0.0,
                 use_bias=True, sliding_window=None, flash_attention=None,
                 kernel_initializer="glorot_uniform", bias_initializer="zeros",
                 kernel_regularizer=None, bias_regularizer=None, activity_regularizer=None,
                 kernel_constraint=None, bias_constraint=None, use_gate=False, seed=None,
                 **kwargs):
        super().__init__(dropout=dropout, use_bias=use_bias, sliding_window=sliding_window,
                         use_gate=use_gate, kernel_initializer=kernel_initializer,
                         bias_initializer=bias_initializer, kernel_regularizer=kernel_regularizer,
                         bias_regularizer=bias_regularizer,
                         activity_regularizer=activity_regularizer,
                         kernel_constraint=kernel_constraint, bias_constraint=bias_constraint,
                         seed=seed, **kwargs)
        for name, value in (("head_dim", head_dim), ("num_query_heads", num_query_heads),
                            ("num_key_value_heads", num_key_value_heads)):
            _check_positive_int("GroupQueryAttention", name, value)
        if num_query_heads % num_key_value_heads:
            raise ValueError(
                "GroupQueryAttention: num_query_heads must be a multiple of "
                f"num_key_value_heads. Received: num_query_heads={num_query_heads}, "
                f"num_key_value_heads={num_key_value_heads}")
        self.head_dim = int(head_dim)
        self.num_query_heads = int(num_query_heads)
        self.num_key_value_heads = int(num_key_value_heads)

    def _base_name(self):
        return "grouped_query_attention"  # Keras's automatic name

    def build(self, query_shape, value_shape=None, key_shape=None):
        """Creates the projections, in Keras's order, from the inputs' shapes."""
        query_shape = tuple(query_shape)
        value_shape = query_shape if value_shape is None else tuple(value_shape)
        key_shape = value_shape if key_shape is None else tuple(key_shape)
        if any(len(s) != 3 for s in (query_shape, value_shape, key_shape)) or \
                value_shape[1] != key_shape[1]:
            raise ValueError(
                f"GroupQueryAttention '{self.name}' expects query (B, T, dim) and value and "
                "key (B, S, dim) of equal length S. Received: "
                f"query_shape={query_shape}, value_shape={value_shape}, key_shape={key_shape}")
        self._query_dense = self._heads("query", query_shape, self.num_query_heads)
        self._key_dense = self._heads("key", key_shape, self.num_key_value_heads)
        self._gate_dense = None
        if self.use_gate:
            self._gate_dense = self._heads("gate", query_shape, self.num_query_heads,
                                           activation="sigmoid")
        self._value_dense = self._heads("value", value_shape, self.num_key_value_heads)
        self._output_dense = EinsumDense(
            "bquh,uhm->bqm", output_shape=(None, query_shape[-1]),
            bias_axes="m" if self.use_bias else None, name="attention_output",
            **self._sublayer_kwargs())
        self._output_dense.build((None, None, self.num_query_heads, self.head_dim))
        self._output_dense.built = True
        self.built = True

    def _heads(self, name, input_shape, heads, activation=None):
        layer = EinsumDense("btm,mnh->btnh", output_shape=(None, heads, self.head_dim),
                            bias_axes="nh" if self.use_bias else None, activation=activation,
                            name=name, **self._sublayer_kwargs())
        layer.build(input_shape)
        layer.built = True
        return layer

    def call(self, query, value, key=None, query_mask=None, value_mask=None, key_mask=None,
             attention_mask=None, return_attention_scores=False, training=None,
             use_causal_mask=False, mask=None):
        mask = self._attention_mask(query, value, query_mask, value_mask, key_mask,
                                    attention_mask, use_causal_mask, mask)
        if mask is not None:
            while mask.ndim < 4:  # a heads axis (and a batch axis) to broadcast over
                mask = mask[None] if mask.ndim < 3 else mask[:, None]
        key = value if key is None else key
        q = self._query_dense(query)
        k, v = self._key_dense(key), self._value_dense(value)
        groups = self.num_query_heads // self.num_key_value_heads
        if groups > 1:  # each key/value head serves `groups` consecutive query heads
            k = ops.repeat(k, groups, axis=2)
            v = ops.repeat(v, groups, axis=2)
        outputs = kernels.dot_product_attention(q, k, v, mask=mask,
                                                scale=1.0 / math.sqrt(self.head_dim),
                                                dropout=self.dropout if training else 0.0,
                                                rng=self._rng,
                                                return_scores=return_attention_scores)
        output = outputs[0]
        if self._gate_dense is not None:
            output = ops.multiply(output, self._gate_dense(query))
        output = self._output_dense(output)
        return (output, outputs[1]) if return_attention_scores else output

    def compute_output_shape(self, query_shape, value_shape=None, key_shape=None):
        return tuple(query_shape)

    def compute_output_spec(self, query, value, key=None, return_attention_scores=False,
                            **kwargs):
        output = SymbolicTensor(tuple(query.shape), self.compute_dtype)
        if not return_attention_scores:
            return output
        scores = (query.shape[0], self.num_query_heads, query.shape[1], _shape(value)[1])
        return output, SymbolicTensor(scores, self.compute_dtype)

    def get_config(self):
        config = super().get_config()
        config.update({
            "head_dim": self.head_dim,
            "num_query_heads": self.num_query_heads,
            "num_key_value_heads": self.num_key_value_heads,
        })
        return config


__all__ = ["GroupQueryAttention"]
