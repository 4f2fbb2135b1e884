"""Neural-network ops (`keras.ops.nn`): activations, `one_hot`, the cross-entropies and CTC.

This module is the namespace: the composed activations, the convolution and
pooling family and the normalisations live in `nn_activations.py`,
`nn_conv.py` and `nn_normalization.py` and are re-exported here.

The cross-entropies follow Keras 3's numerics. On probabilities
(`from_logits=False`) the prediction is clipped once to
`[epsilon, 1 - epsilon]` (`hikeras.backend.epsilon()`, 1e-7 by default)
before the logarithm, so a confident wrong prediction costs
`-log(1e-7) ~ 16.12` rather than infinity; the categorical forms first
rescale the prediction to sum to one along `axis`. On logits they use the
backend's fused, numerically stable kernels.

>>> import numpy as np
>>> y_true = np.array([[0.0, 1.0]])
>>> np.round(categorical_crossentropy(y_true, np.array([[1.0, 0.0]])), 2).tolist()
[16.12]
"""

import numpy as np

from .. import backend
from .core import cast, convert_to_numpy, operands, shape, tensor_operand
from .nn_activations import (
    celu,
    glu,
    hard_shrink,
    hard_tanh,
    log_sigmoid,
    soft_shrink,
    sparse_plus,
    sparse_sigmoid,
    sparsemax,
    squareplus,
    tanh_shrink,
    threshold,
)
from .nn_conv import (
    adaptive_average_pool,
    adaptive_max_pool,
    average_pool,
    conv,
    conv_transpose,
    depth_to_space,
    depthwise_conv,
    fold,
    max_pool,
    separable_conv,
    space_to_depth,
    unfold,
)
from .nn_normalization import (
    batch_normalization,
    layer_normalization,
    moments,
    normalize,
    psnr,
    rms_normalization,
)
from .numpy import (
    add,
    clip,
    divide,
    einsum,
    equal,
    expand_dims,
    log,
    multiply,
    negative,
    squeeze,
    subtract,
    sum,
)

_apply = backend.apply

__all__ = [
    "adaptive_average_pool", "adaptive_max_pool", "average_pool", "batch_normalization",
    "binary_crossentropy", "categorical_crossentropy", "celu", "conv", "conv_transpose",
    "ctc_decode", "ctc_loss", "depth_to_space", "depthwise_conv", "dot_product_attention", "elu",
    "fold", "gelu", "glu", "hard_shrink", "hard_sigmoid", "hard_silu", "hard_swish", "hard_tanh",
    "layer_normalization", "leaky_relu", "log_sigmoid", "log_softmax", "max_pool", "moments",
    "multi_hot", "normalize", "one_hot", "polar", "psnr", "relu", "relu6", "rms_normalization",
    "selu", "separable_conv", "sigmoid", "silu", "soft_shrink", "softmax", "softplus",
    "softsign", "space_to_depth", "sparse_categorical_crossentropy", "sparse_plus",
    "sparse_sigmoid", "sparsemax", "squareplus", "swish", "tanh", "tanh_shrink", "threshold",
    "unfold",
]


def _activation(name):
    def activation(x):
        return _apply(name, tensor_operand(x))

    return activation


sigmoid = _activation("sigmoid")
sigmoid.__doc__ = "`1 / (1 + exp(-x))`, evaluated without overflow."
tanh = _activation("tanh")
tanh.__doc__ = "Hyperbolic tangent."
relu6 = _activation("relu6")
relu6.__doc__ = "`min(max(x, 0), 6)`."
softplus = _activation("softplus")
softplus.__doc__ = "`log(1 + exp(x))`, evaluated without overflow."
softsign = _activation("softsign")
softsign.__doc__ = "`x / (1 + |x|)`."
selu = _activation("selu")
selu.__doc__ = "Scaled ELU with Keras's constants `alpha=1.67326324`, `scale=1.05070098`."
silu = _activation("silu")
silu.__doc__ = "`x * sigmoid(x)`."
swish = silu
hard_sigmoid = _activation("hard_sigmoid")
hard_sigmoid.__doc__ = "`relu6(x + 3) / 6`: 0 below -3, 1 above 3, linear between."
hard_silu = _activation("hard_silu")
hard_silu.__doc__ = "`x * hard_sigmoid(x)`."
hard_swish = hard_silu


