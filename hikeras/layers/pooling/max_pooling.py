"""MaxPooling1D/2D/3D."""

from ...ops import kernels
from .base_pooling import BasePooling

__all__ = ["MaxPooling1D", "MaxPooling2D", "MaxPooling3D", "MaxPool1D", "MaxPool2D", "MaxPool3D"]


class MaxPooling1D(BasePooling):
    """Max over windows of `(batch, steps, channels)` inputs.

    >>> import numpy as np
    >>> MaxPooling1D()(np.arange(8, dtype="float32").reshape(1, 4, 2))[0].tolist()
    [[2.0, 3.0], [6.0, 7.0]]
    """

    _op = staticmethod(kernels.max_pool)

    def __init__(self, pool_size=2, strides=None, padding="valid", data_format=None, **kwargs):
        super().__init__(1, pool_size, strides, padding, data_format, **kwargs)


class MaxPooling2D(BasePooling):
    """Max over windows of `(batch, height, width, channels)` inputs.

    >>> import numpy as np
    >>> MaxPooling2D(2)(np.ones((1, 28, 28, 3), "float32")).shape
    (1, 14, 14, 3)
    """

    _op = staticmethod(kernels.max_pool)

    def __init__(self, pool_size=(2, 2), strides=None, padding="valid", data_format=None,
                 **kwargs):
        super().__init__(2, pool_size, strides, padding, data_format, **kwargs)


class MaxPooling3D(BasePooling):
    """Max over windows of `(batch, depth, height, width, channels)` inputs.

    >>> import numpy as np
    >>> MaxPooling3D(padding="same")(np.ones((1, 3, 4, 5, 1), "float32")).shape
    (1, 2, 2, 3, 1)
    """

    _op = staticmethod(kernels.max_pool)

    def __init__(self, pool_size=(2, 2, 2), strides=None, padding="valid", data_format=None,
                 **kwargs):
        super().__init__(3, pool_size, strides, padding, data_format, **kwargs)


MaxPool1D = MaxPooling1D


MaxPool2D = MaxPooling2D


MaxPool3D = MaxPooling3D
