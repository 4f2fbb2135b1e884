"""Reshaping layers: `Flatten`, `Reshape`, `Permute`, `RepeatVector`,
`UpSampling1D/2D/3D`, `ZeroPadding1D/2D/3D` and `Cropping1D/2D/3D`.

The spatial layers share three helpers, `_upsample_nearest`, `_pad` and
`_crop`, which work on any set of axes; the 2D and 3D padding and cropping
layers differ only in their rank (`_ZeroPadding`, `_Cropping`).
"""

import math

from .. import backend, ops
from ..backend import SymbolicTensor
from .input_spec import InputSpec
from .layer import Layer


class Flatten(Layer):
    """Flattens every axis but the batch axis: `(N, a, b)` -> `(N, a*b)`.

    Args:
        data_format: `"channels_first"` inputs are moved to channels-last
            first, so weights stay interchangeable with Keras.
    """

    def __init__(self, data_format=None, **kwargs):
        super().__init__(**kwargs)
        self.data_format = data_format or backend.image_data_format()

    def call(self, inputs):
        if self.data_format == "channels_first" and inputs.ndim > 2:
            axes = (0,) + tuple(range(2, inputs.ndim)) + (1,)
            inputs = backend.apply("transpose", inputs, axes=axes)
        features = inputs.shape[1:]
        if any(d is None for d in features):
            if isinstance(inputs, SymbolicTensor):
                return SymbolicTensor((inputs.shape[0], None), inputs.dtype)
        size = math.prod(features)
        return backend.apply("reshape", inputs, shape=(-1, size))

    def get_config(self):
        config = super().get_config()
        config["data_format"] = self.data_format
        return config