def relu(x, negative_slope=0.0, max_value=None, threshold=0.0):
    """`max(x, 0)`; the optional arguments give Keras's generalised ReLU in one op.

    Above `threshold` the input passes (capped at `max_value` if given);
    below it the output is `negative_slope * (x - threshold)`.
    """
    return _apply("relu", tensor_operand(x), negative_slope=negative_slope,
                  max_value=max_value, threshold=threshold)


def leaky_relu(x, negative_slope=0.2):
    """`x` for positive `x`, else `negative_slope * x`."""
    return _apply("leaky_relu", tensor_operand(x), negative_slope=negative_slope)


def elu(x, alpha=1.0):
    """`x` for positive `x`, else `alpha * (exp(x) - 1)`."""
    return _apply("elu", tensor_operand(x), alpha=alpha)


def gelu(x, approximate=True):
    """`x * Phi(x)`; the tanh approximation by default, as `keras.ops.gelu`."""
    return _apply("gelu", tensor_operand(x), approximate=bool(approximate))


def softmax(x, axis=-1):
    """`exp(x) / sum(exp(x))` along `axis` (an int or a tuple)."""
    return _apply("softmax", tensor_operand(x), axis=axis)


def log_softmax(x, axis=-1):
    """`x - logsumexp(x, axis)`, the logarithm of `softmax`."""
    return _apply("log_softmax", tensor_operand(x), axis=axis)


def one_hot(x, num_classes, axis=-1, dtype=None, sparse=False):
    """One-hot encodes integer `x` along a new `axis` (out-of-range indices give zeros).

    >>> one_hot(np.array([2, 0]), 3).tolist()
    [[0.0, 0.0, 1.0], [1.0, 0.0, 0.0]]
    """
    if sparse:
        raise ValueError(f"Sparse tensors are not supported. Received: sparse={sparse}")
    x = tensor_operand(x)
    rank = len(shape(x)) + 1
    if not -rank <= axis < rank:
        raise ValueError(f"axis must be in [-{rank}, {rank}). Received: axis={axis}")
    axis %= rank
    classes = np.arange(int(num_classes)).reshape(
        tuple(num_classes if i == axis else 1 for i in range(rank)))
    return cast(equal(expand_dims(x, axis), classes), dtype or backend.floatx())


def _prepare(target, output):
    """Target cast to the (float) output's dtype, both ready for `apply`."""
    target, output = operands(target, output)
    out_dtype = np.dtype(output.dtype)
    if not np.issubdtype(out_dtype, np.floating):
        output = cast(output, backend.floatx())
        out_dtype = np.dtype(backend.floatx())
    if np.dtype(target.dtype) != out_dtype:
        target = cast(target, out_dtype)
    return target, output


def _clipped(output):
    epsilon = backend.epsilon()
    return clip(output, epsilon, 1.0 - epsilon)


def categorical_crossentropy(target, output, from_logits=False, axis=-1):
    """Cross-entropy between probability (one-hot) `target`s and predictions.

    Args:
        target: labels, the shape of `output`.
        output: probabilities, or logits when `from_logits`.
        from_logits: whether `output` holds unnormalised logits.
        axis: the class axis.

    Returns:
        The loss per sample: `output`'s shape without `axis`.
    """
    target, output = _prepare(target, output)
    if len(shape(target)) != len(shape(output)):
        raise ValueError(
            "categorical_crossentropy needs target and output of the same rank. "
            f"Received: target.shape={shape(target)}, output.shape={shape(output)}"
        )
    if from_logits:
        return _apply("softmax_cross_entropy", output, target, axis=axis)
    output = divide(output, sum(output, axis=axis, keepdims=True))
    return negative(sum(multiply(target, log(_clipped(output))), axis=axis))


