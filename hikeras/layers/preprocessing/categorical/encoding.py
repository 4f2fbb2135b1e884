"""Turning integer indices into one-hot, multi-hot and count vectors.

Shared by `CategoryEncoding`, `Discretization` and the lookup layers. The
shapes follow Keras: a scalar counts as one sample; `"one_hot"` appends an
axis of size `depth` (replacing a trailing axis of size 1); `"multi_hot"` and
`"count"` replace the last axis (the tokens of one sample) by `depth`.
"""

import numpy as np

OUTPUT_MODES = ("one_hot", "multi_hot", "count")


def integer_values(layer, values):
    """`values` (an array) as int64; floats must hold whole numbers."""
    if np.issubdtype(values.dtype, np.integer) or values.dtype == bool:
        return values.astype(np.int64, copy=False)
    if np.issubdtype(values.dtype, np.floating) and np.all(np.mod(values, 1) == 0):
        return values.astype(np.int64)
    raise TypeError(
        f"Layer '{layer.name}' ({type(layer).__name__}) expects integer inputs. "
        f"Received: inputs of dtype {values.dtype}")


def encoded_shape(shape, output_mode, depth):
    """The output shape for inputs of `shape` (`None` marks unknown sizes)."""
    shape = tuple(shape)
    if output_mode == "int":
        return shape
    if not shape:
        return (depth,)
    if output_mode == "one_hot":
        if len(shape) > 1 and shape[-1] == 1:
            return shape[:-1] + (depth,)
        return shape + (depth,)
    return shape[:-1] + (depth,)


def encode_categorical(indices, output_mode, depth, dtype, count_weights=None):
    """Encodes integer `indices` as `output_mode` vectors of size `depth`.

    Entries outside `[0, depth)` contribute nothing (the lookup layers use -1
    for masked tokens); callers that must refuse them check beforehand.
    `count_weights` (same shape as `indices`) replaces the count of 1 per
    entry in `"count"` mode.
    """
    indices = np.asarray(indices)
    if indices.ndim == 0:
        indices = indices.reshape(1)
        if count_weights is not None:
            count_weights = np.asarray(count_weights).reshape(1)
    out_shape = encoded_shape(indices.shape, output_mode, depth)
    valid = (indices >= 0) & (indices < depth)
    if output_mode == "one_hot":
        flat = indices.reshape(-1)
        out = np.zeros((flat.size, depth), dtype=dtype)
        rows = np.flatnonzero(valid.reshape(-1))
        out[rows, flat[rows]] = 1
        return out.reshape(out_shape)
    # multi_hot / count: one bincount over (sample, token) pairs, with each
    # sample's tokens offset into its own block of `depth` bins.
    tokens = indices.reshape(-1, indices.shape[-1])
    offsets = np.arange(tokens.shape[0])[:, None] * depth
    keep = valid.reshape(tokens.shape)
    bins = (tokens + offsets)[keep]
    weights = None
    if count_weights is not None and output_mode == "count":
        weights = np.asarray(count_weights, dtype=np.float64).reshape(tokens.shape)[keep]
    counts = np.bincount(bins, weights=weights, minlength=tokens.shape[0] * depth)
    if output_mode == "multi_hot":
        counts = counts > 0
    return counts.astype(dtype).reshape(out_shape)
