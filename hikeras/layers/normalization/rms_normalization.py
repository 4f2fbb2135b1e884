"""RMSNormalization: scales by the root mean square, with no centring."""

from ... import ops
from ..layer import Layer
from .base_normalization import (
    _axis_argument,
    _known_dim,
    _positive_axes,
    _weight_broadcast_shape,
)

__all__ = ["RMSNormalization"]


class RMSNormalization(Layer):
    """Divides each sample by its root mean square over `axis`, then scales it.

    `y = x / sqrt(mean(x**2) + epsilon) * scale` (Zhang & Sennrich, 2019),
    the mean taken over `axis` separately for every position of the other
    axes. Unlike `LayerNormalization(rms_scaling=True)` it does not subtract
    the mean. The one weight, `scale`, spans the `axis` dimensions (in
    increasing axis order, as Keras) and starts at ones.

    Args:
        axis: an int or a list of ints.
        epsilon: added to the mean square.

    >>> import numpy as np
    >>> x = np.array([[1.0, 7.0]], "float32")  # root mean square 5
    >>> np.round(RMSNormalization()(x).astype("float64"), 4).tolist()
    [[0.2, 1.4]]
    """

    def __init__(self, axis=-1, epsilon=1e-6, **kwargs):
        super().__init__(**kwargs)
        self.axis = _axis_argument("RMSNormalization", axis)
        self.epsilon = float(epsilon)

    def build(self, input_shape):
        self._axes = tuple(sorted(_positive_axes(self, self.axis, len(input_shape))))
        shape = tuple(_known_dim(self, input_shape, a) for a in self._axes)
        self.scale = self.add_weight(shape=shape, name="scale", initializer="ones")
        self._broadcast_shape = _weight_broadcast_shape(input_shape, self._axes)
        super().build(input_shape)

    def call(self, inputs):
        mean_square = ops.mean(ops.square(inputs), axis=self._axes, keepdims=True)
        normalized = ops.multiply(inputs, ops.rsqrt(ops.add(mean_square, self.epsilon)))
        scale = self.scale
        if self._broadcast_shape is not None:
            scale = ops.reshape(scale, self._broadcast_shape)
        return ops.multiply(normalized, scale)

    def get_config(self):
        config = super().get_config()
        config.update({"axis": self.axis, "epsilon": self.epsilon})
        return config