def sparse_categorical_crossentropy(target, output, from_logits=False, axis=-1):
    """Cross-entropy between integer class indices and predictions.

    Args:
        target: class indices, of `output`'s shape without `axis` (a
            trailing axis of size 1 is also accepted).
        output: probabilities, or logits when `from_logits`.
        from_logits: whether `output` holds unnormalised logits.
        axis: the class axis.
    """
    target, output = operands(target, output)
    out_shape = shape(output)
    rank = len(out_shape)
    if rank == 0:
        raise ValueError(f"output needs a class axis. Received: output.shape={out_shape}")
    if len(shape(target)) == rank and shape(target)[-1] == 1:
        target = squeeze(target, axis=-1)
    if not np.issubdtype(np.dtype(target.dtype), np.integer):
        target = cast(target, "int64")
    if not np.issubdtype(np.dtype(output.dtype), np.floating):
        output = cast(output, backend.floatx())
    axis = axis % rank
    if from_logits and axis == rank - 1:
        return _apply("sparse_softmax_cross_entropy", output, target)
    labels = one_hot(target, out_shape[axis], axis=axis, dtype=output.dtype)
    return categorical_crossentropy(labels, output, from_logits=from_logits, axis=axis)


def binary_crossentropy(target, output, from_logits=False):
    """Elementwise binary cross-entropy (no reduction).

    On logits it is `max(x, 0) - x * z + log(1 + exp(-|x|))`; on
    probabilities `-(z log(p) + (1 - z) log(1 - p))` with `p` clipped.
    """
    target, output = _prepare(target, output)
    if from_logits:
        return _apply("sigmoid_cross_entropy", output, target)
    output = _clipped(output)
    positive = multiply(target, log(output))
    negative_part = multiply(subtract(1.0, target), log(subtract(1.0, output)))
    return negative(add(positive, negative_part))


def ctc_loss(target, output, target_length, output_length, mask_index=0):
    """Connectionist temporal classification loss, one value per sequence.

    The negative log-probability of `target` summed over every alignment of
    it to the frames of `output`; computed in log space by the
    forward-backward algorithm, with a hand-written gradient.

    Args:
        target: integer labels, `(batch_size, max_label_length)`; the first
            `target_length[b]` of row `b` count, and none of them may be
            `mask_index`.
        output: logits (not softmax probabilities),
            `(batch_size, max_time, num_classes)`.
        target_length: `(batch_size,)` label counts.
        output_length: `(batch_size,)` numbers of valid frames; later frames
            are ignored.
        mask_index: the blank class. Defaults to `0`.

    Returns:
        `(batch_size,)` losses; `inf` (with zero gradient) where the labels
        cannot fit in the frames.

    >>> import numpy as np
    >>> log_p = np.log(np.array([[[0.6, 0.4], [0.3, 0.7]]]))  # 2 frames, blank = 0
    >>> loss = ctc_loss(np.array([[1]]), log_p, np.array([1]), np.array([2]))
    >>> round(float(np.exp(-loss[0])), 4)  # 0.4 * 0.7 + 0.6 * 0.7 + 0.4 * 0.3
    0.82
    """
    target, output, target_length, output_length = operands(
        target, output, target_length, output_length)
    if not np.issubdtype(np.dtype(output.dtype), np.floating):
        output = cast(output, backend.floatx())
    return _apply("ctc_loss", output, target, target_length, output_length,
                  mask_index=int(mask_index))


def dot_product_attention(query, key, value, bias=None, mask=None, scale=None,
                          is_causal=False, flash_attention=None, attn_logits_soft_cap=None):
    """Scaled dot-product attention on `(batch, length, heads, head_dim)` tensors.

    `softmax(scale * q k^T + bias) v`, where `mask` (booleans broadcastable
    to `(batch, heads, q_len, k_len)`, True = attend) and `is_causal` hide
    keys, `scale` defaults to `1 / sqrt(head_dim)` and `bias` (broadcastable
    to the same shape) is added to the logits. Without `bias` or a soft cap
    it runs as one fused op with a hand-written gradient; with them, as
    separate ops. `attn_logits_soft_cap` squashes the logits to
    `cap * tanh(logits / cap)` (Keras allows it only for JAX on TPU).
    `flash_attention` is accepted and ignored.
    """
    if bias is None and attn_logits_soft_cap is None:
        return _apply("dot_product_attention", query, key, value, mask=mask, scale=scale,
                      is_causal=is_causal)[0]
    query, key, value = operands(query, key, value)
    if scale is None:
        scale = 1.0 / float(np.sqrt(shape(query)[-1]))
    logits = multiply(einsum("btnh,bsnh->bnts", query, key), float(scale))
    if bias is not None:
        logits = add(logits, tensor_operand(bias))
    if attn_logits_soft_cap is not None:
        cap = float(attn_logits_soft_cap)
        logits = multiply(tanh(multiply(logits, 1.0 / cap)), cap)
    keep = None if mask is None else tensor_operand(mask)
    if is_causal:
        q_len, k_len = shape(query)[1], shape(key)[1]
        causal = np.tril(np.ones((q_len, k_len), bool), k_len - q_len)
        keep = causal if keep is None else _apply("logical_and", keep, causal)
    if keep is not None:
        lowest = float(np.finfo(np.dtype(logits.dtype)).min) * 0.7
        logits = _apply("where", keep, logits, lowest)
    probabilities = softmax(logits, axis=-1)
    return einsum("bnts,bsnh->btnh", probabilities, value)

