"""Small numeric helpers on numpy arrays: one-hot labels and row normalisation."""

import numpy as np


def to_categorical(x, num_classes=None, dtype="float32"):
    """One-hot encodes integer class labels.

    A trailing axis of size 1 is dropped first (`(n, 1)` labels give
    `(n, num_classes)`), as in Keras.

    Args:
        x: array-like of integer labels in `[0, num_classes)`.
        num_classes: number of classes; defaults to `max(x) + 1`.
        dtype: dtype of the result.

    Returns:
        An array of shape `x.shape + (num_classes,)` with a single 1 per row.

    Raises:
        ValueError: if a label is negative or not below `num_classes`.

    >>> to_categorical([0, 2, 1], num_classes=3).tolist()
    [[1.0, 0.0, 0.0], [0.0, 0.0, 1.0], [0.0, 1.0, 0.0]]
    """
    x = np.asarray(x)
    if x.size and not np.all(np.equal(np.mod(x, 1), 0)):
        raise ValueError(f"to_categorical needs integer class labels. Received: {x!r}")
    x = x.astype("int64")
    shape = x.shape
    if len(shape) > 1 and shape[-1] == 1:
        shape = shape[:-1]
    x = x.reshape(-1)
    if num_classes is None:
        num_classes = int(x.max()) + 1 if x.size else 0
    if x.size and (x.min() < 0 or x.max() >= num_classes):
        raise ValueError(
            f"to_categorical labels must lie in [0, {num_classes}). "
            f"Received: labels from {int(x.min())} to {int(x.max())} with "
            f"num_classes={num_classes}"
        )
    out = np.zeros((x.shape[0], num_classes), dtype=dtype)
    out[np.arange(x.shape[0]), x] = 1
    return out.reshape(shape + (num_classes,))


def normalize(x, axis=-1, order=2):
    """Divides `x` by its `order`-norm along `axis` (all-zero slices stay zero).

    >>> normalize([[3.0, 4.0], [0.0, 0.0]]).tolist()
    [[0.6, 0.8], [0.0, 0.0]]
    """
    x = np.asarray(x)
    norm = np.atleast_1d(np.linalg.norm(x, order, axis))
    norm[norm == 0] = 1
    return x / np.expand_dims(norm, axis)
