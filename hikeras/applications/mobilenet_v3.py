"""MobileNetV3 Small and Large (Howard et al., 2019), as `keras.applications.mobilenet_v3`.

The network rescales its own input (`include_preprocessing=True`), so
`preprocess_input` is the identity, as in Keras.
"""

import warnings

from .. import backend
from ..layers import (Activation, Add, BatchNormalization, Conv2D, DepthwiseConv2D, Dropout,
                      Flatten, GlobalAveragePooling2D, Multiply, ReLU, Rescaling, ZeroPadding2D)
from . import imagenet_utils
from ._common import (channel_axis, check_arguments, describe, finish_model, image_input,
                      is_imagenet, pooled_features, spatial_size)
from ._weights import published_weights

__all__ = ["MobileNetV3Large", "MobileNetV3Small", "decode_predictions", "preprocess_input"]

# MD5 of Keras's published files, (with the top, without it).
WEIGHTS_HASHES = {
    "large_224_0.75_float": ("765b44a33ad4005b3ac83185abf1d0eb",
                             "40af19a13ebea4e2ee0c676887f69a2e"),
    "large_224_1.0_float": ("59e551e166be033d707958cf9e29a6a7",
                            "07fb09a5933dd0c8eaafa16978110389"),
    "large_minimalistic_224_1.0_float": ("675e7b876c45c57e9e63e6d90a36599c",
                                         "ec5221f64a2f6d1ef965a614bdae7973"),
    "small_224_0.75_float": ("cb65d4e5be93758266aa0a7f2c6708b7",
                             "ebdb5cc8e0b497cd13a7c275d475c819"),
    "small_224_1.0_float": ("8768d4c2e7dee89b9d02b2d03d65d862",
                            "d3e8ec802a04aa4fc771ee12a9a9b836"),
    "small_minimalistic_224_1.0_float": ("99cd97fb2fcdad2bf028eb838de69e37",
                                         "cde8136e733e811080d9fcd8a252f7e4"),
}

# Inverted residual blocks: (expansion, filters, kernel, stride, squeeze-excite, activation),
# where kernel "k", se True and activation "act" take the variant's values (5 / 0.25 /
# hard swish, or 3 / none / ReLU when minimalistic).
_SMALL = [(1, 16, 3, 2, True, "relu"), (72 / 16, 24, 3, 2, False, "relu"),
          (88 / 24, 24, 3, 1, False, "relu"), (4, 40, "k", 2, True, "act"),
          (6, 40, "k", 1, True, "act"), (6, 40, "k", 1, True, "act"),
          (3, 48, "k", 1, True, "act"), (3, 48, "k", 1, True, "act"),
          (6, 96, "k", 2, True, "act"), (6, 96, "k", 1, True, "act"),
          (6, 96, "k", 1, True, "act")]
_LARGE = [(1, 16, 3, 1, False, "relu"), (4, 24, 3, 2, False, "relu"),
          (3, 24, 3, 1, False, "relu"), (3, 40, "k", 2, True, "relu"),
          (3, 40, "k", 1, True, "relu"), (3, 40, "k", 1, True, "relu"),
          (6, 80, 3, 2, False, "act"), (2.5, 80, 3, 1, False, "act"),
          (2.3, 80, 3, 1, False, "act"), (2.3, 80, 3, 1, False, "act"),
          (6, 112, 3, 1, True, "act"), (6, 112, 3, 1, True, "act"),
          (6, 160, "k", 2, True, "act"), (6, 160, "k", 1, True, "act"),
          (6, 160, "k", 1, True, "act")]

_DOC = """Instantiates the {name} architecture.

    Args:
        input_shape: optional shape tuple (at least 32x32); default `(None, None, 3)`.
        alpha: width multiplier; Keras publishes weights for 0.75 and 1.0
            (1.0 only when minimalistic).
        minimalistic: no squeeze-and-excite, no hard swish, 3x3 kernels only.
        include_top: whether to include the classifier.
        weights: `None`, `"imagenet"` (Keras's published file, from the Keras
            cache; see docs/applications.md) or the path of a weights file.
        input_tensor: optional symbolic tensor to use as the image input.
        classes: number of classes, only without `"imagenet"` weights.
        pooling: with `include_top=False`: `None` (4D output), `"avg"` or `"max"`.
        dropout_rate: dropout rate before the last layer (Keras's name).
        classifier_activation: activation of the top layer (`None` for logits).
        include_preprocessing: start with a `Rescaling` layer taking [0, 255]
            pixels to [-1, 1].
        name: the model's name.

    Returns:
        A functional `Model`.
    """


