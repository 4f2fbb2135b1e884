"""The `(x, y, sample_weight)` batch convention of `fit`, `train_step` and data inputs."""


def unpack_x_y_sample_weight(data):
    """Splits a batch `(x,)`, `(x, y)` or `(x, y, sample_weight)`."""
    if isinstance(data, tuple):
        if len(data) == 1:
            return data[0], None, None
        if len(data) == 2:
            return data[0], data[1], None
        if len(data) == 3:
            return data
        raise ValueError(
            "Data should be (x,), (x, y) or (x, y, sample_weight). "
            f"Received: a tuple of length {len(data)}"
        )
    return data, None, None


def pack_x_y_sample_weight(x, y=None, sample_weight=None):
    """The batch tuple Keras hands to `train_step`: `(x,)`, `(x, y)` or `(x, y, sw)`.

    Trailing `None`s are dropped, so an overridden `train_step` can write
    `x, y = data` when there are no sample weights, as in Keras.

    >>> len(pack_x_y_sample_weight(1, 2))
    2
    """
    if y is None:
        return (x,)
    if sample_weight is None:
        return (x, y)
    return (x, y, sample_weight)
