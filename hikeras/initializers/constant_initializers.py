"""Initializers whose values do not depend on any random draw."""

import numpy as np

from .initializer import Initializer, standardize_dtype, standardize_shape


class Zeros(Initializer):
    """Fills the weight with zeros (the default bias initializer).

    >>> Zeros()((2, 2)).tolist()
    [[0.0, 0.0], [0.0, 0.0]]
    """

    def __call__(self, shape, dtype=None):
        return np.zeros(standardize_shape(shape), dtype=standardize_dtype(dtype))


class Ones(Initializer):
    """Fills the weight with ones.

    >>> Ones()((3,)).tolist()
    [1.0, 1.0, 1.0]
    """

    def __call__(self, shape, dtype=None):
        return np.ones(standardize_shape(shape), dtype=standardize_dtype(dtype))


class Constant(Initializer):
    """Fills the weight with `value` (a scalar, or an array broadcast to the shape).

    Args:
        value: the fill value. Defaults to `0.0`.

    >>> Constant(0.5)((2,)).tolist()
    [0.5, 0.5]
    """

    def __init__(self, value=0.0):
        if not np.isscalar(value):
            value = np.asarray(value)
        self.value = value

    def __call__(self, shape, dtype=None):
        shape = standardize_shape(shape)
        try:
            filled = np.broadcast_to(np.asarray(self.value), shape)
        except ValueError:
            raise ValueError(
                f"Constant value of shape {np.shape(self.value)} cannot fill a weight of "
                f"shape {shape}. Received: shape={shape}"
            ) from None
        return np.array(filled, dtype=standardize_dtype(dtype))

    def get_config(self):
        value = self.value
        if isinstance(value, np.ndarray):
            value = value.tolist()
        elif isinstance(value, np.generic):
            value = value.item()
        return {"value": value}


class Identity(Initializer):
    """`gain` times the identity matrix; only for 2D weights.

    Args:
        gain: multiplicative factor. Defaults to `1.0`.

    >>> Identity(gain=2.0)((2, 3)).tolist()
    [[2.0, 0.0, 0.0], [0.0, 2.0, 0.0]]
    """

    def __init__(self, gain=1.0):
        self.gain = gain

    def __call__(self, shape, dtype=None):
        shape = standardize_shape(shape)
        if len(shape) != 2:
            raise ValueError(
                "Identity matrix initializer can only be used for 2D matrices. "
                f"Received: shape={shape} of rank {len(shape)}."
            )
        dtype = standardize_dtype(dtype)
        return (self.gain * np.eye(*shape)).astype(dtype, copy=False)

    def get_config(self):
        return {"gain": self.gain}
