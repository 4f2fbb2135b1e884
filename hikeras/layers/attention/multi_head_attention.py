"""`MultiHeadAttention`, with Keras's weight layout and call signature, and the
base it shares with `GroupQueryAttention`: arguments of the projections,
binding of `(query, value, key)`, and the merged attention mask."""

import math

import numpy as np

from ... import ops
from ...backend import SymbolicTensor
from ...ops import kernels
from ...utils.rng import make_generator
from ..core.einsum_dense import EinsumDense
from ..layer import Layer
from ..weight_options import parse_weight_options, serialize_weight_options


def _shape(x):
    return tuple(x.shape) if hasattr(x, "shape") else np.shape(x)


def _as_bool(mask):
    """A mask (array, tensor or list) as a numpy bool array; symbolic ones through the cast op.

    A symbolic mask is met when a model is traced (ONNX export), so it stays an op.
    """
    if isinstance(mask, SymbolicTensor):
        return ops.cast(mask, "bool")
    return None if mask is None else np.asarray(mask).astype(bool, copy=False)


def _both(a, b):
    """`a & b` for boolean masks, through the op when one is symbolic."""
    if isinstance(a, SymbolicTensor) or isinstance(b, SymbolicTensor):
        return ops.logical_and(a, b)
    return a & b


def _projection(free_axes, bound_axes, output_axes):
    """Keras's projection equation: e.g. (2, 1, 2) -> ("abc,cde->abde", "de")."""
    letters = "abcdefghijklmnopqrstuvwxyz"
    free = letters[:free_axes]
    bound = letters[free_axes:free_axes + bound_axes]
    out = letters[free_axes + bound_axes:free_axes + bound_axes + output_axes]
    return f"{free}{bound},{bound}{out}->{free}{out}", out


class _ProjectedAttention(Layer):
    """Attention whose query, key and value are `EinsumDense` projections.

    Holds the arguments every projection shares, builds from the shapes of
    all three inputs, and merges the masks of a call into one boolean mask.
    Subclasses implement `build(query_shape, value_shape, key_shape)`.
    """

    def __init__(self, dropout=0.0, use_bias=True, sliding_window=None, use_gate=False,
                 kernel_initializer="glorot_uniform", bias_initializer="zeros",
                 kernel_regularizer=None, bias_regularizer=None, activity_regularizer=None,
                 kernel_constraint=None, bias_constraint=None, seed=None, **kwargs):
        super().__init__(**kwargs)
        if not 0 <= dropout < 1:
            raise ValueError(f"{type(self).__name__}: dropout must be in [0, 1). "
                             f"Received: dropout={dropout!r}")
        if sliding_window is not None:
            _check_positive_int(type(self).__name__, "sliding_window", sliding_window)
            sliding_window = int(sliding_window)
        self.dropout = float(dropout)
        self.use_bias = bool(use_bias)
        # Query position `i` attends only to keys `j` with `|i - j| < sliding_window`.
        self.sliding_window = sliding_window
        # The heads' output is multiplied by `sigmoid` of a `gate` projection of the query.
        self.use_gate = bool(use_gate)
        # Private: the projections apply it, not this layer's __call__.
        parse_weight_options(self, ("kernel", "bias"), locals(),
                             activity_regularizer="_activity_regularizer")
        self.seed = seed
        self._rng = make_generator(seed)
        self.supports_masking = True  # the output keeps the query's mask

    def __call__(self, *args, **kwargs):
        # The base class builds from the first argument only; the projections
        # need the value's and key's shapes too.
        query, value, key = _bind_inputs(type(self).__name__, args, kwargs)
        if not self.built:
            self.build(_shape(query), _shape(value), None if key is None else _shape(key))
        # The base class converts the first argument to the layer's dtype; the
        # value and key need it too.
        args = tuple(self._convert_inputs(a) if i in (1, 2) else a for i, a in enumerate(args))
        kwargs = {k: self._convert_inputs(a) if k in ("value", "key") else a
                  for k, a in kwargs.items()}
        return super().__call__(*args, **kwargs)

    def _sublayer_kwargs(self):
        return dict(kernel_initializer=self.kernel_initializer,
                    bias_initializer=self.bias_initializer,
                    kernel_regularizer=self.kernel_regularizer,
                    bias_regularizer=self.bias_regularizer,
                    activity_regularizer=self._activity_regularizer,
                    kernel_constraint=self.kernel_constraint,
                    bias_constraint=self.bias_constraint, dtype=self.dtype_policy,
                    trainable=self.trainable)

    def _attention_mask(self, query, value, query_mask, value_mask, key_mask, attention_mask,
                        use_causal_mask, mask):
        """All masks merged into booleans broadcastable to `(B, T, S)`, or None.

        `mask` is the Keras mask the query carries (models pass it): it is the
        query mask, and for self-attention (`value` is `query`) the value mask.
        """
        if mask is not None:
            query_mask = mask if query_mask is None else query_mask
            if value is query and value_mask is None:
                value_mask = mask
        query_length, value_length = _shape(query)[1], _shape(value)[1]
        masks = []
        if query_mask is not None:
            masks.append(_as_bool(query_mask)[..., :, None])
        for m in (value_mask, key_mask):
            if m is not None:
                masks.append(_as_bool(m)[..., None, :])
        if use_causal_mask:
            masks.append(np.tril(np.ones((1, query_length, value_length), dtype=bool)))
        if self.sliding_window is not None:
            distance = np.arange(query_length)[:, None] - np.arange(value_length)
            masks.append((np.abs(distance) < self.sliding_window)[None])
        if attention_mask is not None:
            masks.append(_as_bool(attention_mask))
        if not masks:
            return None
        merged = masks[0]
        for m in masks[1:]:
            merged = _both(merged, m)
        return merged

    def get_config(self):
        config = super().get_config()
        config.update({
            "dropout": self.dropout,
            "use_bias": self.use_bias,
            "sliding_window": self.sliding_window,
            "use_gate": self.use_gate,
            **serialize_weight_options(self, activity_regularizer="_activity_regularizer"),
            "seed": self.seed,
        })
        return config


