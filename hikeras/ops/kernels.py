"""The backend kernels that `keras.ops` has no function for, called by name once, here.

Layers, losses, metrics and the trainer never pass an op name as a string:
what Keras has they call through `hikeras.ops`, and the fused or
layer-specific kernels (dense + bias + activation, convolution, the
recurrent sequence ops, batch and layer normalisation, attention, dropout,
image resampling, ...) through the functions below. Each is named as the op
it runs and takes that kernel's arguments, and its docstring names the
module of `backend/numpy_backend/` where `@define("<name>", ...)` registers
the kernel with its gradient and shape rule.

These are internal: their arguments follow the kernels (channels-last
layouts, fused activations given by name), not Keras's public signatures,
and they may change with the kernels. A backend needs nothing from this
module; it registers kernels under the same names.

>>> import numpy as np
>>> x, kernel = np.ones((2, 3), "float32"), np.ones((3, 4), "float32")
>>> dense(x, kernel, np.ones(4, "float32"), activation="relu").tolist()[0]
[4.0, 4.0, 4.0, 4.0]
"""

from .. import backend

_apply = backend.apply


# --- fused products: backend/numpy_backend/linalg.py, conv.py ---------------------------------

def dense(x, kernel, bias=None, *, activation="linear"):
    """`activation(x @ kernel + bias)` in one pass (`bias` may be None).

    Kernel: `dense` in `backend/numpy_backend/linalg.py`.
    """
    if bias is None:
        return _apply("dense", x, kernel, activation=activation)
    return _apply("dense", x, kernel, bias, activation=activation)


def conv(x, kernel, bias=None, *, strides=1, padding="valid", dilation_rate=1,
         activation="linear"):
    """`activation(conv(x, kernel) + bias)`, channels-last, lowered to GEMM.

    Kernel: `conv` in `backend/numpy_backend/conv.py`.
    """
    if bias is None:
        return _apply("conv", x, kernel, strides=strides, padding=padding,
                      dilation_rate=dilation_rate, activation=activation)
    return _apply("conv", x, kernel, bias, strides=strides, padding=padding,
                  dilation_rate=dilation_rate, activation=activation)


def conv_transpose(x, kernel, bias=None, *, strides=1, padding="valid",
                   output_padding=None, dilation_rate=1, activation="linear"):
    """The transposed convolution plus bias and activation, channels-last.

    Kernel: `conv_transpose` in `backend/numpy_backend/conv.py`.
    """
    if bias is None:
        return _apply("conv_transpose", x, kernel, strides=strides, padding=padding,
                      output_padding=output_padding, dilation_rate=dilation_rate,
                      activation=activation)
    return _apply("conv_transpose", x, kernel, bias, strides=strides, padding=padding,
                  output_padding=output_padding, dilation_rate=dilation_rate,
                  activation=activation)


# --- pooling: backend/numpy_backend/pooling.py ------------------------------------------------

def max_pool(x, pool_size, strides=None, padding="valid"):
    """Maximum over each window of channels-last `x`.

    Kernel: `max_pool` in `backend/numpy_backend/pooling.py`.
    """
    return _apply("max_pool", x, pool_size=pool_size, strides=strides, padding=padding)


def avg_pool(x, pool_size, strides=None, padding="valid"):
    """Mean over each window's real elements of channels-last `x`.

    Kernel: `avg_pool` in `backend/numpy_backend/pooling.py`.
    """
    return _apply("avg_pool", x, pool_size=pool_size, strides=strides, padding=padding)


# --- normalisation: backend/numpy_backend/normalization.py ------------------------------------

def batch_norm(x, gamma, beta, axis=-1, epsilon=1e-3):
    """`(y, mean, variance)`: `x` normalised with its batch statistics.

    Kernel: `batch_norm` in `backend/numpy_backend/normalization.py`.
    """
    return _apply("batch_norm", x, gamma, beta, axis=axis, epsilon=epsilon)


def layer_norm(x, gamma, beta, axis=-1, epsilon=1e-3):
    """`x` normalised over `axis` at each position of the other axes, then scaled and shifted.

    Kernel: `layer_norm` in `backend/numpy_backend/normalization.py`.
    """
    return _apply("layer_norm", x, gamma, beta, axis=axis, epsilon=epsilon)


# --- recurrent sequences: backend/numpy_backend/recurrent_*.py --------------------------------

def simple_rnn_sequence(x, h0, kernel, recurrent_kernel, bias=None, mask=None,
                        recurrent_mask=None, *, go_backwards=False, return_sequences=True,
                        zero_output_for_mask=False, activation="tanh"):
    """A whole simple-RNN sequence, `(outputs, h_T)`.

    Kernel: `simple_rnn_sequence` in `backend/numpy_backend/recurrent_simple.py`.
    """
    return _apply("simple_rnn_sequence", x, h0, kernel, recurrent_kernel, bias, mask,
                  recurrent_mask, go_backwards=go_backwards, return_sequences=return_sequences,
                  zero_output_for_mask=zero_output_for_mask, activation=activation)


