"""UpSampling1D/2D/3D: repeats rows (nearest) or interpolates."""

from ... import ops
from ...backend import SymbolicTensor
from ...ops import kernels
from ..input_spec import InputSpec
from ..layer import Layer
from .spatial_arguments import _data_format, _int_tuple, _scaled, _spatial_axes

__all__ = ["UpSampling1D", "UpSampling2D", "UpSampling3D"]


def _upsample_nearest(inputs, axes, sizes):
    """`inputs` with each entry repeated `sizes[i]` times along `axes[i]`."""
    for axis, factor in zip(axes, sizes):
        inputs = ops.repeat(inputs, factor, axis=axis)
    return inputs


class UpSampling1D(Layer):
    """Repeats each step `size` times: `(N, steps, F)` -> `(N, steps * size, F)`.

    >>> import numpy as np
    >>> UpSampling1D(2)(np.array([[[1.0], [2.0]]])).ravel().tolist()
    [1.0, 1.0, 2.0, 2.0]
    """

    def __init__(self, size=2, **kwargs):
        super().__init__(**kwargs)
        self.size = _int_tuple(size, 1, "size", "UpSampling1D")[0]
        self.input_spec = InputSpec(ndim=3)

    def call(self, inputs):
        return _upsample_nearest(inputs, (1,), (self.size,))

    def get_config(self):
        config = super().get_config()
        config["size"] = self.size
        return config


class UpSampling2D(Layer):
    """Upsamples images by `size` along height and width.

    Args:
        size: an int or `(height_factor, width_factor)`.
        data_format: `"channels_last"` (NHWC, default) or `"channels_first"`.
        interpolation: `"nearest"` (each pixel repeated) or `"bilinear"`
            (half-pixel centres, edges clamped, as TensorFlow's and JAX's
            `resize`).

    >>> import numpy as np
    >>> UpSampling2D((2, 3))(np.zeros((1, 4, 5, 2))).shape
    (1, 8, 15, 2)
    """

    def __init__(self, size=(2, 2), data_format=None, interpolation="nearest", **kwargs):
        super().__init__(**kwargs)
        self.size = _int_tuple(size, 2, "size", "UpSampling2D")
        self.data_format = _data_format(data_format)
        if interpolation not in ("nearest", "bilinear"):
            raise ValueError("UpSampling2D supports interpolation 'nearest' and 'bilinear'. "
                             f"Received: interpolation={interpolation!r}")
        self.interpolation = interpolation
        self.input_spec = InputSpec(ndim=4)

    def call(self, inputs):
        axes = _spatial_axes(self.data_format, 2)
        if self.interpolation == "nearest":
            return _upsample_nearest(inputs, axes, self.size)
        size = tuple(inputs.shape[a] * f for a, f in zip(axes, self.size))
        return kernels.resize_bilinear(inputs, size, axes=axes)

    def compute_output_spec(self, inputs):
        shape = list(inputs.shape)
        for axis, factor in zip(_spatial_axes(self.data_format, 2), self.size):
            shape[axis] = _scaled(shape[axis], factor)
        return SymbolicTensor(shape, inputs.dtype)

    def get_config(self):
        config = super().get_config()
        config.update({"size": self.size, "data_format": self.data_format,
                       "interpolation": self.interpolation})
        return config


class UpSampling3D(Layer):
    """Repeats each voxel `size` times along depth, height and width.

    Args:
        size: an int or `(depth_factor, height_factor, width_factor)`.
        data_format: `"channels_last"` (NDHWC, default) or `"channels_first"`.

    >>> import numpy as np
    >>> UpSampling3D((1, 2, 3))(np.zeros((1, 2, 2, 2, 4))).shape
    (1, 2, 4, 6, 4)
    """

    def __init__(self, size=(2, 2, 2), data_format=None, **kwargs):
        super().__init__(**kwargs)
        self.size = _int_tuple(size, 3, "size", "UpSampling3D")
        self.data_format = _data_format(data_format)
        self.input_spec = InputSpec(ndim=5)

    def call(self, inputs):
        return _upsample_nearest(inputs, _spatial_axes(self.data_format, 3), self.size)

    def get_config(self):
        config = super().get_config()
        config.update({"size": self.size, "data_format": self.data_format})
        return config
