"""MobileNetV2 (Sandler et al., 2018), as `keras.applications.mobilenet_v2`."""

import warnings

from .. import backend
from ..layers import (Add, BatchNormalization, Conv2D, Dense, DepthwiseConv2D,
                      GlobalAveragePooling2D, ReLU, ZeroPadding2D)
from . import imagenet_utils
from ._common import (channel_axis, check_arguments, describe, finish_model, image_input,
                      is_imagenet, pooled_features, spatial_size)
from ._weights import published_weights

__all__ = ["MobileNetV2", "decode_predictions", "preprocess_input"]

_SIZES = (96, 128, 160, 192, 224)  # input sizes Keras publishes weights for
_ALPHAS = (0.35, 0.5, 0.75, 1.0, 1.3, 1.4)
# (filters, stride, expansion) of the 17 inverted residual blocks.
_BLOCKS = ([(16, 1, 1), (24, 2, 6), (24, 1, 6), (32, 2, 6), (32, 1, 6), (32, 1, 6),
            (64, 2, 6)] + [(64, 1, 6)] * 3 + [(96, 1, 6)] * 3
           + [(160, 2, 6), (160, 1, 6), (160, 1, 6), (320, 1, 6)])


def MobileNetV2(input_shape=None, alpha=1.0, include_top=True, weights="imagenet",
                input_tensor=None, pooling=None, classes=1000,
                classifier_activation="softmax", name=None):
    """Instantiates the MobileNetV2 architecture.

    Args:
        input_shape: optional shape tuple (3 channels, at least 32x32).
        alpha: width multiplier; Keras publishes weights for 0.35, 0.5, 0.75,
            1.0, 1.3 and 1.4.
        include_top: whether to include the classifier.
        weights: `None`, `"imagenet"` (Keras's published file, from the Keras
            cache; see docs/applications.md) or the path of a weights file.
        input_tensor: optional symbolic tensor to use as the image input.
        pooling: with `include_top=False`: `None` (4D output), `"avg"` or `"max"`.
        classes: number of classes, only without `"imagenet"` weights.
        classifier_activation: activation of the top layer (`None` for logits).
        name: the model's name (default `mobilenetv2_<alpha>_<rows>`).

    Returns:
        A functional `Model`.

    >>> model = MobileNetV2(weights=None, alpha=0.35, include_top=False, input_shape=(32, 32, 3))
    >>> model.outputs[0].shape
    (None, 1, 1, 1280)
    """
    check_arguments(weights, include_top, classes, pooling)
    if input_tensor is not None:
        image_input(input_tensor, None)  # rejects what is not a symbolic tensor
    if input_shape is not None and input_tensor is not None:
        width_axis = 3 if backend.image_data_format() == "channels_first" else 2
        if input_tensor.shape[width_axis] != input_shape[1]:
            raise ValueError("`input_shape` disagrees with `input_tensor`'s width; Received: "
                             f"input_tensor.shape={input_tensor.shape}, input_shape={input_shape}")
    default_size = 224
    if input_shape is not None:
        rows, cols = spatial_size(input_shape)
    elif input_tensor is not None:
        rows, cols = spatial_size(input_tensor.shape[1:])
    else:
        rows = cols = None
    if rows == cols and rows in _SIZES:
        default_size = rows
    input_shape = imagenet_utils.obtain_input_shape(
        input_shape, default_size=default_size, min_size=32,
        data_format=backend.image_data_format(), require_flatten=include_top, weights=weights)
    rows, cols = spatial_size(input_shape)
    if is_imagenet(weights):
        if alpha not in _ALPHAS:
            raise ValueError("If imagenet weights are being loaded, alpha must be one of `0.35`, "
                             "`0.50`, `0.75`, `1.0`, `1.3` or `1.4` only; "
                             f"Received: alpha={alpha}")
        if rows != cols or rows not in _SIZES:
            rows = 224
            warnings.warn("`input_shape` is undefined or non-square, or `rows` is not in "
                          "[96, 128, 160, 192, 224]. Weights for input shape (224, 224) will be "
                          "loaded as the default.", stacklevel=2)
    img_input = image_input(input_tensor, input_shape)

    x = Conv2D(_make_divisible(32 * alpha, 8), kernel_size=3, strides=(2, 2), padding="same",
               use_bias=False, name="Conv1")(img_input)
    x = _batch_norm("bn_Conv1")(x)
    x = ReLU(6.0, name="Conv1_relu")(x)
    for block_id, (filters, stride, expansion) in enumerate(_BLOCKS):
        x = _inverted_res_block(x, filters=filters, alpha=alpha, stride=stride,
                                expansion=expansion, block_id=block_id)
    last_block_filters = _make_divisible(1280 * alpha, 8) if alpha > 1.0 else 1280
    x = Conv2D(last_block_filters, kernel_size=1, use_bias=False, name="Conv_1")(x)
    x = _batch_norm("Conv_1_bn")(x)
    x = ReLU(6.0, name="out_relu")(x)

    if include_top:
        x = GlobalAveragePooling2D()(x)
        imagenet_utils.validate_activation(classifier_activation, weights)
        x = Dense(classes, activation=classifier_activation, name="predictions")(x)
    else:
        x = pooled_features(x, pooling)

    if name is None:
        name = f"mobilenetv2_{alpha:0.2f}_{rows}"
    published = None
    if is_imagenet(weights):
        stem = f"mobilenet_v2_weights_tf_dim_ordering_tf_kernels_{float(alpha)}_{rows}"
        published = published_weights("mobilenet_v2",
                                      f"{stem}.h5" if include_top else f"{stem}_no_top.h5")
    return finish_model(img_input, input_tensor, x, name, weights, published,
                        describe("MobileNetV2", alpha=alpha, include_top=include_top))


