"""Inception V3 (Szegedy et al., 2015), as `keras.applications.inception_v3`.

Keras names only the concatenations (`mixed0` ... `mixed10`, `mixed9_0`,
`mixed9_1`) and the top; every convolution, batch norm, activation and pooling
gets Keras's automatic name (`conv2d_17`, `batch_normalization_17`,
`activation_17`), given in the order Keras creates them (see `_naming`).
"""

from ..layers import (Activation, AveragePooling2D, BatchNormalization, Conv2D, Dense,
                      GlobalAveragePooling2D, MaxPooling2D, concatenate)
from . import imagenet_utils
from ._common import (channel_axis, describe, finish_model, is_imagenet, model_input,
                      pooled_features)
from ._naming import KerasNames
from ._weights import published_weights

__all__ = ["InceptionV3", "conv2d_bn", "decode_predictions", "preprocess_input"]

# MD5 of Keras's published files, (with the top, without it).
WEIGHTS_HASHES = ("9a0d58056eeedaa3f26cb7ebd46da564", "bcbd6486424b2319ff4ef7d526e38f63")


def conv2d_bn(x, filters, num_row, num_col, padding="same", strides=(1, 1), name=None, *,
              names=None):
    """Convolution without bias, batch norm without scale, ReLU (Keras's `conv2d_bn`).

    With a `name`, the layers are `<name>_conv`, `<name>_bn` and `<name>`;
    without one, they take their names from `names` (a `KerasNames`) when given.
    """
    def named(suffix, base):
        return KerasNames.given(names, base) if name is None else f"{name}{suffix}"

    x = Conv2D(filters, (num_row, num_col), strides=strides, padding=padding, use_bias=False,
               name=named("_conv", "conv2d"))(x)
    x = BatchNormalization(axis=channel_axis(), scale=False,
                           name=named("_bn", "batch_normalization"))(x)
    return Activation("relu", name=named("", "activation"))(x)


def _average_pool_branch(x, filters, names):
    branch = AveragePooling2D(3, strides=1, padding="same",
                              name=names("average_pooling2d"))(x)
    return conv2d_bn(branch, filters, 1, 1, names=names)


def _block_35(x, pool_filters, name, names):
    """The 35x35 module: 1x1, 5x5, double 3x3 and pooled branches."""
    branch1x1 = conv2d_bn(x, 64, 1, 1, names=names)
    branch5x5 = conv2d_bn(x, 48, 1, 1, names=names)
    branch5x5 = conv2d_bn(branch5x5, 64, 5, 5, names=names)
    branch3x3dbl = conv2d_bn(x, 64, 1, 1, names=names)
    branch3x3dbl = conv2d_bn(branch3x3dbl, 96, 3, 3, names=names)
    branch3x3dbl = conv2d_bn(branch3x3dbl, 96, 3, 3, names=names)
    branch_pool = _average_pool_branch(x, pool_filters, names)
    return concatenate([branch1x1, branch5x5, branch3x3dbl, branch_pool], axis=channel_axis(),
                       name=name)


def _block_17(x, filters_7x7, name, names):
    """The 17x17 module: 1x1, factorised 7x7, double factorised 7x7 and pooled branches."""
    branch1x1 = conv2d_bn(x, 192, 1, 1, names=names)
    branch7x7 = conv2d_bn(x, filters_7x7, 1, 1, names=names)
    branch7x7 = conv2d_bn(branch7x7, filters_7x7, 1, 7, names=names)
    branch7x7 = conv2d_bn(branch7x7, 192, 7, 1, names=names)
    branch7x7dbl = conv2d_bn(x, filters_7x7, 1, 1, names=names)
    branch7x7dbl = conv2d_bn(branch7x7dbl, filters_7x7, 7, 1, names=names)
    branch7x7dbl = conv2d_bn(branch7x7dbl, filters_7x7, 1, 7, names=names)
    branch7x7dbl = conv2d_bn(branch7x7dbl, filters_7x7, 7, 1, names=names)
    branch7x7dbl = conv2d_bn(branch7x7dbl, 192, 1, 7, names=names)
    branch_pool = _average_pool_branch(x, 192, names)
    return concatenate([branch1x1, branch7x7, branch7x7dbl, branch_pool], axis=channel_axis(),
                       name=name)


def _block_8(x, index, names):
    """The 8x8 module with split 1x3 / 3x1 branches (`mixed9_<index>` joins the first)."""
    axis = channel_axis()
    branch1x1 = conv2d_bn(x, 320, 1, 1, names=names)
    branch3x3 = conv2d_bn(x, 384, 1, 1, names=names)
    branch3x3 = concatenate([conv2d_bn(branch3x3, 384, 1, 3, names=names),
                             conv2d_bn(branch3x3, 384, 3, 1, names=names)],
                            axis=axis, name=f"mixed9_{index}")
    branch3x3dbl = conv2d_bn(x, 448, 1, 1, names=names)
    branch3x3dbl = conv2d_bn(branch3x3dbl, 384, 3, 3, names=names)
    branch3x3dbl = concatenate([conv2d_bn(branch3x3dbl, 384, 1, 3, names=names),
                                conv2d_bn(branch3x3dbl, 384, 3, 1, names=names)], axis=axis,
                               name=names("concatenate"))
    branch_pool = _average_pool_branch(x, 192, names)
    return concatenate([branch1x1, branch3x3, branch3x3dbl, branch_pool], axis=axis,
                       name=f"mixed{9 + index}")


