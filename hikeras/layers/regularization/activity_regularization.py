"""ActivityRegularization: adds L1/L2 penalties on its inputs to the loss."""

from ... import regularizers
from ..layer import Layer

__all__ = ["ActivityRegularization"]


class ActivityRegularization(Layer):
    """The identity, adding `l1 * sum(|x|) + l2 * sum(x**2)` of its input to the losses.

    Like any layer's `activity_regularizer`, the penalty is divided by the
    batch size (as Keras 3) and reaches the training loss through
    `model.losses`.

    Args:
        l1, l2: non-negative factors.

    >>> import numpy as np
    >>> layer = ActivityRegularization(l1=0.5)
    >>> _ = layer(np.array([[1.0, -3.0], [0.0, 2.0]], "float32"))
    >>> [float(loss) for loss in layer.losses]  # 0.5 * 6 / 2 samples
    [1.5]
    """

    def __init__(self, l1=0.0, l2=0.0, **kwargs):
        super().__init__(**kwargs)
        self.supports_masking = True  # passes the input's mask on, as Keras
        try:
            self.activity_regularizer = regularizers.L1L2(l1=l1, l2=l2)
        except ValueError as error:
            raise ValueError(f"ActivityRegularization got an invalid factor. {error}") from None
        self.l1 = self.activity_regularizer.l1
        self.l2 = self.activity_regularizer.l2

    def get_config(self):
        config = super().get_config()
        config.update({"l1": self.l1, "l2": self.l2})
        return config
