"""The `Initializer` base class: a callable from `(shape, dtype)` to an array.

Layers hand an initializer to `add_weight(initializer=...)`; the layer calls
it once with the weight's shape to get the starting value. Everything an
initializer needs besides the shape lives in its constructor arguments, which
`get_config` returns so the object can be rebuilt from JSON.
"""

import numpy as np

from ..utils.dtype_utils import standardize_dtype


class Initializer:
    """Base class of weight initializers.

    A subclass implements `__call__(shape, dtype=None)`, returning a numpy
    array of that shape in `dtype` (or `floatx()` when `dtype` is None), and
    `get_config()` returning its constructor arguments.

    >>> import numpy as np
    >>> class Fives(Initializer):
    ...     def __call__(self, shape, dtype=None):
    ...         return np.full(shape, 5.0, dtype=standardize_dtype(dtype))
    >>> Fives()((2,)).tolist()
    [5.0, 5.0]
    """

    def __call__(self, shape, dtype=None):
        raise NotImplementedError(
            f"Initializer subclass {type(self).__name__} must implement "
            "`__call__(shape, dtype=None)`."
        )

    def get_config(self):
        """The constructor arguments, as a JSON-able dict."""
        return {}

    @classmethod
    def from_config(cls, config):
        """Rebuilds an initializer from the output of `get_config`."""
        return cls(**config)

    def clone(self):
        """A new initializer with the same configuration."""
        return self.__class__.from_config(self.get_config())

    def __repr__(self):
        args = ", ".join(f"{k}={v!r}" for k, v in self.get_config().items())
        return f"{type(self).__name__}({args})"


def standardize_shape(shape):
    """`shape` as a tuple of non-negative ints; raises `ValueError` otherwise."""
    if isinstance(shape, (int, np.integer)):
        shape = (shape,)
    try:
        shape = tuple(int(d) for d in shape)
    except TypeError:
        raise ValueError("An initializer needs a fully known shape (a tuple of ints). "
                         f"Received: shape={shape!r}") from None
    if any(d < 0 for d in shape):
        raise ValueError(f"Shape dimensions must be non-negative. Received: shape={shape}")
    return shape


def require_float_dtype(dtype, initializer):
    """`dtype` standardised; a `ValueError` unless it is a floating-point dtype."""
    dtype = np.dtype(standardize_dtype(dtype))
    if not np.issubdtype(dtype, np.floating):
        raise ValueError(
            f"{type(initializer).__name__} draws random floats, so it needs a float dtype. "
            f"Received: dtype={dtype.name}"
        )
    return dtype


def compute_fans(shape):
    """`(fan_in, fan_out)` of a weight of this shape, as Keras computes them.

    A vector counts its length both ways; a matrix `(inputs, outputs)` is
    `(rows, columns)`; a convolution kernel `(*spatial, in, out)` multiplies
    both by the receptive field size, the product of the leading dimensions.

    >>> compute_fans((3, 3, 16, 32))
    (144, 288)
    """
    shape = tuple(shape)
    if len(shape) < 1:
        return 1, 1
    if len(shape) == 1:
        return int(shape[0]), int(shape[0])
    if len(shape) == 2:
        return int(shape[0]), int(shape[1])
    receptive_field_size = int(np.prod(shape[:-2]))
    return int(shape[-2]) * receptive_field_size, int(shape[-1]) * receptive_field_size
