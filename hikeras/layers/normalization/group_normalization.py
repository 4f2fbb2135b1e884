"""GroupNormalization: statistics over groups of channels."""

from ... import ops
from ...backend import SymbolicTensor
from ...ops import kernels
from ..input_spec import InputSpec
from .base_normalization import _AffineNormalization, _known_dim, _positive_axes

__all__ = ["GroupNormalization"]


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
        self.autocast = False  # as Keras: float32 statistics, see `_in_float32`
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
        return self._in_compute_dtype(self._normalize(self._in_float32(inputs)))

    def _normalize(self, inputs):
        shape = inputs.shape
        grouped = (-1,) + shape[1:self._axis] + (self.groups, self._group_size) \
            + shape[self._axis + 1:]
        gamma = None if self.gamma is None else ops.reshape(self.gamma, self._weight_shape)
        beta = None if self.beta is None else ops.reshape(self.beta, self._weight_shape)
        outputs = kernels.layer_norm(ops.reshape(inputs, grouped), gamma, beta,
                                     axis=self._reduction_axes, epsilon=self.epsilon)
        return ops.reshape(outputs, (-1,) + shape[1:])

    def compute_output_spec(self, inputs):
        return SymbolicTensor(inputs.shape, self._in_compute_dtype(inputs).dtype)

    def get_config(self):
        config = super().get_config()
        config.update({"groups": self.groups, "axis": self.axis, "epsilon": self.epsilon})
        return config
