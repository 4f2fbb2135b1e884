"""Transposed convolutions: Conv1DTranspose, Conv2DTranspose, Conv3DTranspose."""

from ...ops import kernels
from .arguments import standardize_tuple
from .base_conv import BaseConv, reject_groups


class BaseConvTranspose(BaseConv):
    """An N-D transposed convolution (the gradient of a convolution w.r.t. its input).

    It maps each input position to a `kernel_size` window of the output, so
    with `strides` s the output is about s times longer: `length * s` for
    "same", `length * s + max(kernel - s, 0)` for "valid"; `output_padding`
    (smaller than the strides) picks the length when several are possible.
    The kernel has Keras's layout `(*kernel_size, filters, in_channels)`.

    Args:
        rank: number of spatial dimensions.
        filters: number of output channels.
        kernel_size, strides, dilation_rate: ints or tuples of `rank` ints.
        padding: `"valid"` or `"same"`.
        output_padding: None, or an int / tuple of `rank` ints below `strides`.
        data_format: `"channels_last"` (default) or `"channels_first"`.
        activation, use_bias, kernel_initializer, bias_initializer,
        kernel_regularizer, bias_regularizer, activity_regularizer,
        kernel_constraint, bias_constraint: as for `BaseConv`.
    """

    _op = staticmethod(kernels.conv_transpose)

    def __init__(self, rank, filters, kernel_size, strides=1, padding="valid",
                 output_padding=None, data_format=None, dilation_rate=1, activation=None,
                 use_bias=True, **kwargs):
        reject_groups(self, kwargs)
        if isinstance(padding, str) and padding.lower() == "causal":
            raise ValueError(f"{type(self).__name__} does not support causal padding. "
                             f"Received: padding={padding!r}")
        super().__init__(rank, filters, kernel_size, strides=strides, padding=padding,
                         data_format=data_format, dilation_rate=dilation_rate,
                         activation=activation, use_bias=use_bias, **kwargs)
        self.output_padding = None
        if output_padding is not None:
            self.output_padding = standardize_tuple(output_padding, rank, "output_padding",
                                                    allow_zero=True)
            if any(p >= s for p, s in zip(self.output_padding, self.strides)):
                raise ValueError(
                    "`output_padding` must be smaller than `strides`. Received: "
                    f"output_padding={self.output_padding}, strides={self.strides}")

    def _conv_attrs(self):
        return dict(super()._conv_attrs(), output_padding=self.output_padding)

    def _kernel_shape(self, input_shape, channels):
        return self.kernel_size + (self.filters, channels)

    def get_config(self):
        config = super().get_config()
        del config["groups"]
        config["output_padding"] = self.output_padding
        return config


class Conv1DTranspose(BaseConvTranspose):
    """1-D transposed convolution; takes `BaseConvTranspose`'s arguments.

    >>> import numpy as np
    >>> Conv1DTranspose(2, 3, strides=2)(np.ones((1, 5, 4), "float32")).shape
    (1, 11, 2)
    """

    def __init__(self, filters, kernel_size, strides=1, padding="valid", output_padding=None,
                 data_format=None, dilation_rate=1, activation=None, use_bias=True, **kwargs):
        super().__init__(1, filters, kernel_size, strides=strides, padding=padding,
                         output_padding=output_padding, data_format=data_format,
                         dilation_rate=dilation_rate, activation=activation, use_bias=use_bias,
                         **kwargs)


class Conv2DTranspose(BaseConvTranspose):
    """2-D transposed convolution; takes `BaseConvTranspose`'s arguments.

    >>> import numpy as np
    >>> layer = Conv2DTranspose(3, 3, strides=2, padding="same")
    >>> layer(np.ones((1, 7, 7, 8), "float32")).shape
    (1, 14, 14, 3)
    >>> layer.kernel.shape
    (3, 3, 3, 8)
    """

    def __init__(self, filters, kernel_size, strides=(1, 1), padding="valid",
                 output_padding=None, data_format=None, dilation_rate=(1, 1), activation=None,
                 use_bias=True, **kwargs):
        super().__init__(2, filters, kernel_size, strides=strides, padding=padding,
                         output_padding=output_padding, data_format=data_format,
                         dilation_rate=dilation_rate, activation=activation, use_bias=use_bias,
                         **kwargs)


class Conv3DTranspose(BaseConvTranspose):
    """3-D transposed convolution; takes `BaseConvTranspose`'s arguments.

    >>> import numpy as np
    >>> Conv3DTranspose(1, 2, strides=2)(np.ones((1, 2, 3, 4, 2), "float32")).shape
    (1, 4, 6, 8, 1)
    """

    def __init__(self, filters, kernel_size, strides=(1, 1, 1), padding="valid",
                 output_padding=None, data_format=None, dilation_rate=(1, 1, 1),
                 activation=None, use_bias=True, **kwargs):
        super().__init__(3, filters, kernel_size, strides=strides, padding=padding,
                         output_padding=output_padding, data_format=data_format,
                         dilation_rate=dilation_rate, activation=activation, use_bias=use_bias,
                         **kwargs)

Convolution1DTranspose = Conv1DTranspose
Convolution2DTranspose = Conv2DTranspose
Convolution3DTranspose = Conv3DTranspose

__all__ = ["Conv1DTranspose", "Conv2DTranspose", "Conv3DTranspose", "Convolution1DTranspose", "Convolution2DTranspose", "Convolution3DTranspose"]