def lstm_sequence(x, h0, c0, kernel, recurrent_kernel, bias=None, mask=None,
                  recurrent_mask=None, *, go_backwards=False, return_sequences=True,
                  zero_output_for_mask=False, activation="tanh",
                  recurrent_activation="sigmoid"):
    """A whole LSTM sequence, `(outputs, h_T, c_T)`.

    Kernel: `lstm_sequence` in `backend/numpy_backend/recurrent_lstm.py`.
    """
    return _apply("lstm_sequence", x, h0, c0, kernel, recurrent_kernel, bias, mask,
                  recurrent_mask, go_backwards=go_backwards, return_sequences=return_sequences,
                  zero_output_for_mask=zero_output_for_mask, activation=activation,
                  recurrent_activation=recurrent_activation)


def gru_sequence(x, h0, kernel, recurrent_kernel, bias=None, mask=None, recurrent_mask=None,
                 *, reset_after=True, go_backwards=False, return_sequences=True,
                 zero_output_for_mask=False, activation="tanh", recurrent_activation="sigmoid"):
    """A whole GRU sequence, `(outputs, h_T)`.

    Kernel: `gru_sequence` in `backend/numpy_backend/recurrent_gru.py`.
    """
    return _apply("gru_sequence", x, h0, kernel, recurrent_kernel, bias, mask, recurrent_mask,
                  reset_after=reset_after, go_backwards=go_backwards,
                  return_sequences=return_sequences, zero_output_for_mask=zero_output_for_mask,
                  activation=activation, recurrent_activation=recurrent_activation)


# --- attention and dropout: backend/numpy_backend/attention.py, random_ops.py -----------------

def dot_product_attention(query, key, value, mask=None, scale=None, is_causal=False,
                          dropout=0.0, rng=None, return_scores=False):
    """`(softmax(scale * q k^T, masked) @ v,)`, plus the probabilities if `return_scores`.

    Kernel: `dot_product_attention` in `backend/numpy_backend/attention.py`.
    """
    return _apply("dot_product_attention", query, key, value, mask=mask, scale=scale,
                  is_causal=is_causal, dropout=dropout, rng=rng, return_scores=return_scores)


def dropout(x, rate, rng=None, noise_shape=None):
    """`x` with entries zeroed at `rate` and the rest scaled by `1 / (1 - rate)`.

    Kernel: `dropout` in `backend/numpy_backend/random_ops.py`.
    """
    return _apply("dropout", x, rate=rate, rng=rng, noise_shape=noise_shape)


# --- indexing: backend/numpy_backend/indexing.py, embedding.py --------------------------------

def getitem(x, key):
    """`x[key]` for basic and advanced numpy keys.

    Kernel: `getitem` in `backend/numpy_backend/indexing.py`.
    """
    return _apply("getitem", x, key=key)


def gather_rows(table, indices):
    """`table[indices]`, whose gradient scatter-adds rows.

    Kernel: `gather_rows` in `backend/numpy_backend/embedding.py`.
    """
    return _apply("gather_rows", table, indices)


# --- image resampling: backend/numpy_backend/resize.py, affine.py -----------------------------

def resize_bilinear(x, size, axes=(1, 2)):
    """`x`'s `axes` resized to `size` by linear interpolation.

    Kernel: `resize_bilinear` in `backend/numpy_backend/resize.py`.
    """
    return _apply("resize_bilinear", x, size=size, axes=axes)


def resize_nearest(x, size, axes=(1, 2)):
    """`x`'s `axes` resized to `size` by copying the nearest input entry.

    Kernel: `resize_nearest` in `backend/numpy_backend/resize.py`.
    """
    return _apply("resize_nearest", x, size=size, axes=axes)


def affine_transform(images, transform, interpolation="bilinear", fill_mode="constant",
                     fill_value=0.0, axes=(1, 2)):
    """Each image resampled through its projective `transform`.

    Kernel: `affine_transform` in `backend/numpy_backend/affine.py`.
    """
    return _apply("affine_transform", images, transform, interpolation=interpolation,
                  fill_mode=fill_mode, fill_value=fill_value, axes=axes)


__all__ = [
    "affine_transform", "avg_pool", "batch_norm", "conv", "conv_transpose", "dense", "dropout",
    "dot_product_attention", "gather_rows", "getitem", "gru_sequence", "layer_norm",
    "lstm_sequence", "max_pool", "resize_bilinear", "resize_nearest", "simple_rnn_sequence",
]
