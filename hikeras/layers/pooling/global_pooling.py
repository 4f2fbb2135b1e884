"""Global pooling: the max or mean over every spatial position, per channel."""

from ... import ops
from ..convolutional.arguments import standardize_data_format
from ..input_spec import InputSpec
from ..layer import Layer


class BaseGlobalPooling(Layer):
    """Reduces the spatial axes of `(batch, *spatial, channels)` inputs.

    Args:
        rank: number of spatial dimensions.
        data_format: `"channels_last"` (default) or `"channels_first"`.
        keepdims: keep the spatial axes with length 1 (default False:
            the output is `(batch, channels)`).
    """

    _reduce = None  # ops.max or ops.mean, as a staticmethod

    def __init__(self, rank, data_format=None, keepdims=False, **kwargs):
        super().__init__(**kwargs)
        self.rank = rank
        self.data_format = standardize_data_format(data_format)
        self.keepdims = bool(keepdims)
        self.input_spec = InputSpec(ndim=rank + 2)

    def _spatial_axes(self):
        first = 1 if self.data_format == "channels_last" else 2
        return tuple(range(first, first + self.rank))

    def call(self, inputs):
        return self._reduce(inputs, axis=self._spatial_axes(), keepdims=self.keepdims)

    def get_config(self):
        config = super().get_config()
        config.update({"data_format": self.data_format, "keepdims": self.keepdims})
        return config


class GlobalMaxPooling1D(BaseGlobalPooling):
    """Max over the steps of `(batch, steps, channels)` inputs.

    >>> import numpy as np
    >>> x = np.array([[[1.0, 5.0], [3.0, 2.0]]], "float32")
    >>> GlobalMaxPooling1D()(x).tolist()
    [[3.0, 5.0]]
    """

    _reduce = staticmethod(ops.max)

    def __init__(self, data_format=None, keepdims=False, **kwargs):
        super().__init__(1, data_format, keepdims, **kwargs)


class GlobalMaxPooling2D(BaseGlobalPooling):
    """Max over height and width.

    >>> import numpy as np
    >>> GlobalMaxPooling2D(keepdims=True)(np.ones((2, 4, 4, 3), "float32")).shape
    (2, 1, 1, 3)
    """

    _reduce = staticmethod(ops.max)

    def __init__(self, data_format=None, keepdims=False, **kwargs):
        super().__init__(2, data_format, keepdims, **kwargs)


class GlobalMaxPooling3D(BaseGlobalPooling):
    """Max over depth, height and width.

    >>> import numpy as np
    >>> GlobalMaxPooling3D()(np.ones((2, 3, 4, 4, 3), "float32")).shape
    (2, 3)
    """

    _reduce = staticmethod(ops.max)

    def __init__(self, data_format=None, keepdims=False, **kwargs):
        super().__init__(3, data_format, keepdims, **kwargs)


class GlobalAveragePooling1D(BaseGlobalPooling):
    """Mean over the steps of `(batch, steps, channels)` inputs.

    With a `mask` of shape `(batch, steps)` (passed to the call, or coming
    from an `Embedding(mask_zero=True)` or `Masking` layer), only the
    unmasked steps are averaged.

    >>> import numpy as np
    >>> x = np.array([[[1.0], [3.0], [100.0]]], "float32")
    >>> GlobalAveragePooling1D()(x, mask=np.array([[True, True, False]])).tolist()
    [[2.0]]
    """

    _reduce = staticmethod(ops.mean)

    def __init__(self, data_format=None, keepdims=False, **kwargs):
        super().__init__(1, data_format, keepdims, **kwargs)
        self.supports_masking = True

    def call(self, inputs, mask=None):
        if mask is None:
            return super().call(inputs)
        steps_axis = self._spatial_axes()[0]
        keep = ops.expand_dims(ops.cast(mask, "bool"),
                               2 if self.data_format == "channels_last" else 1)
        total = ops.sum(ops.where(keep, inputs, 0.0), axis=steps_axis, keepdims=self.keepdims)
        count = ops.sum(ops.cast(keep, inputs.dtype), axis=steps_axis, keepdims=self.keepdims)
        return ops.divide(total, count)

    def compute_mask(self, inputs, mask=None):
        """The steps are pooled away, so no mask goes further."""
        return None


class GlobalAveragePooling2D(BaseGlobalPooling):
    """Mean over height and width.

    >>> import numpy as np
    >>> GlobalAveragePooling2D()(np.ones((2, 4, 4, 3), "float32")).shape
    (2, 3)
    """

    _reduce = staticmethod(ops.mean)

    def __init__(self, data_format=None, keepdims=False, **kwargs):
        super().__init__(2, data_format, keepdims, **kwargs)


class GlobalAveragePooling3D(BaseGlobalPooling):
    """Mean over depth, height and width.

    >>> import numpy as np
    >>> GlobalAveragePooling3D(data_format="channels_first")(np.ones((2, 3, 4, 4, 5),
    ...                                                          "float32")).shape
    (2, 3)
    """

    _reduce = staticmethod(ops.mean)

    def __init__(self, data_format=None, keepdims=False, **kwargs):
        super().__init__(3, data_format, keepdims, **kwargs)

GlobalMaxPool1D = GlobalMaxPooling1D
GlobalMaxPool2D = GlobalMaxPooling2D
GlobalMaxPool3D = GlobalMaxPooling3D
GlobalAvgPool1D = GlobalAveragePooling1D
GlobalAvgPool2D = GlobalAveragePooling2D
GlobalAvgPool3D = GlobalAveragePooling3D

__all__ = ["GlobalMaxPooling1D", "GlobalMaxPooling2D", "GlobalMaxPooling3D", "GlobalAveragePooling1D", "GlobalAveragePooling2D", "GlobalAveragePooling3D", "GlobalMaxPool1D", "GlobalMaxPool2D", "GlobalMaxPool3D", "GlobalAvgPool1D", "GlobalAvgPool2D", "GlobalAvgPool3D"]
