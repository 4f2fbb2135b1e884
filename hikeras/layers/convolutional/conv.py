"""Conv1D/2D/3D: plain convolutions over channels-last or channels-first inputs.

Keras's alternative names (`Convolution2D`, ...) are the same classes.
"""

from ..lora import LoraMixin, lora_adapted
from .base_conv import BaseConv


class _LoraConv(LoraMixin, BaseConv):
    """`BaseConv` with Keras's LoRA options (`lora_rank`, `lora_alpha`, `enable_lora`).

    Only the plain convolutions take them in Keras; the transposed, depthwise
    and separable ones do not.
    """

    kernel = lora_adapted("kernel")

    def __init__(self, *args, lora_rank=None, lora_alpha=None, **kwargs):
        super().__init__(*args, **kwargs)
        self._init_lora(lora_rank, lora_alpha)

    def build(self, input_shape):
        super().build(input_shape)
        self._build_lora()

    def get_config(self):
        return {**super().get_config(), **self._lora_config()}


class Conv1D(_LoraConv):
    """1-D convolution over `(batch, steps, channels)` inputs.

    Takes `BaseConv`'s arguments; `padding="causal"` pads only the start, so
    output step `t` sees input steps up to `t` (for temporal models).

    >>> import numpy as np
    >>> Conv1D(4, 3, padding="causal")(np.ones((2, 10, 3), "float32")).shape
    (2, 10, 4)
    """

    def __init__(self, filters, kernel_size, strides=1, padding="valid", data_format=None,
                 dilation_rate=1, groups=1, activation=None, use_bias=True, **kwargs):
        super().__init__(1, filters, kernel_size, strides=strides, padding=padding,
                         data_format=data_format, dilation_rate=dilation_rate, groups=groups,
                         activation=activation, use_bias=use_bias, **kwargs)


class Conv2D(_LoraConv):
    """2-D convolution over `(batch, height, width, channels)` inputs.

    Takes `BaseConv`'s arguments; the kernel is `(kh, kw, in_channels //
    groups, filters)` (HWIO), as in Keras.

    >>> import numpy as np
    >>> layer = Conv2D(8, 3, strides=2, padding="same", activation="relu")
    >>> layer(np.ones((2, 28, 28, 1), "float32")).shape
    (2, 14, 14, 8)
    >>> layer.kernel.shape
    (3, 3, 1, 8)
    """

    def __init__(self, filters, kernel_size, strides=(1, 1), padding="valid", data_format=None,
                 dilation_rate=(1, 1), groups=1, activation=None, use_bias=True, **kwargs):
        super().__init__(2, filters, kernel_size, strides=strides, padding=padding,
                         data_format=data_format, dilation_rate=dilation_rate, groups=groups,
                         activation=activation, use_bias=use_bias, **kwargs)


class Conv3D(_LoraConv):
    """3-D convolution over `(batch, depth, height, width, channels)` inputs.

    Takes `BaseConv`'s arguments.

    >>> import numpy as np
    >>> Conv3D(2, (1, 3, 3))(np.ones((1, 4, 5, 5, 1), "float32")).shape
    (1, 4, 3, 3, 2)
    """

    def __init__(self, filters, kernel_size, strides=(1, 1, 1), padding="valid",
                 data_format=None, dilation_rate=(1, 1, 1), groups=1, activation=None,
                 use_bias=True, **kwargs):
        super().__init__(3, filters, kernel_size, strides=strides, padding=padding,
                         data_format=data_format, dilation_rate=dilation_rate, groups=groups,
                         activation=activation, use_bias=use_bias, **kwargs)


Convolution1D = Conv1D
Convolution2D = Conv2D
Convolution3D = Conv3D

__all__ = ["Conv1D", "Conv2D", "Conv3D", "Convolution1D", "Convolution2D", "Convolution3D"]
