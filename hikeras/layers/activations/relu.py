"""ReLU layer, with max_value, negative_slope and threshold."""

from ... import ops
from ..layer import Layer

__all__ = ["ReLU"]


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
