"""Xception (Chollet, 2017), as `keras.applications.xception`.

Layer names are Keras's (`block4_sepconv2_bn`, ...). Keras leaves the
residual shortcuts' convolutions, their batch norms and the additions unnamed,
so they get Keras's automatic names (`conv2d`, `batch_normalization_3`, `add_11`).
"""

from ..layers import (Activation, BatchNormalization, Conv2D, Dense, GlobalAveragePooling2D,
                      MaxPooling2D, SeparableConv2D, add)
from . import imagenet_utils
from ._common import (channel_axis, describe, finish_model, is_imagenet, model_input,
                      pooled_features)
from ._weights import published_weights

__all__ = ["Xception", "decode_predictions", "preprocess_input"]

# MD5 of Keras's published files, (with the top, without it).
WEIGHTS_HASHES = ("0a58e3b7378bc2990ea3b43d5981f1f6", "b0042744bf5b25fce3cb969f33bebb97")


def _separable(x, filters, prefix, index, act_first=True):
    """ReLU (when `act_first`), 3x3 separable convolution, batch norm: Keras's `sepconv<i>`."""
    name = f"{prefix}_sepconv{index}"
    if act_first:
        x = Activation("relu", name=f"{name}_act")(x)
    x = SeparableConv2D(filters, 3, padding="same", use_bias=False, name=name)(x)
    return BatchNormalization(axis=channel_axis(), name=f"{name}_bn")(x)


def _shortcut(x, filters):
    """The unnamed strided 1x1 convolution and batch norm of a downsampling block."""
    residual = Conv2D(filters, 1, strides=2, padding="same", use_bias=False)(x)
    return BatchNormalization(axis=channel_axis())(residual)


def _downsampling_block(x, filters, prefix, relu_first=True):
    """Two separable convolutions, 3x3/2 max pooling, plus the strided shortcut."""
    first, second = filters if isinstance(filters, tuple) else (filters, filters)
    residual = _shortcut(x, second)
    if relu_first:
        x = _separable(x, first, prefix, 1)
    else:  # block2 follows block1's ReLU; Keras names its ReLU after the second convolution
        x = SeparableConv2D(first, 3, padding="same", use_bias=False, name=f"{prefix}_sepconv1")(x)
        x = BatchNormalization(axis=channel_axis(), name=f"{prefix}_sepconv1_bn")(x)
    x = _separable(x, second, prefix, 2)
    x = MaxPooling2D(3, strides=2, padding="same", name=f"{prefix}_pool")(x)
    return add([x, residual])


def Xception(include_top=True, weights="imagenet", input_tensor=None, input_shape=None,
             pooling=None, classes=1000, classifier_activation="softmax", name="xception"):
    """Instantiates the Xception architecture (Chollet, 2017).

    Args:
        include_top: whether to include the fully-connected layer at the top.
        weights: `None` (random initialisation), `"imagenet"` (Keras's
            published file, from the Keras cache; see docs/applications.md) or
            the path of a weights file.
        input_tensor: optional symbolic tensor to use as the image input.
        input_shape: optional shape tuple, only with `include_top=False`
            (otherwise `(299, 299, 3)`); 3 channels, at least 71x71.
        pooling: with `include_top=False`: `None` (4D output), `"avg"` or `"max"`.
        classes: number of classes, only without `"imagenet"` weights.
        classifier_activation: activation of the top layer (`None` for logits).
        name: the model's name.

    Returns:
        A functional `Model`. Inputs are preprocessed with
        `hikeras.applications.xception.preprocess_input` (pixels to [-1, 1]).
    """
    input_shape, img_input = model_input(weights, include_top, classes, pooling,
                                         input_tensor, input_shape,
                                         default_size=299, min_size=71)
    axis = channel_axis()

    x = Conv2D(32, 3, strides=2, use_bias=False, name="block1_conv1")(img_input)
    x = BatchNormalization(axis=axis, name="block1_conv1_bn")(x)
    x = Activation("relu", name="block1_conv1_act")(x)
    x = Conv2D(64, 3, use_bias=False, name="block1_conv2")(x)
    x = BatchNormalization(axis=axis, name="block1_conv2_bn")(x)
    x = Activation("relu", name="block1_conv2_act")(x)

    # Entry flow.
    x = _downsampling_block(x, 128, "block2", relu_first=False)
    x = _downsampling_block(x, 256, "block3")
    x = _downsampling_block(x, 728, "block4")
    # Middle flow: eight residual blocks of three separable convolutions.
    for i in range(8):
        prefix = f"block{i + 5}"
        residual = x
        for index in (1, 2, 3):
            x = _separable(x, 728, prefix, index)
        x = add([x, residual])
    # Exit flow.
    x = _downsampling_block(x, (728, 1024), "block13")
    x = SeparableConv2D(1536, 3, padding="same", use_bias=False, name="block14_sepconv1")(x)
    x = BatchNormalization(axis=axis, name="block14_sepconv1_bn")(x)
    x = Activation("relu", name="block14_sepconv1_act")(x)
    x = SeparableConv2D(2048, 3, padding="same", use_bias=False, name="block14_sepconv2")(x)
    x = BatchNormalization(axis=axis, name="block14_sepconv2_bn")(x)
    x = Activation("relu", name="block14_sepconv2_act")(x)

    if include_top:
        x = GlobalAveragePooling2D(name="avg_pool")(x)
        imagenet_utils.validate_activation(classifier_activation, weights)
        x = Dense(classes, activation=classifier_activation, name="predictions")(x)
    else:
        x = pooled_features(x, pooling)

    published = None
    if is_imagenet(weights):
        suffix = "" if include_top else "_notop"
        published = published_weights(
            "xception", f"xception_weights_tf_dim_ordering_tf_kernels{suffix}.h5",
            WEIGHTS_HASHES[0 if include_top else 1])
    return finish_model(img_input, input_tensor, x, name, weights, published,
                        describe("Xception", include_top=include_top))


def preprocess_input(x, data_format=None):
    """Scales pixels from [0, 255] to [-1, 1] (Keras's "tf" mode)."""
    return imagenet_utils.preprocess_input(x, data_format=data_format, mode="tf")


def decode_predictions(preds, top=5):
    """See `imagenet_utils.decode_predictions`."""
    return imagenet_utils.decode_predictions(preds, top=top)
