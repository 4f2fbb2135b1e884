"""EfficientNetV2 B0 to B3, S, M and L (Tan and Le, 2021), as `keras.applications.efficientnet_v2`.

With `include_preprocessing=True` (the default) the network preprocesses its
own input, as Keras's does: B0-B3 rescale [0, 255] pixels to [0, 1] and
normalise them with ImageNet's mean and variance (constants, not weights);
S, M and L rescale them to [-1, 1]. `preprocess_input` is therefore the identity.
"""

import copy
import math

from ..layers import (Activation, BatchNormalization, Conv2D, Dense, DepthwiseConv2D, Dropout,
                      GlobalAveragePooling2D, Normalization, Rescaling, Reshape, add, multiply)
from . import imagenet_utils
from ._common import (channel_axis, describe, finish_model, is_imagenet, model_input,
                      pooled_features)
from ._weights import published_weights

__all__ = ["EfficientNetV2B0", "EfficientNetV2B1", "EfficientNetV2B2", "EfficientNetV2B3",
           "EfficientNetV2L", "EfficientNetV2M", "EfficientNetV2S", "decode_predictions",
           "preprocess_input"]

# MD5 of Keras's published files, (with the top, without it), by weights name.
WEIGHTS_HASHES = {
    "b0": ("21ecbf6da12460d5c40bb2f29ceb2188", "893217f2bb855e2983157299931e43ff"),
    "b1": ("069f0534ff22adf035c89e2d9547a9dc", "0e80663031ca32d657f9caa404b6ec37"),
    "b2": ("424e49f28180edbde1e94797771950a7", "1dfe2e7a5d45b6632553a8961ea609eb"),
    "b3": ("1f1fc43bd98a6e4fd8fdfd551e02c7a0", "f6abf7b5849ac99a89b50dd3fd532856"),
    "-s": ("e1d88a8495beba45748fedd0cecbe016", "af0682fb74e8c54910f2d4393339c070"),
    "-m": ("a3bf6aa3276309f4fc6a34aa114c95cd", "1b8dc055df72dde80d614482840fe342"),
    "-l": ("27e6d408b53c7ebc868fefa357689935", "b0b66b5c863aef5b46e8608fe1711615"),
}


def _stages(rows):
    """Block arguments from rows of (repeats, filters in, filters out, expansion, SE ratio,
    strides, fused); every kernel is 3x3."""
    return [{"kernel_size": 3, "num_repeat": r, "input_filters": fi, "output_filters": fo,
             "expand_ratio": e, "se_ratio": se, "strides": s, "conv_type": int(fused)}
            for r, fi, fo, e, se, s, fused in rows]


_B_STAGES = _stages([(1, 32, 16, 1, 0, 1, True), (2, 16, 32, 4, 0, 2, True),
                     (2, 32, 48, 4, 0, 2, True), (3, 48, 96, 4, 0.25, 2, False),
                     (5, 96, 112, 6, 0.25, 1, False), (8, 112, 192, 6, 0.25, 2, False)])
# Stages per model (Keras keys them by the default model name).
DEFAULT_BLOCKS_ARGS = {
    "efficientnetv2-s": _stages([
        (2, 24, 24, 1, 0, 1, True), (4, 24, 48, 4, 0, 2, True), (4, 48, 64, 4, 0, 2, True),
        (6, 64, 128, 4, 0.25, 2, False), (9, 128, 160, 6, 0.25, 1, False),
        (15, 160, 256, 6, 0.25, 2, False)]),
    "efficientnetv2-m": _stages([
        (3, 24, 24, 1, 0, 1, True), (5, 24, 48, 4, 0, 2, True), (5, 48, 80, 4, 0, 2, True),
        (7, 80, 160, 4, 0.25, 2, False), (14, 160, 176, 6, 0.25, 1, False),
        (18, 176, 304, 6, 0.25, 2, False), (5, 304, 512, 6, 0.25, 1, False)]),
    "efficientnetv2-l": _stages([
        (4, 32, 32, 1, 0, 1, True), (7, 32, 64, 4, 0, 2, True), (7, 64, 96, 4, 0, 2, True),
        (10, 96, 192, 4, 0.25, 2, False), (19, 192, 224, 6, 0.25, 1, False),
        (25, 224, 384, 6, 0.25, 2, False), (7, 384, 640, 6, 0.25, 1, False)]),
    **{f"efficientnetv2-b{i}": _B_STAGES for i in range(4)},
}
CONV_KERNEL_INITIALIZER = {"class_name": "VarianceScaling",
                           "config": {"scale": 2.0, "mode": "fan_out",
                                      "distribution": "truncated_normal"}}
