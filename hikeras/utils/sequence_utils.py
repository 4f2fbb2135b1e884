"""`pad_sequences`: variable-length sequences to one 2-D (or more) array."""

import numpy as np


def pad_sequences(sequences, maxlen=None, dtype="int32", padding="pre", truncating="pre",
                  value=0.0):
    """Pads (and truncates) sequences to a common length, as Keras does.

    Args:
        sequences: a list of sequences (lists or arrays); elements may be
            scalars or arrays of one common shape.
        maxlen: the output length; defaults to the longest sequence.
        dtype: dtype of the result (a string dtype allows a string `value`).
        padding: `"pre"` or `"post"`: where padding goes.
        truncating: `"pre"` or `"post"`: which end of a longer sequence is cut.
        value: the padding value.

    Returns:
        An array of shape `(len(sequences), maxlen) + element_shape`.

    >>> pad_sequences([[1, 2, 3], [4]], maxlen=2).tolist()
    [[2, 3], [0, 4]]
    >>> pad_sequences([[1, 2, 3], [4]], padding="post", truncating="post", maxlen=2).tolist()
    [[1, 2], [4, 0]]
    """
    if padding not in ("pre", "post"):
        raise ValueError(f'padding must be "pre" or "post". Received: padding={padding!r}')
    if truncating not in ("pre", "post"):
        raise ValueError(
            f'truncating must be "pre" or "post". Received: truncating={truncating!r}')
    if not hasattr(sequences, "__len__"):
        raise ValueError(f"`sequences` must be a list of sequences. Received: {sequences!r}")
    lengths = []
    element_shape = None
    for i, seq in enumerate(sequences):
        if not hasattr(seq, "__len__"):
            raise ValueError(
                "`sequences` must be a list of sequences; item "
                f"{i} has no length. Received: sequences[{i}]={seq!r}"
            )
        if element_shape is None and len(seq):
            element_shape = np.asarray(seq).shape[1:]
        lengths.append(len(seq))
    element_shape = element_shape or ()
    if maxlen is None:
        maxlen = max(lengths, default=0)
    string_dtype = np.issubdtype(np.dtype(dtype), np.str_) or np.dtype(dtype) == object
    if isinstance(value, str) and not string_dtype:
        raise ValueError(
            f"A string padding value needs a string or object dtype. Received: "
            f"dtype={dtype!r}, value={value!r}"
        )
    out = np.full((len(sequences), maxlen) + element_shape, value, dtype=dtype)
    if maxlen == 0:
        return out
    for i, seq in enumerate(sequences):
        if not len(seq):
            continue
        kept = np.asarray(seq[-maxlen:] if truncating == "pre" else seq[:maxlen], dtype=dtype)
        if kept.shape[1:] != element_shape:
            raise ValueError(
                f"Sequence {i} has elements of shape {kept.shape[1:]}, unlike the first "
                f"non-empty sequence's {element_shape}. Received: sequences[{i}] with "
                f"shape {kept.shape}"
            )
        if padding == "post":
            out[i, :len(kept)] = kept
        else:
            out[i, maxlen - len(kept):] = kept
    return out
