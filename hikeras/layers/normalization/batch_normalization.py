"""BatchNormalization: batch statistics in training, moving averages at inference."""

import numpy as np

from ... import initializers, ops
from ...backend import SymbolicTensor
from ...ops import kernels
from ..input_spec import InputSpec
from .base_normalization import (
    _AffineNormalization,
    _known_dim,
    _positive_axes,
    _weight_broadcast_shape,
)

__all__ = ["BatchNormalization"]


# Keras 2 options that change the numerics and that hikeras does not implement.
_UNSUPPORTED_BN_OPTIONS = ("renorm", "renorm_clipping", "virtual_batch_size", "adjustment")


class BatchNormalization(_AffineNormalization):
    """Normalises each feature with batch statistics in training, moving ones otherwise.

    In training mode (`fit`, or `training=True`) the output is
    `gamma * (x - mean(x)) / sqrt(var(x) + epsilon) + beta` with the batch's
    mean and biased variance per feature, and the moving statistics are
    updated in place: `moving = moving * momentum + batch * (1 - momentum)`.
    Otherwise the moving mean and variance replace the batch's.

    A layer with `trainable=False` always runs in inference mode, so its four
    weights stay fixed through `fit` (the Keras >= 2.1 behaviour that transfer
    learning relies on).

    Args:
        axis: the feature axis (`1` after a `channels_first` convolution).
        momentum: momentum of the moving averages.
        epsilon: added to the variance.
        center / scale: whether to learn the offset `beta` / the scale `gamma`.
        beta_initializer, gamma_initializer, moving_mean_initializer,
            moving_variance_initializer: initial values.
        beta_regularizer, gamma_regularizer, beta_constraint, gamma_constraint.
        synchronized: accepted for Keras compatibility; the numpy backend
            trains in one process, so the batch statistics are already global.

    >>> import numpy as np
    >>> layer = BatchNormalization()
    >>> x = np.array([[1.0], [3.0]], "float32")
    >>> np.round(layer(x, training=True), 3).ravel().tolist()
    [-1.0, 1.0]
    >>> round(float(layer.moving_mean.numpy()[0]), 4)  # 0.99 * 0 + 0.01 * 2
    0.02
    """

    def __init__(self, axis=-1, momentum=0.99, epsilon=1e-3, center=True, scale=True,
                 beta_initializer="zeros", gamma_initializer="ones",
                 moving_mean_initializer="zeros", moving_variance_initializer="ones",
                 beta_regularizer=None, gamma_regularizer=None, beta_constraint=None,
                 gamma_constraint=None, synchronized=False, **kwargs):
        for option in _UNSUPPORTED_BN_OPTIONS:
            if kwargs.pop(option, None):
                raise ValueError(f"BatchNormalization does not support `{option}`. "
                                 f"Received: {option}=True")
        kwargs.pop("fused", None)  # Keras 2: an implementation detail
        kwargs.pop("renorm_momentum", None)
        super().__init__(center=center, scale=scale, beta_initializer=beta_initializer,
                         gamma_initializer=gamma_initializer,
                         beta_regularizer=beta_regularizer, gamma_regularizer=gamma_regularizer,
                         beta_constraint=beta_constraint, gamma_constraint=gamma_constraint,
                         **kwargs)
        if isinstance(axis, (list, tuple)) and len(axis) == 1:  # Keras 2 configs
            axis = axis[0]
        if not isinstance(axis, (int, np.integer)) or isinstance(axis, bool):
            raise TypeError(f"BatchNormalization expects an integer `axis`. Received: axis={axis!r}")
        self.axis = int(axis)
        self.momentum = float(momentum)
        self.epsilon = float(epsilon)
        self.synchronized = bool(synchronized)
        self.moving_mean_initializer = initializers.get(moving_mean_initializer)
        self.moving_variance_initializer = initializers.get(moving_variance_initializer)

    def build(self, input_shape):
        ndim = len(input_shape)
        axis = _positive_axes(self, self.axis, ndim)[0]
        shape = (_known_dim(self, input_shape, axis),)
        self._add_affine_weights(shape, gamma=self.scale, beta=self.center)
        self.moving_mean = self.add_weight(
            shape=shape, name="moving_mean", initializer=self.moving_mean_initializer,
            trainable=False, autocast=False)
        self.moving_variance = self.add_weight(
            shape=shape, name="moving_variance", initializer=self.moving_variance_initializer,
            trainable=False, autocast=False)
        # A feature axis other than the last needs the per-feature vectors reshaped.
        self._broadcast_shape = _weight_broadcast_shape(input_shape, (axis,))
        self.input_spec = InputSpec(ndim=ndim, axes={self.axis: shape[0]})
        super().build(input_shape)

    def call(self, inputs, training=None):
        return self._in_compute_dtype(self._normalize(self._in_float32(inputs), training))

    def _normalize(self, inputs, training):
        if training and self.trainable:
            outputs, mean, variance = kernels.batch_norm(inputs, self.gamma, self.beta,
                                                         axis=self.axis, epsilon=self.epsilon)
            self._update_moving_statistics(mean, variance)
            return outputs
        # Inference: x * a + b with a = gamma / sqrt(var + eps), b = beta - mean * a.
        multiplier = ops.rsqrt(ops.add(self.moving_variance, self.epsilon))
        if self.scale:
            multiplier = ops.multiply(multiplier, self.gamma)
        offset = ops.negative(ops.multiply(self.moving_mean, multiplier))
        if self.center:
            offset = ops.add(offset, self.beta)
        if self._broadcast_shape is not None:
            multiplier = ops.reshape(multiplier, self._broadcast_shape)
            offset = ops.reshape(offset, self._broadcast_shape)
        return ops.add(ops.multiply(inputs, multiplier), offset)

    def _update_moving_statistics(self, mean, variance):
        # Plain numpy arithmetic on the values: never recorded by a tape.
        keep, take = self.momentum, 1.0 - self.momentum
        for moving, batch in ((self.moving_mean, mean), (self.moving_variance, variance)):
            batch = ops.convert_to_numpy(batch).astype(moving.dtype, copy=False)
            moving.assign(moving.value * keep + batch * take)

    def compute_output_spec(self, inputs, training=None):
        return SymbolicTensor(inputs.shape, inputs.dtype)

    def get_config(self):
        config = super().get_config()
        config.update({
            "axis": self.axis,
            "momentum": self.momentum,
            "epsilon": self.epsilon,
            "moving_mean_initializer": initializers.serialize(self.moving_mean_initializer),
            "moving_variance_initializer": initializers.serialize(
                self.moving_variance_initializer),
            "synchronized": self.synchronized,
        })
        return config
