"""MobileNet (Howard et al., 2017), as `keras.applications.mobilenet`."""

import warnings

from .. import backend
from ..layers import (Activation, BatchNormalization, Conv2D, DepthwiseConv2D, Dropout,
                      GlobalAveragePooling2D, ReLU, Reshape, ZeroPadding2D)
from . import imagenet_utils
from ._common import (channel_axis, check_arguments, describe, finish_model, image_input,
                      is_imagenet, pooled_features, spatial_size)
from ._weights import published_weights

__all__ = ["MobileNet", "decode_predictions", "preprocess_input"]

_SIZES = (128, 160, 192, 224)  # input sizes Keras publishes weights for
_ALPHAS = {1.0: "1_0", 0.75: "7_5", 0.5: "5_0", 0.25: "2_5"}


def MobileNet(input_shape=None, alpha=1.0, depth_multiplier=1, dropout=1e-3, include_top=True,
              weights="imagenet", input_tensor=None, pooling=None, classes=1000,
              classifier_activation="softmax", name=None):
    """Instantiates the MobileNet architecture.

    Args:
        input_shape: optional shape tuple (3 channels, at least 32x32); with
            `include_top=True` and ImageNet weights, `(224, 224, 3)`.
        alpha: width multiplier: `< 1` thins every layer, `> 1` widens it.
            Keras publishes weights for 0.25, 0.5, 0.75 and 1.0.
        depth_multiplier: channel multiplier of the depthwise convolutions
            (1 with ImageNet weights).
        dropout: dropout rate before the classifier.
        include_top: whether to include the classifier.
        weights: `None`, `"imagenet"` (Keras's published file, from the Keras
            cache; see docs/applications.md) or the path of a weights file.
        input_tensor: optional symbolic tensor to use as the image input.
        pooling: with `include_top=False`: `None` (4D output), `"avg"` or `"max"`.
        classes: number of classes, only without `"imagenet"` weights.
        classifier_activation: activation of the top layer (`None` for logits).
        name: the model's name (default `mobilenet_<alpha>_<rows>`).

    Returns:
        A functional `Model`.

    >>> model = MobileNet(weights=None, alpha=0.25, include_top=False, input_shape=(32, 32, 3))
    >>> model.outputs[0].shape
    (None, 1, 1, 256)
    """
    check_arguments(weights, include_top, classes, pooling)
    default_size = 224
    if input_shape is not None:
        rows, cols = spatial_size(input_shape)
        if rows == cols and rows in _SIZES:
            default_size = rows
    input_shape = imagenet_utils.obtain_input_shape(
        input_shape, default_size=default_size, min_size=32,
        data_format=backend.image_data_format(), require_flatten=include_top, weights=weights)
    rows, cols = spatial_size(input_shape)
    if is_imagenet(weights):
        if depth_multiplier != 1:
            raise ValueError("If imagenet weights are being loaded, depth multiplier must be 1. "
                             f"Received: depth_multiplier={depth_multiplier}")
        if alpha not in _ALPHAS:
            raise ValueError("If imagenet weights are being loaded, alpha can be one of `0.25`, "
                             f"`0.50`, `0.75` or `1.0` only. Received: alpha={alpha}")
        if rows != cols or rows not in _SIZES:
            rows = 224
            warnings.warn("`input_shape` is undefined or non-square, or `rows` is not in "
                          "[128, 160, 192, 224]. Weights for input shape (224, 224) will be "
                          "loaded as the default.", stacklevel=2)
    img_input = image_input(input_tensor, input_shape)

    x = _conv_block(img_input, 32, alpha, strides=(2, 2))
    for block_id, (filters, stride) in enumerate(
            [(64, 1), (128, 2), (128, 1), (256, 2), (256, 1), (512, 2)] + [(512, 1)] * 5
            + [(1024, 2), (1024, 1)], 1):
        x = _depthwise_conv_block(x, filters, alpha, depth_multiplier,
                                  strides=(stride, stride), block_id=block_id)

    if include_top:
        x = GlobalAveragePooling2D(keepdims=True)(x)
        x = Dropout(dropout, name="dropout")(x)
        x = Conv2D(classes, (1, 1), padding="same", name="conv_preds")(x)
        x = Reshape((classes,), name="reshape_2")(x)
        imagenet_utils.validate_activation(classifier_activation, weights)
        x = Activation(activation=classifier_activation, name="predictions")(x)
    else:
        x = pooled_features(x, pooling)

    if name is None:
        name = f"mobilenet_{alpha:0.2f}_{rows}"
    published = None
    if is_imagenet(weights):
        top = "" if include_top else "_no_top"
        published = published_weights("mobilenet",
                                      f"mobilenet_{_ALPHAS[alpha]}_{rows}_tf{top}.h5")
    return finish_model(img_input, input_tensor, x, name, weights, published,
                        describe("MobileNet", alpha=alpha, depth_multiplier=depth_multiplier,
                                 include_top=include_top))


def _conv_block(inputs, filters, alpha, kernel=(3, 3), strides=(1, 1)):
    """The first convolution, batch norm and ReLU6."""
    x = Conv2D(int(filters * alpha), kernel, padding="same", use_bias=False, strides=strides,
               name="conv1")(inputs)
    x = BatchNormalization(axis=_bn_axis(), name="conv1_bn")(x)
    return ReLU(6.0, name="conv1_relu")(x)


def _depthwise_conv_block(inputs, pointwise_conv_filters, alpha, depth_multiplier=1,
                          strides=(1, 1), block_id=1):
    """Depthwise 3x3 (padded like TF's 'same' when strided), pointwise 1x1, each BN + ReLU6."""
    if strides == (1, 1):
        x = inputs
    else:
        x = ZeroPadding2D(((0, 1), (0, 1)), name=f"conv_pad_{block_id}")(inputs)
    x = DepthwiseConv2D((3, 3), padding="same" if strides == (1, 1) else "valid",
                        depth_multiplier=depth_multiplier, strides=strides, use_bias=False,
                        name=f"conv_dw_{block_id}")(x)
    x = BatchNormalization(axis=_bn_axis(), name=f"conv_dw_{block_id}_bn")(x)
    x = ReLU(6.0, name=f"conv_dw_{block_id}_relu")(x)
    x = Conv2D(int(pointwise_conv_filters * alpha), (1, 1), padding="same", use_bias=False,
               strides=(1, 1), name=f"conv_pw_{block_id}")(x)
    x = BatchNormalization(axis=_bn_axis(), name=f"conv_pw_{block_id}_bn")(x)
    return ReLU(6.0, name=f"conv_pw_{block_id}_relu")(x)


def _bn_axis():
    return -1 if channel_axis() == 3 else 1


def preprocess_input(x, data_format=None):
    """TF-style preprocessing: scale pixels to [-1, 1]."""
    return imagenet_utils.preprocess_input(x, data_format=data_format, mode="tf")


def decode_predictions(preds, top=5):
    """See `imagenet_utils.decode_predictions`."""
    return imagenet_utils.decode_predictions(preds, top=top)
