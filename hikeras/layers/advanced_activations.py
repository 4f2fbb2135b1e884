"""Activation layers with arguments or weights: `ReLU`, `LeakyReLU`, `PReLU`,
`ELU` and `Softmax`."""

from .. import constraints, initializers, ops, regularizers
from .input_spec import InputSpec
from .layer import Layer


def _non_negative(layer_name, argument, value, allow_none=False):
    if value is None and allow_none:
        return None
    if value is None or isinstance(value, bool) or not value >= 0:
        raise ValueError(f"{argument} of a {layer_name} layer must be a non-negative number. "
                         f"Received: {argument}={value!r}")
    return float(value)


class ReLU(Layer):
    """Rectified linear unit with Keras's options.

    `f(x) = max_value` for `x >= max_value`, `x` for `threshold < x <
    max_value`, and `negative_slope * (x - threshold)` otherwise.

    Args:
        max_value: upper bound of the output (None: unbounded); >= 0.
        negative_slope: slope below the threshold; >= 0.
        threshold: below it, values are damped; >= 0.

    >>> import numpy as np
    >>> ReLU(max_value=2.0)(np.array([-1.0, 1.0, 3.0])).tolist()
    [0.0, 1.0, 2.0]
    """

    def __init__(self, max_value=None, negative_slope=0.0, threshold=0.0, **kwargs):
        super().__init__(**kwargs)
        self.supports_masking = True  # passes the input's mask on, as Keras
        self.max_value = _non_negative("ReLU", "max_value", max_value, allow_none=True)
        self.negative_slope = _non_negative("ReLU", "negative_slope", negative_slope)
        self.threshold = _non_negative("ReLU", "threshold", threshold)

    def call(self, inputs):
        return ops.relu(inputs, negative_slope=self.negative_slope, max_value=self.max_value,
                        threshold=self.threshold)

    def get_config(self):
        config = super().get_config()
        config.update({"max_value": self.max_value, "negative_slope": self.negative_slope,
                       "threshold": self.threshold})
        return config


class LeakyReLU(Layer):
    """`x` for `x > 0`, else `negative_slope * x`.

    Args:
        negative_slope: slope for negative inputs (Keras 3's default 0.3);
            Keras 2's name `alpha` is accepted too.

    >>> import numpy as np
    >>> LeakyReLU(negative_slope=0.5)(np.array([-2.0, 3.0])).tolist()
    [-1.0, 3.0]
    """

    def __init__(self, negative_slope=0.3, **kwargs):
        if "alpha" in kwargs:
            negative_slope = kwargs.pop("alpha")
        super().__init__(**kwargs)
        self.supports_masking = True  # passes the input's mask on, as Keras
        self.negative_slope = _non_negative("LeakyReLU", "negative_slope", negative_slope)

    def call(self, inputs):
        return ops.leaky_relu(inputs, negative_slope=self.negative_slope)

    def get_config(self):
        config = super().get_config()
        config["negative_slope"] = self.negative_slope
        return config


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
        self.alpha_initializer = initializers.get(alpha_initializer)
        self.alpha_regularizer = regularizers.get(alpha_regularizer)
        self.alpha_constraint = constraints.get(alpha_constraint)
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
            "alpha_initializer": initializers.serialize(self.alpha_initializer),
            "alpha_regularizer": regularizers.serialize(self.alpha_regularizer),
            "alpha_constraint": constraints.serialize(self.alpha_constraint),
            "shared_axes": self.shared_axes,
        })
        return config


class ELU(Layer):
    """Exponential linear unit: `x` for `x > 0`, else `alpha * (exp(x) - 1)`.

    Args:
        alpha: the negative saturation value is `-alpha`.

    >>> import numpy as np
    >>> ELU()(np.array([0.0, 2.0])).tolist()
    [0.0, 2.0]
    """

    def __init__(self, alpha=1.0, **kwargs):
        super().__init__(**kwargs)
        self.supports_masking = True  # passes the input's mask on, as Keras
        self.alpha = float(alpha)

    def call(self, inputs):
        return ops.elu(inputs, alpha=self.alpha)

    def get_config(self):
        config = super().get_config()
        config["alpha"] = self.alpha
        return config


class Softmax(Layer):
    """Softmax over `axis`, optionally ignoring masked-out entries.

    Args:
        axis: an int, or a list of ints to normalise over several axes.

    Call arguments:
        inputs: the logits.
        mask: optional boolean tensor broadcastable to `inputs`; entries
            where it is False get a logit of `-1e9` (so ~0 probability).

    >>> import numpy as np
    >>> out = Softmax()(np.array([[0.0, 0.0, 5.0]]), mask=np.array([[True, True, False]]))
    >>> np.round(out, 3).tolist()
    [[0.5, 0.5, 0.0]]
    """

    def __init__(self, axis=-1, **kwargs):
        super().__init__(**kwargs)
        self.axis = list(axis) if isinstance(axis, (list, tuple)) else int(axis)

    def call(self, inputs, mask=None):
        if mask is not None:
            keep = ops.cast(mask, inputs.dtype)
            inputs = ops.add(inputs, ops.multiply(ops.subtract(1.0, keep), -1e9))
        axis = tuple(self.axis) if isinstance(self.axis, list) else self.axis
        return ops.softmax(inputs, axis=axis)

    def get_config(self):
        config = super().get_config()
        config["axis"] = self.axis
        return config


__all__ = ["ELU", "LeakyReLU", "PReLU", "ReLU", "Softmax"]
