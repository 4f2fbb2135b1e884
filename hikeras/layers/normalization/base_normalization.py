"""What the learned-scale normalisations share: the axis argument, gamma/beta weights
and float32 statistics under mixed precision."""

from ... import ops
from ..layer import Layer
from ..weight_options import parse_weight_options, serialize_weight_options


class _AffineNormalization(Layer):
    """Shared `gamma`/`beta` handling: arguments, weights and config."""

    def __init__(self, center=True, scale=True, beta_initializer="zeros",
                 gamma_initializer="ones", beta_regularizer=None, gamma_regularizer=None,
                 beta_constraint=None, gamma_constraint=None, **kwargs):
        super().__init__(**kwargs)
        self.supports_masking = True  # passes the input's mask on, as Keras
        self.center = bool(center)
        self.scale = bool(scale)
        parse_weight_options(self, ("beta", "gamma"), locals(), activity_regularizer=None)
        self.gamma = self.beta = None

    def _add_affine_weights(self, shape, gamma=True, beta=True):
        # Never autocast: the statistics are computed in float32 (`_in_float32`).
        if gamma:
            self.gamma = self.add_weight(
                shape=shape, name="gamma", initializer=self.gamma_initializer,
                regularizer=self.gamma_regularizer, constraint=self.gamma_constraint,
                autocast=False)
        if beta:
            self.beta = self.add_weight(
                shape=shape, name="beta", initializer=self.beta_initializer,
                regularizer=self.beta_regularizer, constraint=self.beta_constraint,
                autocast=False)

    @staticmethod
    def _in_float32(inputs):
        """Half precision inputs as float32: their mean and variance overflow or lose
        precision in float16 (Keras normalises in float32 too)."""
        if inputs.dtype.name in ("float16", "bfloat16"):
            return ops.cast(inputs, "float32")
        return inputs

    def _in_compute_dtype(self, outputs):
        """Under a mixed policy, the float32 outputs back in the compute dtype."""
        if self._dtype_policy is None or outputs.dtype.name == self.compute_dtype:
            return outputs
        return ops.cast(outputs, self.compute_dtype)

    def get_config(self):
        config = super().get_config()
        config.update({
            "center": self.center,
            "scale": self.scale,
            **serialize_weight_options(self, ("beta", "gamma"), activity_regularizer=None),
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
