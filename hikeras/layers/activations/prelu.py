"""PReLU: a leaky ReLU with a learned slope."""

from ... import ops
from ..input_spec import InputSpec
from ..layer import Layer
from ..weight_options import parse_weight_options, serialize_weight_options

__all__ = ["PReLU"]


class PReLU(Layer):
    """Leaky ReLU whose negative slope `alpha` is learned, per input position.

    `f(x) = x` for `x > 0`, else `alpha * x`, with `alpha` of the input's
    shape without the batch axis, or of size 1 along `shared_axes`.

    Args:
        alpha_initializer: initial slopes (default zeros: a ReLU).
        alpha_regularizer, alpha_constraint: for the `alpha` weight.
        shared_axes: axes (1-based, the batch axis being 0) along which one
            slope is shared, e.g. `[1, 2]` for one slope per channel of
            NHWC images.

    >>> import numpy as np
    >>> layer = PReLU(alpha_initializer="ones")
    >>> layer(np.array([[-2.0, 3.0]], "float32")).tolist()
    [[-2.0, 3.0]]
    >>> layer.alpha.shape
    (2,)
    """

    def __init__(self, alpha_initializer="zeros", alpha_regularizer=None,
                 alpha_constraint=None, shared_axes=None, **kwargs):
        super().__init__(**kwargs)
        self.supports_masking = True  # passes the input's mask on, as Keras
        parse_weight_options(self, ("alpha",), locals(), activity_regularizer=None)
        if shared_axes is None:
            self.shared_axes = None
        elif isinstance(shared_axes, (list, tuple)):
            self.shared_axes = [int(a) for a in shared_axes]
        else:
            self.shared_axes = [int(shared_axes)]

    def build(self, input_shape):
        shape = list(input_shape[1:])
        for axis in self.shared_axes or ():
            if not 1 <= axis < len(input_shape):
                raise ValueError(
                    f"Layer '{self.name}' (PReLU) got shared axis {axis}, outside the non-batch "
                    f"axes of inputs of shape {tuple(input_shape)}. "
                    f"Received: shared_axes={self.shared_axes}"
                )
            shape[axis - 1] = 1
        if None in shape:
            raise ValueError(
                f"Layer '{self.name}' (PReLU) needs known sizes on the axes it does not share. "
                f"Received: input_shape={tuple(input_shape)}, shared_axes={self.shared_axes}"
            )
        self.alpha = self.add_weight(shape=shape, name="alpha",
                                     initializer=self.alpha_initializer,
                                     regularizer=self.alpha_regularizer,
                                     constraint=self.alpha_constraint)
        shared = set(self.shared_axes or ())
        self.input_spec = InputSpec(ndim=len(input_shape), axes={
            i: input_shape[i] for i in range(1, len(input_shape)) if i not in shared})
        super().build(input_shape)

    def call(self, inputs):
        # relu(x) - alpha * relu(-x), as Keras computes it.
        negative = ops.multiply(self.alpha, ops.relu(ops.negative(inputs)))
        return ops.subtract(ops.relu(inputs), negative)

    def get_config(self):
        config = super().get_config()
        config.update({
            **serialize_weight_options(self, ("alpha",), activity_regularizer=None),
            "shared_axes": self.shared_axes,
        })
        return config
