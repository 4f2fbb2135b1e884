"""Neural-network ops: activations, `one_hot`, the cross-entropies and CTC.

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
from .core import cast, operands, shape, tensor_operand
from .numpy import (
    add, clip, divide, equal, expand_dims, log, multiply, negative, squeeze, subtract, sum,
)

_apply = backend.apply


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
                          is_causal=False, flash_attention=None):
    """Scaled dot-product attention on `(batch, length, heads, head_dim)` tensors.

    One fused op with a hand-written gradient: `softmax(scale * q k^T) v`,
    where `mask` (booleans broadcastable to `(batch, heads, q_len, k_len)`,
    True = attend) and `is_causal` hide keys. `flash_attention` is accepted
    and ignored.
    """
    if bias is not None:
        raise ValueError(
            "dot_product_attention does not support an additive `bias`; fold it into a "
            "boolean `mask` instead. Received: bias of shape "
            f"{getattr(bias, 'shape', None)}"
        )
    return _apply("dot_product_attention", query, key, value, mask=mask, scale=scale,
                  is_causal=is_causal)[0]