def multi_hot(inputs, num_classes=None, axis=-1, dtype=None, sparse=False, **kwargs):
    """Multi-hot encodes integer `inputs`: 1 for every class an example's indices name.

    A 2-D `(batch, n)` input gives `(batch, num_classes)`; a 1-D input one
    multi-hot vector. `num_tokens` is accepted as Keras's older name for
    `num_classes`.

    >>> multi_hot(np.array([[0, 2], [1, 1]]), 3).tolist()
    [[1.0, 0.0, 1.0], [0.0, 1.0, 0.0]]
    """
    if "num_tokens" in kwargs:
        num_classes = kwargs.pop("num_tokens") if num_classes is None else num_classes
    if kwargs:
        raise TypeError(f"multi_hot got unexpected arguments: {sorted(kwargs)}")
    if num_classes is None:
        raise ValueError("multi_hot needs num_classes. Received: num_classes=None")
    inputs = tensor_operand(inputs)
    reduction_axis = 1 if len(shape(inputs)) > 1 else 0
    encoded = one_hot(cast(inputs, "int32"), num_classes, axis=axis, dtype=dtype, sparse=sparse)
    return _apply("max", encoded, axis=reduction_axis)


def polar(abs_, angle):
    """The complex numbers `abs_ * exp(i * angle)`; eager numpy only (no complex tensors).

    >>> polar(np.array([2.0]), np.array([0.0])).tolist()
    [(2+0j)]
    """
    magnitude = convert_to_numpy(abs_)
    phase = convert_to_numpy(angle)
    dtype = np.complex128 if np.result_type(magnitude, phase) == np.float64 else np.complex64
    return (magnitude * np.exp(1j * phase)).astype(dtype)


def ctc_decode(inputs, sequence_lengths, strategy="greedy", beam_width=100, top_paths=1,
               merge_repeated=True, mask_index=0):
    """Decodes CTC logits into label sequences (no gradient).

    Args:
        inputs: logits, `(batch_size, max_time, num_classes)`.
        sequence_lengths: `(batch_size,)` numbers of valid frames.
        strategy: `"greedy"` (each frame's best class) or `"beam_search"`.
        beam_width: prefixes kept by the beam search.
        top_paths: labellings returned by the beam search (greedy gives one).
        merge_repeated: whether greedy decoding merges repeated classes.
        mask_index: the blank class.

    Returns:
        `(decoded, log_probabilities)`: `(top_paths, batch_size, max_time)`
        int32 labels padded with -1, and `(batch_size, top_paths)` scores
        (greedy: the negated sum of each frame's largest logit; beam search:
        the labelling's log probability).
    """
    inputs = tensor_operand(inputs)
    if not np.issubdtype(np.dtype(inputs.dtype), np.floating):
        inputs = cast(inputs, backend.floatx())
    lengths = convert_to_numpy(sequence_lengths).astype(np.int64) if not isinstance(
        sequence_lengths, backend.SymbolicTensor) else sequence_lengths
    classes = shape(inputs)[-1]
    blank = int(mask_index) % classes if classes is not None else int(mask_index)
    if strategy == "greedy":
        return _apply("ctc_greedy_decode", inputs, lengths, top_paths=1,
                      merge_repeated=bool(merge_repeated), blank=blank)
    if strategy == "beam_search":
        return _apply("ctc_beam_search_decode", inputs, lengths, top_paths=int(top_paths),
                      beam_width=int(beam_width), blank=blank)
    raise ValueError(
        f"ctc_decode: strategy must be 'greedy' or 'beam_search'. Received: strategy={strategy!r}")