def _batch_norm(name):
    return BatchNormalization(axis=-1 if channel_axis() == 3 else 1, epsilon=1e-3,
                              momentum=0.999, name=name)


def _inverted_res_block(inputs, expansion, stride, alpha, filters, block_id):
    """Expand (1x1), depthwise 3x3, project (1x1); a residual add when shapes allow."""
    in_channels = inputs.shape[channel_axis()]
    pointwise_filters = _make_divisible(int(filters * alpha), 8)
    x = inputs
    prefix = f"block_{block_id}_"
    if block_id:
        x = Conv2D(expansion * in_channels, kernel_size=1, padding="same", use_bias=False,
                   activation=None, name=f"{prefix}expand")(x)
        x = _batch_norm(f"{prefix}expand_BN")(x)
        x = ReLU(6.0, name=f"{prefix}expand_relu")(x)
    else:
        prefix = "expanded_conv_"
    if stride == 2:
        x = ZeroPadding2D(padding=imagenet_utils.correct_pad(x, 3), name=f"{prefix}pad")(x)
    x = DepthwiseConv2D(kernel_size=3, strides=stride, activation=None, use_bias=False,
                        padding="same" if stride == 1 else "valid",
                        name=f"{prefix}depthwise")(x)
    x = _batch_norm(f"{prefix}depthwise_BN")(x)
    x = ReLU(6.0, name=f"{prefix}depthwise_relu")(x)
    x = Conv2D(pointwise_filters, kernel_size=1, padding="same", use_bias=False,
               activation=None, name=f"{prefix}project")(x)
    x = _batch_norm(f"{prefix}project_BN")(x)
    if in_channels == pointwise_filters and stride == 1:
        return Add(name=f"{prefix}add")([inputs, x])
    return x


def _make_divisible(v, divisor, min_value=None):
    """`v` rounded to the nearest multiple of `divisor`, never below 90% of `v`."""
    if min_value is None:
        min_value = divisor
    new_v = max(min_value, int(v + divisor / 2) // divisor * divisor)
    if new_v < 0.9 * v:
        new_v += divisor
    return new_v


def preprocess_input(x, data_format=None):
    """TF-style preprocessing: scale pixels to [-1, 1]."""
    return imagenet_utils.preprocess_input(x, data_format=data_format, mode="tf")


def decode_predictions(preds, top=5):
    """See `imagenet_utils.decode_predictions`."""
    return imagenet_utils.decode_predictions(preds, top=top)
