"""AveragePooling1D/2D/3D."""

from ...ops import kernels
from .base_pooling import BasePooling

__all__ = ["AveragePooling1D", "AveragePooling2D", "AveragePooling3D", "AvgPool1D", "AvgPool2D", "AvgPool3D"]


class AveragePooling1D(BasePooling):
    """Mean over windows of `(batch, steps, channels)` inputs.

    >>> import numpy as np
    >>> x = np.array([1.0, 2.0, 3.0], "float32").reshape(1, 3, 1)
    >>> AveragePooling1D(padding="same")(x)[0, :, 0].tolist()
    [1.5, 3.0]
    """

    _op = staticmethod(kernels.avg_pool)

    def __init__(self, pool_size=2, strides=None, padding="valid", data_format=None, **kwargs):
        super().__init__(1, pool_size, strides, padding, data_format, **kwargs)


class AveragePooling2D(BasePooling):
    """Mean over windows of `(batch, height, width, channels)` inputs.

    >>> import numpy as np
    >>> AveragePooling2D(3, strides=1)(np.ones((1, 5, 5, 2), "float32")).shape
    (1, 3, 3, 2)
    """

    _op = staticmethod(kernels.avg_pool)

    def __init__(self, pool_size=(2, 2), strides=None, padding="valid", data_format=None,
                 **kwargs):
        super().__init__(2, pool_size, strides, padding, data_format, **kwargs)


class AveragePooling3D(BasePooling):
    """Mean over windows of `(batch, depth, height, width, channels)` inputs.

    >>> import numpy as np
    >>> AveragePooling3D()(np.ones((1, 4, 4, 4, 1), "float32")).shape
    (1, 2, 2, 2, 1)
    """

    _op = staticmethod(kernels.avg_pool)

    def __init__(self, pool_size=(2, 2, 2), strides=None, padding="valid", data_format=None,
                 **kwargs):
        super().__init__(3, pool_size, strides, padding, data_format, **kwargs)


AvgPool1D = AveragePooling1D


AvgPool2D = AveragePooling2D


AvgPool3D = AveragePooling3D
