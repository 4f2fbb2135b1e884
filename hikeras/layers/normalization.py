"""Normalisation layers: batch, layer, group, unit and RMS normalisation.

Batch normalisation in training mode and layer/group normalisation run as one
fused backend op each (`batch_norm`, `layer_norm`) with a hand-written
gradient; inference-mode batch normalisation is an affine map `x * a + b`
whose two per-feature vectors are computed from the moving statistics.
"""

import numpy as np

from .. import constraints, initializers, ops, regularizers
from ..backend import SymbolicTensor, apply
from .input_spec import InputSpec
from .layer import Layer


class _AffineNormalization(Layer):
    """Shared `gamma`/`beta` handling: arguments, weights and config."""

    def __init__(self, center=True, scale=True, beta_initializer="zeros",
                 gamma_initializer="ones", beta_regularizer=None, gamma_regularizer=None,
                 beta_constraint=None, gamma_constraint=None, **kwargs):
        super().__init__(**kwargs)
        self.supports_masking = True  # passes the input's mask on, as Keras
        self.center = bool(center)
        self.scale = bool(scale)
        self.beta_initializer = initializers.get(beta_initializer)
        self.gamma_initializer = initializers.get(gamma_initializer)
        self.beta_regularizer = regularizers.get(beta_regularizer)
        self.gamma_regularizer = regularizers.get(gamma_regularizer)
        self.beta_constraint = constraints.get(beta_constraint)
        self.gamma_constraint = constraints.get(gamma_constraint)
        self.gamma = self.beta = None

    def _add_affine_weights(self, shape, gamma=True, beta=True):
        if gamma:
            self.gamma = self.add_weight(
                shape=shape, name="gamma", initializer=self.gamma_initializer,
                regularizer=self.gamma_regularizer, constraint=self.gamma_constraint)
        if beta:
            self.beta = self.add_weight(
                shape=shape, name="beta", initializer=self.beta_initializer,
                regularizer=self.beta_regularizer, constraint=self.beta_constraint)

    def get_config(self):
        config = super().get_config()
        config.update({
            "center": self.center,
            "scale": self.scale,
            "beta_initializer": initializers.serialize(self.beta_initializer),
            "gamma_initializer": initializers.serialize(self.gamma_initializer),
            "beta_regularizer": regularizers.serialize(self.beta_regularizer),
            "gamma_regularizer": regularizers.serialize(self.gamma_regularizer),
            "beta_constraint": constraints.serialize(self.beta_constraint),
            "gamma_constraint": constraints.serialize(self.gamma_constraint),
        })
        return config


def _axis_argument(layer_name, axis):
    """An int, or a list of ints, as Keras stores `axis`."""
    if isinstance(axis, (list, tuple)) and all(isinstance(a, int) for a in axis):
        return list(axis)
    if isinstance(axis, int) and not isinstance(axis, bool):
        return axis
    raise TypeError(f"{layer_name} expects `axis` to be an int or a list of ints. "
                    f"Received: axis={axis!r}")


def _known_dim(layer, input_shape, axis):
    dim = input_shape[axis]
    if dim is None:
        raise ValueError(
            f"Axis {axis} of the input to layer '{layer.name}' ({type(layer).__name__}) "
            f"must have a known size. Received: input_shape={tuple(input_shape)}"
        )
    return dim


def _weight_broadcast_shape(input_shape, axes):
    """The shape a weight spanning `axes` (positive) is reshaped to, to broadcast
    against the input; None when `axes` is just the last axis (no reshape needed)."""
    ndim = len(input_shape)
    if tuple(axes) == (ndim - 1,):
        return None
    return tuple(input_shape[a] if a in axes else 1 for a in range(ndim))