class MultiHeadAttention(_ProjectedAttention):
    """Multi-head attention (Vaswani et al., 2017), weight-compatible with Keras.

    `query`, `key` and `value` are projected to `num_heads` heads by
    `EinsumDense` sublayers named `query`, `key` and `value` (kernels
    `(dim, num_heads, key_dim)`, biases `(num_heads, key_dim)`); each head
    attends with scaled dot products; the heads are projected back by
    `attention_output` (kernel `(num_heads, value_dim, out_dim)`, bias
    `(out_dim,)`). The attention itself runs as one fused backend op with a
    hand-written gradient.

    Args:
        num_heads: number of attention heads.
        key_dim: size of each head for query and key.
        value_dim: size of each head for value (default `key_dim`).
        dropout: rate at which attention probabilities are dropped in training.
        use_bias: whether the projections have biases.
        output_shape: output size(s) besides the batch and attended axes; by
            default the query's last dimension.
        attention_axes: query axes attended over (default: all but the batch
            and feature axes). Negative axes count from the query's end.
        sliding_window: if set, query position `i` attends only to keys `j`
            with `|i - j| < sliding_window` along axis 1 (with
            `use_causal_mask`, the usual causal window).
        use_gate: multiply the heads' output by `sigmoid` of a further
            projection of the query (`gate`, created between `key` and `value`)
            before the output projection.
        flash_attention: accepted for Keras compatibility; has no effect.
        kernel_initializer, bias_initializer, kernel_regularizer,
        bias_regularizer, activity_regularizer, kernel_constraint,
        bias_constraint: for the four projections.
        seed: seed of the dropout masks.

    Call arguments:
        query: `(B, T, dim)`; value: `(B, S, dim)`; key: `(B, S, dim)`,
            default `value`.
        query_mask, value_mask, key_mask: `(B, T)` / `(B, S)` booleans.
        mask: the Keras mask the query carries (e.g. from
            `Embedding(mask_zero=True)`); models pass it. It is the query
            mask, and for self-attention (`value` is `query`) the value mask.
        attention_mask: booleans `(B, T, S)` (missing batch/head axes
            broadcast); `True` attends.
        return_attention_scores: also return the `(B, num_heads, T, S)`
            attention probabilities.
        training: apply dropout.
        use_causal_mask: query position `i` attends only to keys `j <= i`.

    >>> import numpy as np
    >>> mha = MultiHeadAttention(num_heads=2, key_dim=4)
    >>> x = np.ones((3, 5, 8), "float32")
    >>> mha(x, x).shape
    (3, 5, 8)
    >>> [w.shape for w in mha.weights][:2]
    [(8, 2, 4), (2, 4)]
    """

    def __init__(self, num_heads, key_dim, value_dim=None, dropout=0.0, use_bias=True,
                 output_shape=None, attention_axes=None, sliding_window=None,
                 flash_attention=None, kernel_initializer="glorot_uniform",
                 bias_initializer="zeros", kernel_regularizer=None, bias_regularizer=None,
                 activity_regularizer=None, kernel_constraint=None, bias_constraint=None,
                 use_gate=False, seed=None, **kwargs):
        super().__init__(dropout=dropout, use_bias=use_bias, sliding_window=sliding_window,
                         use_gate=use_gate,
                         kernel_initializer=kernel_initializer,
                         bias_initializer=bias_initializer, kernel_regularizer=kernel_regularizer,
                         bias_regularizer=bias_regularizer,
                         activity_regularizer=activity_regularizer,
                         kernel_constraint=kernel_constraint, bias_constraint=bias_constraint,
                         seed=seed, **kwargs)
        for name, value in (("num_heads", num_heads), ("key_dim", key_dim),
                            ("value_dim", value_dim or key_dim)):
            _check_positive_int("MultiHeadAttention", name, value)
        self.num_heads = int(num_heads)
        self.key_dim = int(key_dim)
        self.value_dim = int(value_dim) if value_dim else self.key_dim
        if isinstance(output_shape, int):
            output_shape = (output_shape,)
        self._output_shape = tuple(output_shape) if output_shape else None
        if isinstance(attention_axes, int):
            attention_axes = (attention_axes,)
        elif attention_axes is not None and not isinstance(attention_axes, (list, tuple)):
            raise ValueError("MultiHeadAttention: attention_axes must be an int, list or tuple. "
                             f"Received: attention_axes={attention_axes!r}")
        self.attention_axes = None if attention_axes is None else tuple(attention_axes)
        self._attention_axes = None  # resolved against the input rank in build

    # ------------------------------------------------------------------ build
    def build(self, query_shape, value_shape=None, key_shape=None):
        """Creates the four projections from the inputs' shapes."""
        value_shape = tuple(query_shape if value_shape is None else value_shape)
        key_shape = value_shape if key_shape is None else tuple(key_shape)
        query_shape = tuple(query_shape)
        if len(query_shape) < 3 or len(value_shape) != len(query_shape):
            raise ValueError(
                f"MultiHeadAttention '{self.name}' expects query and value of the same rank, at "
                "least 3 (batch, ..., features). "
                f"Received: query_shape={query_shape}, value_shape={value_shape}"
            )
        if value_shape[1:-1] != key_shape[1:-1]:
            raise ValueError(
                f"MultiHeadAttention '{self.name}': all axes of value and key but the last must "
                f"be equal. Received: value_shape={value_shape}, key_shape={key_shape}"
            )
        rank = len(query_shape)
        axes = self.attention_axes or tuple(range(1, rank - 1))
        self._attention_axes = tuple(sorted(a + rank if a < 0 else a for a in axes))
        if any(not 1 <= a < rank - 1 for a in self._attention_axes):
            raise ValueError(
                f"MultiHeadAttention '{self.name}': attention_axes must be axes of the query "
                f"other than the batch and feature axes. Received: "
                f"attention_axes={self.attention_axes} for a query of rank {rank}"
            )
        self._query_dense = self._projection("query", query_shape, self.key_dim)
        self._key_dense = self._projection("key", key_shape, self.key_dim)
        self._gate_dense = None
        if self.use_gate:
            self._gate_dense = self._projection("gate", query_shape, self.value_dim,
                                                activation="sigmoid")
        self._value_dense = self._projection("value", value_shape, self.value_dim)
        out_shape = self._output_shape or (query_shape[-1],)
        equation, bias_axes = _projection(rank - 1, 2, len(out_shape))
        self._output_dense = EinsumDense(
            equation, output_shape=(None,) * (rank - 2) + tuple(out_shape),
            bias_axes=bias_axes if self.use_bias else None, name="attention_output",
            **self._sublayer_kwargs())
        self._output_dense.build(query_shape[:-1] + (self.num_heads, self.value_dim))
        self._output_dense.built = True
        self.built = True

    def _projection(self, name, input_shape, head_dim, activation=None):
        rank = len(input_shape)
        equation, bias_axes = _projection(rank - 1, 1, 2)
        layer = EinsumDense(equation, output_shape=(None,) * (rank - 2) + (self.num_heads,
                                                                           head_dim),
                            bias_axes=bias_axes if self.use_bias else None,
                            activation=activation, name=name, **self._sublayer_kwargs())
        layer.build(input_shape)
        layer.built = True
        return layer

    # ------------------------------------------------------------------- call
    def call(self, query, value, key=None, query_mask=None, value_mask=None, key_mask=None,
             attention_mask=None, return_attention_scores=False, training=None,
             use_causal_mask=False, mask=None):
        mask = self._attention_mask(query, value, query_mask, value_mask, key_mask,
                                    attention_mask, use_causal_mask, mask)
        key = value if key is None else key
        q = self._query_dense(query)
        k = self._key_dense(key)
        v = self._value_dense(value)
        output, scores = self._attend(q, k, v, mask, training, return_attention_scores)
        if self._gate_dense is not None:
            output = ops.multiply(output, self._gate_dense(query))
        output = self._output_dense(output)
        return (output, scores) if return_attention_scores else output

    def _attend(self, q, k, v, mask, training, return_scores):
        """Attention of projected `(B, *axes, N, H)` tensors, via the fused op."""
        rank = len(_shape(q))
        attended = self._attention_axes
        batch = [a for a in range(rank - 2) if a not in attended]
        q_shape, k_shape = _shape(q), _shape(k)
        scores_rank = len(batch) + 1 + 2 * len(attended)
        if mask is not None:
            # Keras inserts missing axes just before the query's attended axes.
            while mask.ndim < scores_rank:
                mask = ops.expand_dims(mask, -2 * len(attended) - 1)
        canonical = batch == [0] and attended == (1,)
        if not canonical:
            q, k, v = (self._to_canonical(t, batch) for t in (q, k, v))
            if mask is not None:
                mask = self._canonical_mask(mask, q_shape, k_shape, batch)
        rate = self.dropout if training else 0.0
        outputs = kernels.dot_product_attention(q, k, v, mask=mask,
                                                scale=1.0 / math.sqrt(self.key_dim),
                                                dropout=rate, rng=self._rng,
                                                return_scores=return_scores)
        output = outputs[0]
        scores = outputs[1] if return_scores else None
        if not canonical:
            output = self._from_canonical(output, q_shape, batch)
            if scores is not None:
                sizes = ([q_shape[a] for a in batch] + [self.num_heads]
                         + [q_shape[a] for a in attended] + [k_shape[a] for a in attended])
                scores = ops.reshape(scores, tuple(sizes))
        return output, scores

    def _to_canonical(self, x, batch):
        """`(B, *axes, N, H)` -> `(batch entries, attended positions, N, H)`."""
        shape = _shape(x)
        rank = len(shape)
        order = batch + list(self._attention_axes) + [rank - 2, rank - 1]
        x = ops.transpose(x, tuple(order))
        return ops.reshape(x, (
            math.prod(shape[a] for a in batch),
            math.prod(shape[a] for a in self._attention_axes), shape[-2], shape[-1]))

    def _from_canonical(self, x, query_shape, batch):
        rank = len(query_shape)
        order = batch + list(self._attention_axes) + [rank - 2]
        sizes = tuple(query_shape[a] for a in order) + (self.value_dim,)
        x = ops.reshape(x, sizes)
        return ops.transpose(x, tuple(np.argsort(order + [rank - 1])))

    def _canonical_mask(self, mask, q_shape, k_shape, batch):
        attended = self._attention_axes
        sizes = ([q_shape[a] for a in batch] + [mask.shape[len(batch)]]
                 + [q_shape[a] for a in attended] + [k_shape[a] for a in attended])
        mask = np.broadcast_to(mask, sizes)
        return mask.reshape(math.prod(sizes[:len(batch)]), sizes[len(batch)],
                            math.prod(q_shape[a] for a in attended),
                            math.prod(k_shape[a] for a in attended))

    # -------------------------------------------------------------- shapes
    def compute_output_shape(self, query_shape, value_shape=None, key_shape=None):
        query_shape = tuple(query_shape)
        return query_shape[:-1] + (self._output_shape or (query_shape[-1],))

    def compute_output_spec(self, query, value, key=None, return_attention_scores=False,
                            **kwargs):
        output = SymbolicTensor(self.compute_output_shape(query.shape), self.compute_dtype)
        if not return_attention_scores:
            return output
        key = value if key is None else key
        batch = [a for a in range(len(query.shape) - 1) if a not in self._attention_axes]
        shape = ([query.shape[a] for a in batch] + [self.num_heads]
                 + [query.shape[a] for a in self._attention_axes]
                 + [key.shape[a] for a in self._attention_axes])
        return output, SymbolicTensor(shape, self.compute_dtype)

    def get_config(self):
        config = super().get_config()
        config.update({
            "num_heads": self.num_heads,
            "key_dim": self.key_dim,
            "value_dim": self.value_dim,
            "output_shape": self._output_shape,
            "attention_axes": self.attention_axes,
        })
        for key, off in (("sliding_window", None), ("use_gate", False)):
            if config[key] == off:  # written only when on: Keras 2 has neither
                del config[key]
        return config


def _check_positive_int(layer, name, value):
    if not isinstance(value, (int, np.integer)) or isinstance(value, bool) or value <= 0:
        raise ValueError(f"{layer}: {name} must be a positive integer. "
                         f"Received: {name}={value!r}")


def _bind_inputs(layer, args, kwargs):
    """`(query, value, key)` from a call's arguments, as `call` would bind them."""
    names = ("query", "value", "key")
    bound = dict(zip(names, args))
    for name in names:
        if name in kwargs:
            bound[name] = kwargs[name]
    if "query" not in bound or "value" not in bound:
        raise ValueError(
            f"{layer} must be called with a query and a value, e.g. "
            "`layer(query, value)`. Received: {len(args)} positional arguments and keyword "
            f"arguments {sorted(kwargs)}"
        )
    return bound["query"], bound["value"], bound.get("key")


__all__ = ["MultiHeadAttention"]