class Reshape(Layer):
    """Reshapes the non-batch axes to `target_shape` (one entry may be -1)."""

    def __init__(self, target_shape, **kwargs):
        super().__init__(**kwargs)
        self.target_shape = tuple(int(d) for d in target_shape)
        if sum(d == -1 for d in self.target_shape) > 1:
            raise ValueError(
                f"Only one dimension of target_shape can be -1. "
                f"Received: target_shape={self.target_shape}"
            )

    def _resolve(self, input_shape):
        features = input_shape[1:]
        if -1 not in self.target_shape or any(d is None for d in features):
            return self.target_shape
        known = math.prod(d for d in self.target_shape if d != -1)
        total = math.prod(features)
        if known == 0 or total % known:
            raise ValueError(
                f"Cannot reshape input of shape {(None,) + tuple(features)} to "
                f"{self.target_shape} in layer '{self.name}'. Received: "
                f"target_shape={self.target_shape}"
            )
        return tuple(total // known if d == -1 else d for d in self.target_shape)

    def call(self, inputs):
        target = self._resolve(inputs.shape)
        features = inputs.shape[1:]
        if None not in features and math.prod(features) != math.prod(target):
            raise ValueError(
                f"Layer '{self.name}' cannot reshape input of shape {(None,) + tuple(features)} "
                f"to {(None,) + target}: the sizes differ. Received: target_shape="
                f"{self.target_shape}"
            )
        if isinstance(inputs, SymbolicTensor):
            return SymbolicTensor((inputs.shape[0],) + target, inputs.dtype)
        return backend.apply("reshape", inputs, shape=(inputs.shape[0],) + target)

    def get_config(self):
        config = super().get_config()
        config["target_shape"] = list(self.target_shape)
        return config



class Permute(Layer):
    """Permutes the non-batch axes: `dims` is a permutation of `1..rank-1`.

    Args:
        dims: e.g. `(2, 1)` swaps the two axes of `(N, a, b)` inputs.

    >>> import numpy as np
    >>> Permute((2, 1))(np.zeros((4, 3, 5))).shape
    (4, 5, 3)
    """

    def __init__(self, dims, **kwargs):
        super().__init__(**kwargs)
        self.dims = tuple(int(d) for d in dims)
        if sorted(self.dims) != list(range(1, len(self.dims) + 1)):
            raise ValueError(
                "Permute expects `dims` to be a permutation of 1, ..., n (the batch axis 0 "
                f"stays in place). Received: dims={dims}"
            )
        self.input_spec = InputSpec(ndim=len(self.dims) + 1)

    def call(self, inputs):
        return ops.transpose(inputs, (0,) + self.dims)

    def get_config(self):
        config = super().get_config()
        config["dims"] = self.dims
        return config


class RepeatVector(Layer):
    """Repeats `(N, features)` inputs `n` times: `(N, n, features)`.

    >>> import numpy as np
    >>> RepeatVector(3)(np.zeros((2, 4))).shape
    (2, 3, 4)
    """

    def __init__(self, n, **kwargs):
        super().__init__(**kwargs)
        if not isinstance(n, int) or isinstance(n, bool) or n < 1:
            raise TypeError(f"RepeatVector expects a positive integer `n`. Received: n={n!r}")
        self.n = n
        self.input_spec = InputSpec(ndim=2)

    def call(self, inputs):
        return ops.repeat(ops.expand_dims(inputs, 1), self.n, axis=1)

    def get_config(self):
        config = super().get_config()
        config["n"] = self.n
        return config


def _data_format(value):
    value = value or backend.image_data_format()
    if value not in ("channels_last", "channels_first"):
        raise ValueError("data_format must be 'channels_last' or 'channels_first'. "
                         f"Received: data_format={value!r}")
    return value


def _spatial_axes(data_format, rank):
    """The spatial axes of inputs with `rank` spatial dimensions."""
    first = 1 if data_format == "channels_last" else 2
    return tuple(range(first, first + rank))


def _int_tuple(value, rank, argument, layer):
    """An int, or `rank` ints, as a tuple of `rank` positive ints."""
    values = (value,) * rank if isinstance(value, int) else tuple(value)
    if len(values) != rank or not all(isinstance(v, int) and v >= 1 for v in values):
        raise ValueError(f"{layer} expects `{argument}` to be a positive int or {rank} "
                         f"positive ints. Received: {argument}={value!r}")
    return values


def _pairs(value, rank, argument, layer):
    """Amounts before/after each of `rank` axes, from Keras's accepted forms:

    an int (everywhere); for 1D a pair `(before, after)`; for 2D and 3D
    `rank` entries, each an int (symmetric on that axis) or a pair.
    """
    def is_int(v):
        return isinstance(v, int) and not isinstance(v, bool) and v >= 0

    if is_int(value):
        return ((value, value),) * rank
    entries = tuple(tuple(v) if isinstance(v, (list, tuple)) else v
                    for v in (value if isinstance(value, (list, tuple)) else (value,)))
    if rank == 1 and len(entries) == 2 and all(map(is_int, entries)):
        return (entries,)
    pairs = tuple((v, v) if is_int(v) else v for v in entries)
    if len(pairs) == rank and all(isinstance(p, tuple) and len(p) == 2
                                  and all(map(is_int, p)) for p in pairs):
        return pairs
    raise ValueError(f"{layer} got an invalid `{argument}`: expected non-negative ints in "
                     f"one of Keras's forms. Received: {argument}={value!r}")


def _scaled(dim, factor):
    return None if dim is None else dim * factor


def _upsample_nearest(inputs, axes, sizes):
    """`inputs` with each entry repeated `sizes[i]` times along `axes[i]`."""
    for axis, factor in zip(axes, sizes):
        inputs = ops.repeat(inputs, factor, axis=axis)
    return inputs


def _pad(inputs, axes, pairs):
    """`inputs` with `pairs[i]` zeros added before/after along `axes[i]`."""
    widths = [(0, 0)] * len(inputs.shape)
    for axis, pair in zip(axes, pairs):
        widths[axis] = pair
    return ops.pad(inputs, widths)


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
        return backend.apply("resize_bilinear", inputs, size=size, axes=axes)

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


class ZeroPadding1D(Layer):
    """Pads the steps axis of `(N, steps, F)` inputs with zeros.

    Args:
        padding: an int (both sides) or `(before, after)`.
        data_format: `"channels_last"` (default, `(N, steps, F)`) or
            `"channels_first"` (`(N, F, steps)`), as in Keras 3.

    >>> import numpy as np
    >>> ZeroPadding1D((1, 2))(np.ones((1, 2, 1))).ravel().tolist()
    [0.0, 1.0, 1.0, 0.0, 0.0]
    """

    def __init__(self, padding=1, data_format=None, **kwargs):
        super().__init__(**kwargs)
        self.padding = _pairs(padding, 1, "padding", "ZeroPadding1D")[0]
        self.data_format = _data_format(data_format)
        self.input_spec = InputSpec(ndim=3)

    def call(self, inputs):
        return _pad(inputs, _spatial_axes(self.data_format, 1), (self.padding,))

    def get_config(self):
        config = super().get_config()
        config["padding"] = self.padding
        if self.data_format == "channels_first":  # Keras 2 has no such argument
            config["data_format"] = self.data_format
        return config


class _ZeroPadding(Layer):
    """Zero padding of the `rank` spatial axes of `(batch, *spatial, channels)`
    (or channels-first) inputs; the base of `ZeroPadding2D` and `ZeroPadding3D`."""

    rank = None

    def __init__(self, padding, data_format=None, **kwargs):
        super().__init__(**kwargs)
        self.padding = _pairs(padding, self.rank, "padding", type(self).__name__)
        self.data_format = _data_format(data_format)
        self.input_spec = InputSpec(ndim=self.rank + 2)

    def call(self, inputs):
        return _pad(inputs, _spatial_axes(self.data_format, self.rank), self.padding)

    def get_config(self):
        config = super().get_config()
        config.update({"padding": self.padding, "data_format": self.data_format})
        return config


class ZeroPadding2D(_ZeroPadding):
    """Pads the height and width of images with zeros.

    Args:
        padding: an int (everywhere), two ints (symmetric height and width
            padding) or `((top, bottom), (left, right))`.
        data_format: `"channels_last"` (default) or `"channels_first"`.

    >>> import numpy as np
    >>> ZeroPadding2D(((1, 0), (2, 2)))(np.ones((1, 3, 3, 1))).shape
    (1, 4, 7, 1)
    """

    rank = 2

    def __init__(self, padding=(1, 1), data_format=None, **kwargs):
        super().__init__(padding, data_format, **kwargs)


class ZeroPadding3D(_ZeroPadding):
    """Pads the depth, height and width of volumes with zeros.

    Args:
        padding: an int (everywhere), three ints (symmetric per axis) or
            `((front, back), (top, bottom), (left, right))`.
        data_format: `"channels_last"` (default) or `"channels_first"`.

    >>> import numpy as np
    >>> ZeroPadding3D((0, 1, 2))(np.ones((1, 2, 2, 2, 1))).shape
    (1, 2, 4, 6, 1)
    """

    rank = 3

    def __init__(self, padding=((1, 1), (1, 1), (1, 1)), data_format=None, **kwargs):
        super().__init__(padding, data_format, **kwargs)


def _crop(layer, inputs, axes, cropping):
    """`inputs` with `cropping[i]` entries cut from both ends of `axes[i]`."""
    key = [slice(None)] * len(inputs.shape)
    for axis, (before, after) in zip(axes, cropping):
        size = inputs.shape[axis]
        if size is not None and before + after >= size:
            raise ValueError(
                f"Layer '{layer.name}' ({type(layer).__name__}) would crop {before + after} "
                f"entries from axis {axis} of size {size}, leaving nothing. "
                f"Received: cropping={layer.cropping}, input shape "
                f"{(None,) + tuple(inputs.shape[1:])}"
            )
        key[axis] = slice(before, -after if after else None)
    return backend.apply("getitem", inputs, key=tuple(key))


class Cropping1D(Layer):
    """Crops the steps axis of `(N, steps, F)` inputs.

    Args:
        cropping: an int (both ends) or `(start, end)`.

    >>> import numpy as np
    >>> Cropping1D((1, 2))(np.arange(5.0).reshape(1, 5, 1)).ravel().tolist()
    [1.0, 2.0]
    """

    def __init__(self, cropping=(1, 1), **kwargs):
        super().__init__(**kwargs)
        self.cropping = _pairs(cropping, 1, "cropping", "Cropping1D")[0]
        self.input_spec = InputSpec(ndim=3)

    def call(self, inputs):
        return _crop(self, inputs, (1,), (self.cropping,))

    def get_config(self):
        config = super().get_config()
        config["cropping"] = self.cropping
        return config


class _Cropping(Layer):
    """Cropping of the `rank` spatial axes of `(batch, *spatial, channels)` (or
    channels-first) inputs; the base of `Cropping2D` and `Cropping3D`."""

    rank = None

    def __init__(self, cropping, data_format=None, **kwargs):
        super().__init__(**kwargs)
        self.cropping = _pairs(cropping, self.rank, "cropping", type(self).__name__)
        self.data_format = _data_format(data_format)
        self.input_spec = InputSpec(ndim=self.rank + 2)

    def call(self, inputs):
        return _crop(self, inputs, _spatial_axes(self.data_format, self.rank), self.cropping)

    def get_config(self):
        config = super().get_config()
        config.update({"cropping": self.cropping, "data_format": self.data_format})
        return config


class Cropping2D(_Cropping):
    """Crops the height and width of images.

    Args:
        cropping: an int (everywhere), two ints (symmetric height and width
            cropping) or `((top, bottom), (left, right))`.
        data_format: `"channels_last"` (default) or `"channels_first"`.

    >>> import numpy as np
    >>> Cropping2D(((1, 0), (1, 1)))(np.zeros((1, 4, 5, 3))).shape
    (1, 3, 3, 3)
    """

    rank = 2

    def __init__(self, cropping=((0, 0), (0, 0)), data_format=None, **kwargs):
        super().__init__(cropping, data_format, **kwargs)


class Cropping3D(_Cropping):
    """Crops the depth, height and width of volumes.

    Args:
        cropping: an int (everywhere), three ints (symmetric per axis) or
            `((front, back), (top, bottom), (left, right))`.
        data_format: `"channels_last"` (default) or `"channels_first"`.

    >>> import numpy as np
    >>> Cropping3D((0, 1, (2, 1)))(np.zeros((1, 4, 5, 6, 2))).shape
    (1, 4, 3, 3, 2)
    """

    rank = 3

    def __init__(self, cropping=((1, 1), (1, 1), (1, 1)), data_format=None, **kwargs):
        super().__init__(cropping, data_format, **kwargs)


__all__ = ["Cropping1D", "Cropping2D", "Cropping3D", "Flatten", "Permute", "RepeatVector",
           "Reshape", "UpSampling1D", "UpSampling2D", "UpSampling3D", "ZeroPadding1D",
           "ZeroPadding2D", "ZeroPadding3D"]
