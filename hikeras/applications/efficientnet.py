"""EfficientNet B0 to B7 (Tan and Le, 2019), as `keras.applications.efficientnet`.

The network preprocesses its own input, as Keras's does: `Rescaling(1/255)`
then a `Normalization` whose mean and variance are weights (the published files
carry ImageNet's). With `weights="imagenet"` Keras adds a further unnamed
`Rescaling` (by 1/sqrt(std) per channel) after it, because the original
weights were trained on inputs normalised differently (tensorflow#49930); so
does hikeras. `preprocess_input` is therefore the identity; the model takes
pixels in [0, 255].
"""

import copy
import math

from ..layers import (Activation, BatchNormalization, Conv2D, Dense, DepthwiseConv2D, Dropout,
                      GlobalAveragePooling2D, Normalization, Rescaling, Reshape, ZeroPadding2D,
                      add, multiply)
from . import imagenet_utils
from ._common import (channel_axis, describe, finish_model, is_imagenet, model_input,
                      pooled_features)
from ._weights import PublishedFile

__all__ = ["EfficientNetB0", "EfficientNetB1", "EfficientNetB2", "EfficientNetB3",
           "EfficientNetB4", "EfficientNetB5", "EfficientNetB6", "EfficientNetB7",
           "decode_predictions", "preprocess_input"]

_WEIGHTS_URL = "https://storage.googleapis.com/keras-applications/"
# MD5 of Keras's published files, (with the top, without it).
WEIGHTS_HASHES = {
    "b0": ("902e53a9f72be733fc0bcb005b3ebbac", "50bc09e76180e00e4465e1a485ddc09d"),
    "b1": ("1d254153d4ab51201f1646940f018540", "74c4e6b3e1f6a1eea24c589628592432"),
    "b2": ("b15cce36ff4dcbd00b6dd88e7857a6ad", "111f8e2ac8aa800a7a99e3239f7bfb39"),
    "b3": ("ffd1fdc53d0ce67064dc6a9c7960ede0", "af6d107764bb5b1abb91932881670226"),
    "b4": ("18c95ad55216b8f92d7e70b3a046e2fc", "ebc24e6d6c33eaebbd558eafbeedf1ba"),
    "b5": ("ace28f2a6363774853a83a0b21b9421a", "38879255a25d3c92d5e44e04ae6cec6f"),
    "b6": ("165f6e37dce68623721b423839de8be5", "9ecce42647a20130c1f39a5d4cb75743"),
    "b7": ("8c03f828fec3ef71311cd463b6759d99", "cbcfe4450ddf6f3ad90b1b398090fe4a"),
}

# Stages of MBConv blocks: (kernel size, repeats, filters in, filters out, expansion, strides).
# All use squeeze-and-excite at 0.25 of the input filters and an identity skip.
DEFAULT_BLOCKS_ARGS = [
    {"kernel_size": k, "repeats": r, "filters_in": fi, "filters_out": fo, "expand_ratio": e,
     "id_skip": True, "strides": s, "se_ratio": 0.25}
    for k, r, fi, fo, e, s in [(3, 1, 32, 16, 1, 1), (3, 2, 16, 24, 6, 2), (5, 2, 24, 40, 6, 2),
                               (3, 3, 40, 80, 6, 2), (5, 3, 80, 112, 6, 1),
                               (5, 4, 112, 192, 6, 2), (3, 1, 192, 320, 6, 1)]
]
# Keras's initialisers, as configs.
CONV_KERNEL_INITIALIZER = {"class_name": "VarianceScaling",
                           "config": {"scale": 2.0, "mode": "fan_out",
                                      "distribution": "truncated_normal"}}
DENSE_KERNEL_INITIALIZER = {"class_name": "VarianceScaling",
                            "config": {"scale": 1.0 / 3.0, "mode": "fan_out",
                                       "distribution": "uniform"}}
IMAGENET_STDDEV_RGB = [0.229, 0.224, 0.225]


