"""Adaptive pooling: max or average over bins that divide the input into `output_size`.

Along an axis of length `L` pooled to `O` bins, bin `i` covers
`[floor(i * L / O), ceil((i + 1) * L / O))` (PyTorch's and Keras's bins), so
neighbouring bins may overlap and, when `L < O`, repeat elements. Bins have
only two lengths, `ceil(L / O)` and one more, so each axis is pooled with at
most two stride-1 windowed pools whose results are concatenated and from
which each bin's window is taken. Max and mean over a box are both
separable, so the axes are pooled one after another. Everything is built
from existing backend ops (`max_pool`, `avg_pool`, `concatenate`, `take`),
which carry the gradient: max pooling's goes to the first maximum of a bin.
"""

import numpy as np

from ... import ops
from ...ops import kernels
from ..convolutional.arguments import (
    check_input,
    from_channels_last,
    standardize_data_format,
    standardize_tuple,
    to_channels_last,
)
from ..input_spec import InputSpec
from ..layer import Layer


def adaptive_bins(length, output_size):
    """`(starts, stops)` of the `output_size` bins over an axis of `length`, as int arrays."""
    index = np.arange(output_size)
    starts = index * length // output_size
    stops = -(-(index + 1) * length // output_size)
    return starts, stops


class BaseAdaptivePooling(Layer):
    """Max or average over `output_size` adaptive bins of each spatial axis.

    Args:
        rank: number of spatial dimensions.
        output_size: int or tuple of `rank` ints: the output's spatial shape.
        data_format: `"channels_last"` (default) or `"channels_first"`.
    """

    _op = None  # kernels.max_pool or kernels.avg_pool

    def __init__(self, rank, output_size, data_format=None, **kwargs):
        super().__init__(**kwargs)
        self.rank = rank
        self.output_size = standardize_tuple(output_size, rank, "output_size")
        self.data_format = standardize_data_format(data_format)
        self.input_spec = InputSpec(ndim=rank + 2)

    def build(self, input_shape):
        # Unknown spatial lengths are fine: the bins are laid out per call, from the data.
        check_input(self, input_shape, self.rank, self.data_format)

    def compute_output_shape(self, input_shape):
        shape = tuple(input_shape)
        if self.data_format == "channels_last":
            return (shape[0], *self.output_size, shape[-1])
        return (shape[0], shape[1], *self.output_size)

    def _pool_axis(self, x, axis, size):
        length = x.shape[axis]
        if length == size:
            return x
        starts, stops = adaptive_bins(length, size)
        widths = sorted(set((stops - starts).tolist()))
        pooled, offsets = [], {}
        for width in widths:  # one or two widths, the shorter first
            offsets[width] = sum(length - w + 1 for w in widths if w < width)
            window = tuple(width if a == axis else 1 for a in range(1, self.rank + 1))
            pooled.append(self._op(x, window, strides=1))
        table = pooled[0] if len(pooled) == 1 else ops.concatenate(pooled, axis=axis)
        index = starts + np.array([offsets[w] for w in (stops - starts).tolist()])
        return ops.take(table, index.astype("int64"), axis=axis)

    def call(self, inputs):
        x = to_channels_last(inputs, self.data_format)
        if tuple(x.shape[1:-1]) == self.output_size:  # one element per bin
            return from_channels_last(self._op(x, (1,) * self.rank),
                                      self.data_format)
        for axis, size in enumerate(self.output_size, start=1):
            x = self._pool_axis(x, axis, size)
        return from_channels_last(x, self.data_format)

    def get_config(self):
        config = super().get_config()
        config.update({"output_size": self.output_size, "data_format": self.data_format})
        return config


class AdaptiveMaxPooling1D(BaseAdaptivePooling):
    """Max over `output_size` adaptive bins of `(batch, steps, channels)` inputs.

    >>> import numpy as np
    >>> x = np.array([0.0, 5.0, 1.0, 2.0, 3.0], "float32").reshape(1, 5, 1)
    >>> AdaptiveMaxPooling1D(3)(x)[0, :, 0].tolist()  # bins [0:2], [1:4], [3:5]
    [5.0, 5.0, 3.0]
    """

    _op = staticmethod(kernels.max_pool)

    def __init__(self, output_size, data_format=None, **kwargs):
        super().__init__(1, output_size, data_format, **kwargs)


class AdaptiveMaxPooling2D(BaseAdaptivePooling):
    """Max over adaptive bins of `(batch, height, width, channels)` inputs.

    >>> import numpy as np
    >>> AdaptiveMaxPooling2D((2, 3))(np.ones((1, 7, 9, 4), "float32")).shape
    (1, 2, 3, 4)
    """

    _op = staticmethod(kernels.max_pool)

    def __init__(self, output_size, data_format=None, **kwargs):
        super().__init__(2, output_size, data_format, **kwargs)


class AdaptiveMaxPooling3D(BaseAdaptivePooling):
    """Max over adaptive bins of `(batch, depth, height, width, channels)` inputs.

    >>> import numpy as np
    >>> AdaptiveMaxPooling3D(2)(np.ones((1, 3, 4, 5, 1), "float32")).shape
    (1, 2, 2, 2, 1)
    """

    _op = staticmethod(kernels.max_pool)

    def __init__(self, output_size, data_format=None, **kwargs):
        super().__init__(3, output_size, data_format, **kwargs)


class AdaptiveAveragePooling1D(BaseAdaptivePooling):
    """Mean over `output_size` adaptive bins of `(batch, steps, channels)` inputs.

    >>> import numpy as np
    >>> x = np.array([0.0, 1.0, 4.0, 9.0, 16.0], "float32").reshape(1, 5, 1)
    >>> AdaptiveAveragePooling1D(3)(x)[0, :, 0].tolist()  # bins [0:2], [1:4], [3:5]
    [0.5, 4.666666507720947, 12.5]
    """

    _op = staticmethod(kernels.avg_pool)

    def __init__(self, output_size, data_format=None, **kwargs):
        super().__init__(1, output_size, data_format, **kwargs)


class AdaptiveAveragePooling2D(BaseAdaptivePooling):
    """Mean over adaptive bins of `(batch, height, width, channels)` inputs.

    >>> import numpy as np
    >>> AdaptiveAveragePooling2D(7)(np.ones((2, 10, 12, 3), "float32")).shape
    (2, 7, 7, 3)
    """

    _op = staticmethod(kernels.avg_pool)

    def __init__(self, output_size, data_format=None, **kwargs):
        super().__init__(2, output_size, data_format, **kwargs)


class AdaptiveAveragePooling3D(BaseAdaptivePooling):
    """Mean over adaptive bins of `(batch, depth, height, width, channels)` inputs.

    >>> import numpy as np
    >>> x = np.ones((1, 2, 4, 4, 4), "float32")
    >>> AdaptiveAveragePooling3D(2, data_format="channels_first")(x).shape
    (1, 2, 2, 2, 2)
    """

    _op = staticmethod(kernels.avg_pool)

    def __init__(self, output_size, data_format=None, **kwargs):
        super().__init__(3, output_size, data_format, **kwargs)


__all__ = [
    "AdaptiveMaxPooling1D", "AdaptiveMaxPooling2D", "AdaptiveMaxPooling3D",
    "AdaptiveAveragePooling1D", "AdaptiveAveragePooling2D", "AdaptiveAveragePooling3D",
]