DENSE_KERNEL_INITIALIZER = {"class_name": "VarianceScaling",
                            "config": {"scale": 1.0 / 3.0, "mode": "fan_out",
                                       "distribution": "uniform"}}


def round_filters(filters, width_coefficient, min_depth, depth_divisor):
    """`filters` scaled by the width coefficient, to a multiple of `depth_divisor`."""
    filters *= width_coefficient
    minimum_depth = min_depth or depth_divisor
    return int(max(minimum_depth,
                   int(filters + depth_divisor / 2) // depth_divisor * depth_divisor))


def round_repeats(repeats, depth_coefficient):
    """`repeats` scaled by the depth coefficient, rounded up."""
    return int(math.ceil(depth_coefficient * repeats))


def _squeeze_excite(x, input_filters, filters, se_ratio, activation, name):
    filters_se = max(1, int(input_filters * se_ratio))
    se = GlobalAveragePooling2D(name=f"{name}se_squeeze")(x)
    se_shape = (filters, 1, 1) if channel_axis() == 1 else (1, 1, filters)
    se = Reshape(se_shape, name=f"{name}se_reshape")(se)
    se = Conv2D(filters_se, 1, padding="same", activation=activation,
                kernel_initializer=CONV_KERNEL_INITIALIZER, name=f"{name}se_reduce")(se)
    se = Conv2D(filters, 1, padding="same", activation="sigmoid",
                kernel_initializer=CONV_KERNEL_INITIALIZER, name=f"{name}se_expand")(se)
    return multiply([x, se], name=f"{name}se_excite")


def _batch_norm(bn_momentum, name):
    return BatchNormalization(axis=channel_axis(), momentum=bn_momentum, name=name)


def _residual(x, inputs, strides, input_filters, output_filters, survival_probability, name):
    """Stochastic depth and the identity shortcut, when the block keeps its shape."""
    if strides == 1 and input_filters == output_filters:
        if survival_probability:  # Keras's name: it is the drop rate
            x = Dropout(survival_probability, noise_shape=(None, 1, 1, 1), name=f"{name}drop")(x)
        x = add([x, inputs], name=f"{name}add")
    return x


def MBConvBlock(input_filters, output_filters, expand_ratio=1, kernel_size=3, strides=1,
                se_ratio=0.0, bn_momentum=0.9, activation="swish", survival_probability=0.8,
                name=""):
    """The MBConv block: 1x1 expansion, depthwise convolution, squeeze-excite, 1x1 projection.

    Returns a function of the block's input tensor, as Keras's does.
    """
    def apply(inputs):
        filters = input_filters * expand_ratio
        x = inputs
        if expand_ratio != 1:
            x = Conv2D(filters, 1, strides=1, kernel_initializer=CONV_KERNEL_INITIALIZER,
                       padding="same", use_bias=False, name=f"{name}expand_conv")(x)
            x = _batch_norm(bn_momentum, f"{name}expand_bn")(x)
            x = Activation(activation, name=f"{name}expand_activation")(x)
        x = DepthwiseConv2D(kernel_size, strides=strides,
                            depthwise_initializer=CONV_KERNEL_INITIALIZER, padding="same",
                            use_bias=False, name=f"{name}dwconv2")(x)
        x = _batch_norm(bn_momentum, f"{name}bn")(x)
        x = Activation(activation, name=f"{name}activation")(x)
        if 0 < se_ratio <= 1:
            x = _squeeze_excite(x, input_filters, filters, se_ratio, activation, name)
        x = Conv2D(output_filters, 1, strides=1, kernel_initializer=CONV_KERNEL_INITIALIZER,
                   padding="same", use_bias=False, name=f"{name}project_conv")(x)
        x = _batch_norm(bn_momentum, f"{name}project_bn")(x)
        return _residual(x, inputs, strides, input_filters, output_filters,
                         survival_probability, name)

    return apply


def FusedMBConvBlock(input_filters, output_filters, expand_ratio=1, kernel_size=3, strides=1,
                     se_ratio=0.0, bn_momentum=0.9, activation="swish",
                     survival_probability=0.8, name=""):
    """The fused MBConv block: one full `kernel_size` convolution in place of the 1x1
    expansion and the depthwise convolution (the convolution is the projection when
    `expand_ratio` is 1). Returns a function of the block's input tensor.
    """
    def apply(inputs):
        filters = input_filters * expand_ratio
        x = inputs
        if expand_ratio != 1:
            x = Conv2D(filters, kernel_size, strides=strides,
                       kernel_initializer=CONV_KERNEL_INITIALIZER, padding="same",
                       use_bias=False, name=f"{name}expand_conv")(x)
            x = _batch_norm(bn_momentum, f"{name}expand_bn")(x)
            x = Activation(activation, name=f"{name}expand_activation")(x)
        if 0 < se_ratio <= 1:
            x = _squeeze_excite(x, input_filters, filters, se_ratio, activation, name)
        projection_only = expand_ratio == 1
        x = Conv2D(output_filters, kernel_size if projection_only else 1,
                   strides=strides if projection_only else 1,
                   kernel_initializer=CONV_KERNEL_INITIALIZER, padding="same", use_bias=False,
                   name=f"{name}project_conv")(x)
        x = _batch_norm(bn_momentum, f"{name}project_bn")(x)
        if projection_only:
            x = Activation(activation, name=f"{name}project_activation")(x)
        return _residual(x, inputs, strides, input_filters, output_filters,
                         survival_probability, name)

    return apply


def EfficientNetV2(width_coefficient, depth_coefficient, default_size, dropout_rate=0.2,
                   drop_connect_rate=0.2, depth_divisor=8, min_depth=8, bn_momentum=0.9,
                   activation="swish", blocks_args="default", name="efficientnetv2",
                   include_top=True, weights="imagenet", input_tensor=None, input_shape=None,
                   pooling=None, classes=1000, classifier_activation="softmax",
                   include_preprocessing=True, weights_name=None, variant=None):
    """The EfficientNetV2 skeleton (Keras's builder).

    `variant` ("efficientnetv2-b0", ...) selects the default stages and the
    preprocessing; Keras takes both from `name`, so there a custom name fails.
    """
    variant = variant or name
    if blocks_args == "default":
        if variant not in DEFAULT_BLOCKS_ARGS:
            raise ValueError(f"No default blocks for {variant!r}: pass `blocks_args`. Expected "
                             f"one of {sorted(DEFAULT_BLOCKS_ARGS)}. Received: name={name!r}")
        blocks_args = DEFAULT_BLOCKS_ARGS[variant]
    input_shape, img_input = model_input(weights, include_top, classes, pooling,
                                         input_tensor, input_shape,
                                         default_size=default_size, min_size=32)
    axis = channel_axis()

    def filters(count):
        return round_filters(count, width_coefficient, min_depth, depth_divisor)

    x = img_input
    if include_preprocessing:
        num_channels = input_shape[axis - 1]
        if variant.split("-")[-1].startswith("b") and num_channels == 3:
            x = Rescaling(scale=1.0 / 255)(x)
            x = Normalization(mean=[0.485, 0.456, 0.406],
                              variance=[0.229**2, 0.224**2, 0.225**2], axis=axis)(x)
        else:
            x = Rescaling(scale=1.0 / 128.0, offset=-1)(x)

    x = Conv2D(filters(blocks_args[0]["input_filters"]), 3, strides=2,
               kernel_initializer=CONV_KERNEL_INITIALIZER, padding="same", use_bias=False,
               name="stem_conv")(x)
    x = _batch_norm(bn_momentum, "stem_bn")(x)
    x = Activation(activation, name="stem_activation")(x)

    blocks_args = copy.deepcopy(blocks_args)
    # Keras spreads the drop rate over the unscaled number of blocks.
    total = float(sum(args["num_repeat"] for args in blocks_args))
    b = 0
    for i, args in enumerate(blocks_args):
        if args["num_repeat"] <= 0:
            raise ValueError("The number of repeats in `EfficientNetV2` must be > 0. "
                             f"Received: num_repeat={args['num_repeat']}")
        args["input_filters"] = filters(args["input_filters"])
        args["output_filters"] = filters(args["output_filters"])
        block = FusedMBConvBlock if args.pop("conv_type") else MBConvBlock
        for j in range(round_repeats(args.pop("num_repeat"), depth_coefficient)):
            if j > 0:
                args["strides"] = 1
                args["input_filters"] = args["output_filters"]
            x = block(activation=activation, bn_momentum=bn_momentum,
                      survival_probability=drop_connect_rate * b / total,
                      name=f"block{i + 1}{chr(j + 97)}_", **args)(x)
            b += 1

    x = Conv2D(filters(1280), 1, strides=1, kernel_initializer=CONV_KERNEL_INITIALIZER,
               padding="same", use_bias=False, name="top_conv")(x)
    x = _batch_norm(bn_momentum, "top_bn")(x)
    x = Activation(activation, name="top_activation")(x)
    if include_top:
        x = GlobalAveragePooling2D(name="avg_pool")(x)
        if dropout_rate > 0:
            x = Dropout(dropout_rate, name="top_dropout")(x)
        imagenet_utils.validate_activation(classifier_activation, weights)
        x = Dense(classes, activation=classifier_activation,
                  kernel_initializer=DENSE_KERNEL_INITIALIZER, bias_initializer="zeros",
                  name="predictions")(x)
    else:
        x = pooled_features(x, pooling, avg_name="avg_pool", max_name="max_pool")

    published = None
    if is_imagenet(weights):
        if weights_name not in WEIGHTS_HASHES:
            raise ValueError(f"Keras publishes no ImageNet weights for {name}. "
                             f"Received: weights_name={weights_name!r}")
        file_name = name + (".h5" if include_top else "_notop.h5")
        published = published_weights("efficientnet_v2", file_name,
                                      WEIGHTS_HASHES[weights_name][0 if include_top else 1])
    return finish_model(img_input, input_tensor, x, name, weights, published,
                        describe(name, include_top=include_top))


_DOC = """Instantiates the {name} architecture (Tan and Le, 2021).

    Args:
        include_top: whether to include the fully-connected layer at the top.
        weights: `None` (random initialisation), `"imagenet"` (Keras's
            published file, from the Keras cache; see docs/applications.md) or
            the path of a weights file.
        input_tensor: optional symbolic tensor to use as the image input.
        input_shape: optional shape tuple, only with `include_top=False`
            (otherwise `({size}, {size}, 3)`); at least 32x32.
        pooling: with `include_top=False`: `None` (4D output), `"avg"` or `"max"`.
        classes: number of classes, only without `"imagenet"` weights.
        classifier_activation: activation of the top layer (`None` for logits).
        include_preprocessing: the model takes float pixels in [0, 255] and
            preprocesses them itself (`preprocess_input` is the identity).
        name: the model's name (it also names the published weight file).

    Returns:
        A functional `Model`.
    """

# Suffix -> (width coefficient, depth coefficient, default size, weights name).
_VARIANTS = {
    "B0": (1.0, 1.0, 224, "b0"), "B1": (1.0, 1.1, 240, "b1"), "B2": (1.1, 1.2, 260, "b2"),
    "B3": (1.2, 1.4, 300, "b3"), "S": (1.0, 1.0, 384, "-s"), "M": (1.0, 1.0, 480, "-m"),
    "L": (1.0, 1.0, 480, "-l"),
}


def _variant(suffix):
    width, depth, size, weights_name = _VARIANTS[suffix]
    variant = f"efficientnetv2-{suffix.lower()}"

    def constructor(include_top=True, weights="imagenet", input_tensor=None, input_shape=None,
                    pooling=None, classes=1000, classifier_activation="softmax",
                    include_preprocessing=True, name=variant):
        return EfficientNetV2(width, depth, size, name=name, include_top=include_top,
                              weights=weights, input_tensor=input_tensor,
                              input_shape=input_shape, pooling=pooling, classes=classes,
                              classifier_activation=classifier_activation,
                              include_preprocessing=include_preprocessing,
                              weights_name=weights_name, variant=variant)

    constructor.__name__ = constructor.__qualname__ = f"EfficientNetV2{suffix}"
    constructor.__doc__ = _DOC.format(name=constructor.__name__, size=size)
    return constructor


EfficientNetV2B0 = _variant("B0")
EfficientNetV2B1 = _variant("B1")
EfficientNetV2B2 = _variant("B2")
EfficientNetV2B3 = _variant("B3")
EfficientNetV2S = _variant("S")
EfficientNetV2M = _variant("M")
EfficientNetV2L = _variant("L")


def preprocess_input(x, data_format=None):
    """The identity: EfficientNetV2 preprocesses inside the model (kept for Keras's API)."""
    return x


def decode_predictions(preds, top=5):
    """See `imagenet_utils.decode_predictions`."""
    return imagenet_utils.decode_predictions(preds, top=top)