def InceptionV3(include_top=True, weights="imagenet", input_tensor=None, input_shape=None,
                pooling=None, classes=1000, classifier_activation="softmax", name="inception_v3"):
    """Instantiates the Inception V3 architecture (Szegedy et al., 2015).

    Args:
        include_top: whether to include the fully-connected layer at the top.
        weights: `None` (random initialisation), `"imagenet"` (Keras's
            published file, from the Keras cache; see docs/applications.md) or
            the path of a weights file.
        input_tensor: optional symbolic tensor to use as the image input.
        input_shape: optional shape tuple, only with `include_top=False`
            (otherwise `(299, 299, 3)`); 3 channels, at least 75x75.
        pooling: with `include_top=False`: `None` (4D output), `"avg"` or `"max"`.
        classes: number of classes, only without `"imagenet"` weights.
        classifier_activation: activation of the top layer (`None` for logits).
        name: the model's name.

    Returns:
        A functional `Model`. Inputs are preprocessed with
        `hikeras.applications.inception_v3.preprocess_input` (pixels to [-1, 1]).
    """
    input_shape, img_input = model_input(weights, include_top, classes, pooling,
                                         input_tensor, input_shape,
                                         default_size=299, min_size=75)
    axis = channel_axis()
    names = KerasNames()

    x = conv2d_bn(img_input, 32, 3, 3, strides=(2, 2), padding="valid", names=names)
    x = conv2d_bn(x, 32, 3, 3, padding="valid", names=names)
    x = conv2d_bn(x, 64, 3, 3, names=names)
    x = MaxPooling2D(3, strides=2, name=names("max_pooling2d"))(x)
    x = conv2d_bn(x, 80, 1, 1, padding="valid", names=names)
    x = conv2d_bn(x, 192, 3, 3, padding="valid", names=names)
    x = MaxPooling2D(3, strides=2, name=names("max_pooling2d"))(x)

    for index, pool_filters in enumerate((32, 64, 64)):
        x = _block_35(x, pool_filters, f"mixed{index}", names)
    # mixed3: 35x35 -> 17x17.
    branch3x3 = conv2d_bn(x, 384, 3, 3, strides=(2, 2), padding="valid", names=names)
    branch3x3dbl = conv2d_bn(x, 64, 1, 1, names=names)
    branch3x3dbl = conv2d_bn(branch3x3dbl, 96, 3, 3, names=names)
    branch3x3dbl = conv2d_bn(branch3x3dbl, 96, 3, 3, strides=(2, 2), padding="valid",
                             names=names)
    branch_pool = MaxPooling2D(3, strides=2, name=names("max_pooling2d"))(x)
    x = concatenate([branch3x3, branch3x3dbl, branch_pool], axis=axis, name="mixed3")

    for index, filters_7x7 in enumerate((128, 160, 160, 192)):
        x = _block_17(x, filters_7x7, f"mixed{4 + index}", names)
    # mixed8: 17x17 -> 8x8.
    branch3x3 = conv2d_bn(x, 192, 1, 1, names=names)
    branch3x3 = conv2d_bn(branch3x3, 320, 3, 3, strides=(2, 2), padding="valid",
                          names=names)
    branch7x7x3 = conv2d_bn(x, 192, 1, 1, names=names)
    branch7x7x3 = conv2d_bn(branch7x7x3, 192, 1, 7, names=names)
    branch7x7x3 = conv2d_bn(branch7x7x3, 192, 7, 1, names=names)
    branch7x7x3 = conv2d_bn(branch7x7x3, 192, 3, 3, strides=(2, 2), padding="valid",
                            names=names)
    branch_pool = MaxPooling2D(3, strides=2, name=names("max_pooling2d"))(x)
    x = concatenate([branch3x3, branch7x7x3, branch_pool], axis=axis, name="mixed8")

    for index in range(2):
        x = _block_8(x, index, names)

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
            "inception_v3", f"inception_v3_weights_tf_dim_ordering_tf_kernels{suffix}.h5",
            WEIGHTS_HASHES[0 if include_top else 1])
    return finish_model(img_input, input_tensor, x, name, weights, published,
                        describe("InceptionV3", include_top=include_top))


def preprocess_input(x, data_format=None):
    """Scales pixels from [0, 255] to [-1, 1] (Keras's "tf" mode)."""
    return imagenet_utils.preprocess_input(x, data_format=data_format, mode="tf")


def decode_predictions(preds, top=5):
    """See `imagenet_utils.decode_predictions`."""
    return imagenet_utils.decode_predictions(preds, top=top)
