"""LayerNormalization: statistics over each sample's feature axes."""

from ... import ops
from ...ops import kernels
from .base_normalization import (
    _AffineNormalization,
    _axis_argument,
    _known_dim,
    _positive_axes,
    _weight_broadcast_shape,
)

__all__ = ["LayerNormalization"]


class LayerNormalization(_AffineNormalization):
    """Normalises each sample over `axis` (by default its features).

    `y = gamma * (x - mean) / sqrt(var + epsilon) + beta`, the statistics taken
    over `axis` separately for every position of the other axes; `gamma` and
    `beta` span the `axis` dimensions.

    Args:
        axis: an int or a list of ints.
        epsilon: added to the variance.
        center / scale: whether to learn `beta` / `gamma`.
        rms_scaling: scale by `gamma / sqrt(var + epsilon)` without centring
            (Keras's formula, which uses the variance, not the mean square);
            `center` and `scale` are then ignored.
        beta_initializer, gamma_initializer, beta_regularizer,
            gamma_regularizer, beta_constraint, gamma_constraint.

    >>> import numpy as np
    >>> LayerNormalization(epsilon=0.0)(np.array([[1.0, 3.0]], "float32")).tolist()
    [[-1.0, 1.0]]
    """

    def __init__(self, axis=-1, epsilon=1e-3, center=True, scale=True, rms_scaling=False,
                 **kwargs):
        super().__init__(center=center, scale=scale, **kwargs)
        self.axis = _axis_argument("LayerNormalization", axis)
        self.epsilon = float(epsilon)
        self.rms_scaling = bool(rms_scaling)
        self.autocast = False  # as Keras: inputs and weights keep their dtype (float32 math)

    def build(self, input_shape):
        ndim = len(input_shape)
        self._axes = tuple(_positive_axes(self, self.axis, ndim))
        given = self.axis if isinstance(self.axis, list) else [self.axis]
        shape = tuple(_known_dim(self, input_shape, a) for a in given)
        self._add_affine_weights(shape, gamma=self.scale or self.rms_scaling,
                                 beta=self.center and not self.rms_scaling)
        # Weights span `axis` in the order given; Keras reshapes (not
        # transposes) them to broadcast, unless `axis` is just the last one.
        self._broadcast_shape = _weight_broadcast_shape(input_shape, self._axes)
        super().build(input_shape)

    def _broadcast(self, weight):
        if weight is None or self._broadcast_shape is None:
            return weight
        return ops.reshape(weight, self._broadcast_shape)

    def call(self, inputs):
        return self._in_compute_dtype(self._normalize(self._in_float32(inputs)))

    def _normalize(self, inputs):
        if self.rms_scaling:
            variance = ops.var(inputs, axis=self._axes, keepdims=True)
            inverse = ops.rsqrt(ops.add(variance, self.epsilon))
            return ops.multiply(ops.multiply(inputs, inverse), self._broadcast(self.gamma))
        return kernels.layer_norm(inputs, self._broadcast(self.gamma),
                                  self._broadcast(self.beta), axis=self._axes,
                                  epsilon=self.epsilon)

    def get_config(self):
        config = super().get_config()
        config.update({"axis": self.axis, "epsilon": self.epsilon,
                       "rms_scaling": self.rms_scaling})
        return config