def MobileNetV3(block_specs, last_point_ch, input_shape=None, alpha=1.0, model_type="large",
                minimalistic=False, include_top=True, weights="imagenet", input_tensor=None,
                classes=1000, pooling=None, dropout_rate=0.2, classifier_activation="softmax",
                include_preprocessing=True, name=None):
    """The MobileNetV3 skeleton around `block_specs` (see `_SMALL`, `_LARGE`)."""
    check_arguments(weights, include_top, classes, pooling)
    if input_tensor is not None:
        image_input(input_tensor, None)  # rejects what is not a symbolic tensor
        if input_shape is not None:
            width_axis = 3 if backend.image_data_format() == "channels_first" else 2
            if input_tensor.shape[width_axis] != input_shape[1]:
                raise ValueError(
                    "`input_shape` disagrees with `input_tensor`'s width; Received: "
                    f"input_shape={input_shape}, input_tensor.shape={input_tensor.shape}")
        else:
            input_shape = tuple(input_tensor.shape[1:])
    if input_shape is None:
        input_shape = ((None, None, 3) if backend.image_data_format() == "channels_last"
                       else (3, None, None))
    rows, cols = spatial_size(input_shape)
    if (rows and rows < 32) or (cols and cols < 32):
        raise ValueError(f"Input size must be at least 32x32; Received: input_shape={input_shape}")
    if is_imagenet(weights):
        if (not minimalistic and alpha not in (0.75, 1.0)) or (minimalistic and alpha != 1.0):
            raise ValueError("If imagenet weights are being loaded, alpha can be one of `0.75`, "
                             "`1.0` for non minimalistic or `1.0` for minimalistic only. "
                             f"Received: alpha={alpha}, minimalistic={minimalistic}")
        if rows != cols or rows != 224:
            warnings.warn("`input_shape` is undefined or non-square, or `rows` is not 224. "
                          "Weights for input shape (224, 224) will be loaded as the default.",
                          stacklevel=3)
    img_input = image_input(input_tensor, input_shape)

    if minimalistic:
        kernel, activation, se_ratio = 3, _relu, None
    else:
        kernel, activation, se_ratio = 5, _hard_swish, 0.25
    x = img_input
    if include_preprocessing:
        x = Rescaling(scale=1.0 / 127.5, offset=-1.0)(x)
    x = Conv2D(16, kernel_size=3, strides=(2, 2), padding="same", use_bias=False, name="conv")(x)
    x = _batch_norm("conv_bn")(x)
    x = activation(x)
    for block_id, (expansion, filters, block_kernel, stride, se, act) in enumerate(block_specs):
        x = _inverted_res_block(x, expansion, _depth(filters * alpha),
                                kernel if block_kernel == "k" else block_kernel, stride,
                                se_ratio if se else None,
                                activation if act == "act" else _relu, block_id)

    last_conv_ch = _depth(x.shape[channel_axis()] * 6)
    if alpha > 1.0:
        last_point_ch = _depth(last_point_ch * alpha)
    x = Conv2D(last_conv_ch, kernel_size=1, padding="same", use_bias=False, name="conv_1")(x)
    x = _batch_norm("conv_1_bn")(x)
    x = activation(x)
    if include_top:
        x = GlobalAveragePooling2D(keepdims=True)(x)
        x = Conv2D(last_point_ch, kernel_size=1, padding="same", use_bias=True, name="conv_2")(x)
        x = activation(x)
        if dropout_rate > 0:
            x = Dropout(dropout_rate)(x)
        x = Conv2D(classes, kernel_size=1, padding="same", name="logits")(x)
        x = Flatten()(x)
        imagenet_utils.validate_activation(classifier_activation, weights)
        x = Activation(activation=classifier_activation, name="predictions")(x)
    else:
        x = pooled_features(x, pooling, avg_name="avg_pool", max_name="max_pool")

    published = None
    if is_imagenet(weights):
        variant = "_minimalistic" if minimalistic else ""
        model_name = f"{model_type}{variant}_224_{float(alpha)}_float"
        if include_top:
            file_name = f"weights_mobilenet_v3_{model_name}.h5"
        else:
            file_name = f"weights_mobilenet_v3_{model_name}_no_top_v2.h5"
        published = published_weights("mobilenet_v3", file_name,
                                      WEIGHTS_HASHES[model_name][0 if include_top else 1])
    return finish_model(img_input, input_tensor, x, name, weights, published,
                        describe(f"MobileNetV3{model_type.title()}", alpha=alpha,
                                 minimalistic=minimalistic, include_top=include_top))