def _positive_axes(layer, axis, ndim):
    axes = axis if isinstance(axis, list) else [axis]
    for a in axes:
        if not -ndim <= a < ndim:
            raise ValueError(
                f"Layer '{layer.name}' ({type(layer).__name__}) got axis {a}, out of range "
                f"for inputs of rank {ndim}. Received: axis={axis}"
            )
    return [a % ndim for a in axes]


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
            trainable=False)
        self.moving_variance = self.add_weight(
            shape=shape, name="moving_variance", initializer=self.moving_variance_initializer,
            trainable=False)
        # A feature axis other than the last needs the per-feature vectors reshaped.
        self._broadcast_shape = _weight_broadcast_shape(input_shape, (axis,))
        self.input_spec = InputSpec(ndim=ndim, axes={self.axis: shape[0]})
        super().build(input_shape)

    def call(self, inputs, training=None):
        if training and self.trainable:
            outputs, mean, variance = apply("batch_norm", inputs, self.gamma, self.beta,
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
        if self.rms_scaling:
            variance = ops.var(inputs, axis=self._axes, keepdims=True)
            inverse = ops.rsqrt(ops.add(variance, self.epsilon))
            return ops.multiply(ops.multiply(inputs, inverse), self._broadcast(self.gamma))
        return apply("layer_norm", inputs, self._broadcast(self.gamma),
                     self._broadcast(self.beta), axis=self._axes, epsilon=self.epsilon)

    def get_config(self):
        config = super().get_config()
        config.update({"axis": self.axis, "epsilon": self.epsilon,
                       "rms_scaling": self.rms_scaling})
        return config


class GroupNormalization(_AffineNormalization):
    """Normalises each sample over groups of channels (Wu & He, 2018).

    The channels on `axis` are split into `groups` consecutive groups; each
    group of each sample is normalised over its channels and all non-batch
    axes together, then scaled and shifted per channel.

    Args:
        groups: number of groups; must divide the channel count. `-1` means
            one group per channel (instance normalisation).
        axis: the channel axis.
        epsilon, center, scale, and the initializers, regularizers and
            constraints of `beta` and `gamma`, as in `LayerNormalization`.

    >>> import numpy as np
    >>> GroupNormalization(groups=2)(np.ones((1, 5, 4), "float32")).shape
    (1, 5, 4)
    """

    def __init__(self, groups=32, axis=-1, epsilon=1e-3, center=True, scale=True, **kwargs):
        super().__init__(center=center, scale=scale, **kwargs)
        if not isinstance(groups, int) or isinstance(groups, bool) or not (
                groups > 0 or groups == -1):
            raise ValueError(f"groups must be a positive integer or -1. Received: groups={groups!r}")
        if not isinstance(axis, int) or isinstance(axis, bool):
            raise TypeError(f"GroupNormalization expects an integer `axis`. Received: axis={axis!r}")
        self.groups = groups
        self.axis = axis
        self.epsilon = float(epsilon)

    def build(self, input_shape):
        ndim = len(input_shape)
        axis = _positive_axes(self, self.axis, ndim)[0]
        channels = _known_dim(self, input_shape, axis)
        if self.groups == -1:
            self.groups = channels
        if channels < self.groups or channels % self.groups:
            raise ValueError(
                f"Layer '{self.name}' (GroupNormalization) needs the number of groups to divide "
                f"the {channels} channels of axis {self.axis}. Received: groups={self.groups}"
            )
        self._add_affine_weights((channels,), gamma=self.scale, beta=self.center)
        # Channels c split as (group, c mod size); statistics over every
        # non-batch axis of the grouped tensor except the group axis.
        self._axis = axis
        self._group_size = channels // self.groups
        self._reduction_axes = tuple(a for a in range(1, ndim + 1) if a != axis)
        self._weight_shape = tuple([1] * axis + [self.groups, self._group_size]
                                   + [1] * (ndim - axis - 1))
        self.input_spec = InputSpec(ndim=ndim, axes={self.axis: channels})
        super().build(input_shape)

    def call(self, inputs):
        shape = inputs.shape
        grouped = (-1,) + shape[1:self._axis] + (self.groups, self._group_size) \
            + shape[self._axis + 1:]
        gamma = None if self.gamma is None else ops.reshape(self.gamma, self._weight_shape)
        beta = None if self.beta is None else ops.reshape(self.beta, self._weight_shape)
        outputs = apply("layer_norm", ops.reshape(inputs, grouped), gamma, beta,
                        axis=self._reduction_axes, epsilon=self.epsilon)
        return ops.reshape(outputs, (-1,) + shape[1:])

    def compute_output_spec(self, inputs):
        return SymbolicTensor(inputs.shape, inputs.dtype)

    def get_config(self):
        config = super().get_config()
        config.update({"groups": self.groups, "axis": self.axis, "epsilon": self.epsilon})
        return config


class UnitNormalization(Layer):
    """Scales each sample to unit L2 norm over `axis`: `x / max(||x||, 1e-6)`.

    Args:
        axis: an int or a list of ints.

    >>> import numpy as np
    >>> UnitNormalization()(np.array([[3.0, 4.0]], "float32")).tolist()
    [[0.6000000238418579, 0.800000011920929]]
    """

    def __init__(self, axis=-1, **kwargs):
        super().__init__(**kwargs)
        self.supports_masking = True  # passes the input's mask on, as Keras
        self.axis = _axis_argument("UnitNormalization", axis)

    def call(self, inputs):
        axis = tuple(self.axis) if isinstance(self.axis, list) else self.axis
        square_sum = ops.sum(ops.square(inputs), axis=axis, keepdims=True)
        return ops.multiply(inputs, ops.rsqrt(ops.maximum(square_sum, 1e-12)))

    def get_config(self):
        config = super().get_config()
        config["axis"] = self.axis
        return config


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


__all__ = ["BatchNormalization", "GroupNormalization", "LayerNormalization",
           "RMSNormalization", "UnitNormalization"]