def round_filters(filters, width_coefficient, divisor=8):
    """`filters` scaled by the width coefficient, to a multiple of `divisor` (at most 10% down)."""
    filters *= width_coefficient
    new_filters = max(divisor, int(filters + divisor / 2) // divisor * divisor)
    if new_filters < 0.9 * filters:
        new_filters += divisor
    return int(new_filters)


def round_repeats(repeats, depth_coefficient):
    """`repeats` scaled by the depth coefficient, rounded up."""
    return int(math.ceil(depth_coefficient * repeats))


def block(inputs, activation="swish", drop_rate=0.0, name="", filters_in=32, filters_out=16,
          kernel_size=3, strides=1, expand_ratio=1, se_ratio=0.0, id_skip=True):
    """An inverted residual (MBConv) block, its layers named `<name>expand_conv`, ...

    Expansion 1x1, depthwise `kernel_size` convolution, squeeze-and-excite, 1x1
    projection, and, when shapes allow, stochastic depth (`Dropout` of whole
    samples at `drop_rate`) and the identity shortcut.
    """
    axis = channel_axis()
    filters = filters_in * expand_ratio
    x = inputs
    if expand_ratio != 1:
        x = Conv2D(filters, 1, padding="same", use_bias=False,
                   kernel_initializer=CONV_KERNEL_INITIALIZER, name=f"{name}expand_conv")(x)
        x = BatchNormalization(axis=axis, name=f"{name}expand_bn")(x)
        x = Activation(activation, name=f"{name}expand_activation")(x)

    padding = "same"
    if strides == 2:
        x = ZeroPadding2D(padding=imagenet_utils.correct_pad(x, kernel_size),
                          name=f"{name}dwconv_pad")(x)
        padding = "valid"
    x = DepthwiseConv2D(kernel_size, strides=strides, padding=padding, use_bias=False,
                        depthwise_initializer=CONV_KERNEL_INITIALIZER, name=f"{name}dwconv")(x)
    x = BatchNormalization(axis=axis, name=f"{name}bn")(x)
    x = Activation(activation, name=f"{name}activation")(x)

    if 0 < se_ratio <= 1:
        filters_se = max(1, int(filters_in * se_ratio))
        se = GlobalAveragePooling2D(name=f"{name}se_squeeze")(x)
        se_shape = (filters, 1, 1) if axis == 1 else (1, 1, filters)
        se = Reshape(se_shape, name=f"{name}se_reshape")(se)
        se = Conv2D(filters_se, 1, padding="same", activation=activation,
                    kernel_initializer=CONV_KERNEL_INITIALIZER, name=f"{name}se_reduce")(se)
        se = Conv2D(filters, 1, padding="same", activation="sigmoid",
                    kernel_initializer=CONV_KERNEL_INITIALIZER, name=f"{name}se_expand")(se)
        x = multiply([x, se], name=f"{name}se_excite")

    x = Conv2D(filters_out, 1, padding="same", use_bias=False,
               kernel_initializer=CONV_KERNEL_INITIALIZER, name=f"{name}project_conv")(x)
    x = BatchNormalization(axis=axis, name=f"{name}project_bn")(x)
    if id_skip and strides == 1 and filters_in == filters_out:
        if drop_rate > 0:
            x = Dropout(drop_rate, noise_shape=(None, 1, 1, 1), name=f"{name}drop")(x)
        x = add([x, inputs], name=f"{name}add")
    return x


def EfficientNet(width_coefficient, depth_coefficient, default_size, dropout_rate=0.2,
                 drop_connect_rate=0.2, depth_divisor=8, activation="swish",
                 blocks_args="default", name="efficientnet", include_top=True,
                 weights="imagenet", input_tensor=None, input_shape=None, pooling=None,
                 classes=1000, classifier_activation="softmax", weights_name=None):
    """The EfficientNet skeleton, scaled by width and depth coefficients (Keras's builder)."""
    if blocks_args == "default":
        blocks_args = DEFAULT_BLOCKS_ARGS
    input_shape, img_input = model_input(weights, include_top, classes, pooling,
                                         input_tensor, input_shape,
                                         default_size=default_size, min_size=32)
    axis = channel_axis()

    def filters(count):
        return round_filters(count, width_coefficient, depth_divisor)

    x = Rescaling(1.0 / 255.0)(img_input)
    x = Normalization(axis=axis)(x)
    if is_imagenet(weights):
        x = Rescaling([1.0 / math.sqrt(stddev) for stddev in IMAGENET_STDDEV_RGB])(x)
    x = ZeroPadding2D(padding=imagenet_utils.correct_pad(x, 3), name="stem_conv_pad")(x)
    x = Conv2D(filters(32), 3, strides=2, padding="valid", use_bias=False,
               kernel_initializer=CONV_KERNEL_INITIALIZER, name="stem_conv")(x)
    x = BatchNormalization(axis=axis, name="stem_bn")(x)
    x = Activation(activation, name="stem_activation")(x)

    blocks_args = copy.deepcopy(blocks_args)
    total = float(sum(round_repeats(args["repeats"], depth_coefficient) for args in blocks_args))
    b = 0
    for i, args in enumerate(blocks_args):
        if args["repeats"] <= 0:
            raise ValueError("The number of repeats in `EfficientNet` must be > 0. "
                             f"Received: repeats={args['repeats']}")
        args["filters_in"] = filters(args["filters_in"])
        args["filters_out"] = filters(args["filters_out"])
        for j in range(round_repeats(args.pop("repeats"), depth_coefficient)):
            if j > 0:
                args["strides"] = 1
                args["filters_in"] = args["filters_out"]
            x = block(x, activation, drop_connect_rate * b / total,
                      name=f"block{i + 1}{chr(j + 97)}_", **args)
            b += 1

    x = Conv2D(filters(1280), 1, padding="same", use_bias=False,
               kernel_initializer=CONV_KERNEL_INITIALIZER, name="top_conv")(x)
    x = BatchNormalization(axis=axis, name="top_bn")(x)
    x = Activation(activation, name="top_activation")(x)
    if include_top:
        x = GlobalAveragePooling2D(name="avg_pool")(x)
        if dropout_rate > 0:
            x = Dropout(dropout_rate, name="top_dropout")(x)
        imagenet_utils.validate_activation(classifier_activation, weights)
        x = Dense(classes, activation=classifier_activation,
                  kernel_initializer=DENSE_KERNEL_INITIALIZER, name="predictions")(x)
    else:
        x = pooled_features(x, pooling, avg_name="avg_pool", max_name="max_pool")

    published = None
    if is_imagenet(weights):
        if weights_name not in WEIGHTS_HASHES:
            raise ValueError(f"Keras publishes no ImageNet weights for {name}. "
                             f"Received: weights_name={weights_name!r}")
        file_name = name + (".h5" if include_top else "_notop.h5")
        published = PublishedFile(file_name, _WEIGHTS_URL + file_name,
                                  WEIGHTS_HASHES[weights_name][0 if include_top else 1])
    return finish_model(img_input, input_tensor, x, name, weights, published,
                        describe(name, include_top=include_top))


_DOC = """Instantiates the {name} architecture (Tan and Le, 2019).

    The model preprocesses its input itself: it takes float pixels in [0, 255]
    (`preprocess_input` is the identity).

    Args:
        include_top: whether to include the fully-connected layer at the top.
        weights: `None` (random initialisation), `"imagenet"` (Keras's
            published file, from the Keras cache; see docs/applications.md) or
            the path of a weights file.
        input_tensor: optional symbolic tensor to use as the image input.
        input_shape: optional shape tuple, only with `include_top=False`
            (otherwise `({size}, {size}, 3)`); 3 channels, at least 32x32.
        pooling: with `include_top=False`: `None` (4D output), `"avg"` or `"max"`.
        classes: number of classes, only without `"imagenet"` weights.
        classifier_activation: activation of the top layer (`None` for logits).
        name: the model's name (it also names the published weight file).

    Returns:
        A functional `Model`.
    """

# Variant -> (width coefficient, depth coefficient, default size, dropout rate).
_VARIANTS = {
    "b0": (1.0, 1.0, 224, 0.2), "b1": (1.0, 1.1, 240, 0.2), "b2": (1.1, 1.2, 260, 0.3),
    "b3": (1.2, 1.4, 300, 0.3), "b4": (1.4, 1.8, 380, 0.4), "b5": (1.6, 2.2, 456, 0.4),
    "b6": (1.8, 2.6, 528, 0.5), "b7": (2.0, 3.1, 600, 0.5),
}


def _variant(key):
    width, depth, size, dropout = _VARIANTS[key]

    def constructor(include_top=True, weights="imagenet", input_tensor=None, input_shape=None,
                    pooling=None, classes=1000, classifier_activation="softmax",
                    name=f"efficientnet{key}"):
        return EfficientNet(width, depth, size, dropout, name=name, include_top=include_top,
                            weights=weights, input_tensor=input_tensor,
                            input_shape=input_shape, pooling=pooling, classes=classes,
                            classifier_activation=classifier_activation, weights_name=key)

    constructor.__name__ = constructor.__qualname__ = f"EfficientNet{key.upper()}"
    constructor.__doc__ = _DOC.format(name=constructor.__name__, size=size)
    return constructor


EfficientNetB0 = _variant("b0")
EfficientNetB1 = _variant("b1")
EfficientNetB2 = _variant("b2")
EfficientNetB3 = _variant("b3")
EfficientNetB4 = _variant("b4")
EfficientNetB5 = _variant("b5")
EfficientNetB6 = _variant("b6")
EfficientNetB7 = _variant("b7")


def preprocess_input(x, data_format=None):
    """The identity: EfficientNet preprocesses inside the model (kept for Keras's API)."""
    return x


def decode_predictions(preds, top=5):
    """See `imagenet_utils.decode_predictions`."""
    return imagenet_utils.decode_predictions(preds, top=top)