def MobileNetV3Small(input_shape=None, alpha=1.0, minimalistic=False, include_top=True,
                     weights="imagenet", input_tensor=None, classes=1000, pooling=None,
                     dropout_rate=0.2, classifier_activation="softmax",
                     include_preprocessing=True, name="MobileNetV3Small"):
    return MobileNetV3(_SMALL, 1024, input_shape, alpha, "small", minimalistic, include_top,
                       weights, input_tensor, classes, pooling, dropout_rate,
                       classifier_activation, include_preprocessing, name=name)


def MobileNetV3Large(input_shape=None, alpha=1.0, minimalistic=False, include_top=True,
                     weights="imagenet", input_tensor=None, classes=1000, pooling=None,
                     dropout_rate=0.2, classifier_activation="softmax",
                     include_preprocessing=True, name="MobileNetV3Large"):
    return MobileNetV3(_LARGE, 1280, input_shape, alpha, "large", minimalistic, include_top,
                       weights, input_tensor, classes, pooling, dropout_rate,
                       classifier_activation, include_preprocessing, name=name)


MobileNetV3Small.__doc__ = _DOC.format(name="MobileNetV3Small")
MobileNetV3Large.__doc__ = _DOC.format(name="MobileNetV3Large")


def _relu(x):
    return ReLU()(x)


def _hard_sigmoid(x):
    # Keras writes it with tensor arithmetic (recorded as ops, no weights).
    return ReLU(6.0)(x + 3.0) * (1.0 / 6.0)


def _hard_swish(x):
    return Activation("hard_swish")(x)


def _batch_norm(name):
    return BatchNormalization(axis=-1 if channel_axis() == 3 else 1, epsilon=1e-3,
                              momentum=0.999, name=name)


def _depth(v, divisor=8, min_value=None):
    """`v` rounded to the nearest multiple of `divisor`, never below 90% of `v`."""
    if min_value is None:
        min_value = divisor
    new_v = max(min_value, int(v + divisor / 2) // divisor * divisor)
    if new_v < 0.9 * v:
        new_v += divisor
    return new_v


def _se_block(inputs, filters, se_ratio, prefix):
    """Squeeze-and-excite: a channel gate from the globally pooled features."""
    x = GlobalAveragePooling2D(keepdims=True, name=f"{prefix}squeeze_excite_avg_pool")(inputs)
    x = Conv2D(_depth(filters * se_ratio), kernel_size=1, padding="same",
               name=f"{prefix}squeeze_excite_conv")(x)
    x = ReLU(name=f"{prefix}squeeze_excite_relu")(x)
    x = Conv2D(filters, kernel_size=1, padding="same", name=f"{prefix}squeeze_excite_conv_1")(x)
    x = _hard_sigmoid(x)
    return Multiply(name=f"{prefix}squeeze_excite_mul")([inputs, x])


def _inverted_res_block(x, expansion, filters, kernel_size, stride, se_ratio, activation,
                        block_id):
    """Expand (1x1), depthwise kxk, optional squeeze-excite, project (1x1), residual add."""
    shortcut = x
    prefix = "expanded_conv_"
    infilters = x.shape[channel_axis()]
    if block_id:
        prefix = f"expanded_conv_{block_id}_"
        x = Conv2D(_depth(infilters * expansion), kernel_size=1, padding="same", use_bias=False,
                   name=f"{prefix}expand")(x)
        x = _batch_norm(f"{prefix}expand_bn")(x)
        x = activation(x)
    if stride == 2:
        x = ZeroPadding2D(padding=imagenet_utils.correct_pad(x, kernel_size),
                          name=f"{prefix}depthwise_pad")(x)
    x = DepthwiseConv2D(kernel_size, strides=stride, padding="same" if stride == 1 else "valid",
                        use_bias=False, name=f"{prefix}depthwise")(x)
    x = _batch_norm(f"{prefix}depthwise_bn")(x)
    x = activation(x)
    if se_ratio:
        x = _se_block(x, _depth(infilters * expansion), se_ratio, prefix)
    x = Conv2D(filters, kernel_size=1, padding="same", use_bias=False, name=f"{prefix}project")(x)
    x = _batch_norm(f"{prefix}project_bn")(x)
    if stride == 1 and infilters == filters:
        x = Add(name=f"{prefix}add")([shortcut, x])
    return x


def preprocess_input(x, data_format=None):
    """The identity: MobileNetV3 models rescale their input themselves."""
    return x


def decode_predictions(preds, top=5):
    """See `imagenet_utils.decode_predictions`."""
    return imagenet_utils.decode_predictions(preds, top=top)
