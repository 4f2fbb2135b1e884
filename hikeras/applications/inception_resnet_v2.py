"""Inception-ResNet V2 (Szegedy et al., 2016), as `keras.applications.inception_resnet_v2`.

Keras names the concatenations (`mixed_5b`, `block35_3_mixed`, ...), each
residual block's projection (`block35_3_conv`) and activation (`block35_3_ac`)
and the last convolution (`conv_7b`); the branch convolutions, batch norms and
activations and the residual scalings (`CustomScaleLayer`) get Keras's
automatic names, given in the order Keras creates them (see `_naming`).
"""

from .. import ops
from ..layers import (Activation, AveragePooling2D, BatchNormalization, Concatenate, Conv2D,
                      Dense, GlobalAveragePooling2D, Layer, MaxPooling2D)
from . import imagenet_utils
from ._common import (channel_axis, describe, finish_model, is_imagenet, model_input,
                      pooled_features)
from ._naming import KerasNames
from ._weights import published_weights

__all__ = ["CustomScaleLayer", "InceptionResNetV2", "conv2d_bn", "decode_predictions",
           "inception_resnet_block", "preprocess_input"]

# MD5 of Keras's published files, (with the top, without it).
WEIGHTS_HASHES = ("e693bd0210a403b3192acc6073ad2e96", "d19885ff4a710c122648d3b5c3b684e4")


class CustomScaleLayer(Layer):
    """`inputs[0] + inputs[1] * scale`: a residual added at `scale` (Keras's layer of this name).

    Args:
        scale: the factor applied to the residual `inputs[1]`.

    >>> import numpy as np
    >>> CustomScaleLayer(0.5)([np.ones(2), np.full(2, 4.0)]).tolist()
    [3.0, 3.0]
    """

    def __init__(self, scale, **kwargs):
        super().__init__(**kwargs)
        self.scale = scale

    def call(self, inputs):
        shortcut, residual = inputs
        return ops.add(shortcut, ops.multiply(residual, self.scale))

    def get_config(self):
        config = super().get_config()
        config.update({"scale": self.scale})
        return config


def conv2d_bn(x, filters, kernel_size, strides=1, padding="same", activation="relu",
              use_bias=False, name=None, *, names=None):
    """Convolution, batch norm without scale (when there is no bias), activation.

    With a `name`, the layers are `<name>`, `<name>_bn` and `<name>_ac` (Keras's
    `conv2d_bn`); without one, they take their names from `names` (a `KerasNames`)
    when given.
    """
    def named(suffix, base):
        return KerasNames.given(names, base) if name is None else f"{name}{suffix}"

    x = Conv2D(filters, kernel_size, strides=strides, padding=padding, use_bias=use_bias,
               name=named("", "conv2d"))(x)
    if not use_bias:
        x = BatchNormalization(axis=channel_axis(), scale=False,
                               name=named("_bn", "batch_normalization"))(x)
    if activation is not None:
        x = Activation(activation, name=named("_ac", "activation"))(x)
    return x


# Residual branches per block type: each branch a list of (filters, kernel size).
_BRANCHES = {
    "block35": [[(32, 1)], [(32, 1), (32, 3)], [(32, 1), (48, 3), (64, 3)]],
    "block17": [[(192, 1)], [(128, 1), (160, (1, 7)), (192, (7, 1))]],
    "block8": [[(192, 1)], [(192, 1), (224, (1, 3)), (256, (3, 1))]],
}


def inception_resnet_block(x, scale, block_type, block_idx, activation="relu", *,
                           names=None):
    """An Inception-ResNet block: `x + scale * residual`, then `activation`.

    Args:
        x: the block's input.
        scale: the factor on the residual branch.
        block_type: `"block35"`, `"block17"` or `"block8"`.
        block_idx: the block's index in its stage, in its layer names
            (`block17_<block_idx>_mixed`).
        activation: the activation after the addition (`None` for none).
        names: the build's `KerasNames`, for the layers Keras leaves unnamed.
    """
    if block_type not in _BRANCHES:
        raise ValueError("Unknown Inception-ResNet block type. Expects 'block35', 'block17' or "
                         f"'block8'. Received: block_type={block_type!r}")
    branches = []
    for layers in _BRANCHES[block_type]:
        branch = x
        for filters, kernel_size in layers:
            branch = conv2d_bn(branch, filters, kernel_size, names=names)
        branches.append(branch)
    block_name = f"{block_type}_{block_idx}"
    axis = channel_axis()
    mixed = Concatenate(axis=axis, name=f"{block_name}_mixed")(branches)
    up = conv2d_bn(mixed, x.shape[axis], 1, activation=None, use_bias=True,
                   name=f"{block_name}_conv")
    x = CustomScaleLayer(scale, name=KerasNames.given(names, "custom_scale_layer"))([x, up])
    if activation is not None:
        x = Activation(activation, name=f"{block_name}_ac")(x)
    return x


def InceptionResNetV2(include_top=True, weights="imagenet", input_tensor=None,
                      input_shape=None, pooling=None, classes=1000,
                      classifier_activation="softmax", name="inception_resnet_v2"):
    """Instantiates the Inception-ResNet V2 architecture (Szegedy et al., 2016).

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
        `hikeras.applications.inception_resnet_v2.preprocess_input` (pixels to [-1, 1]).
    """
    input_shape, img_input = model_input(weights, include_top, classes, pooling,
                                         input_tensor, input_shape,
                                         default_size=299, min_size=75)
    axis = channel_axis()
    names = KerasNames()

    def cbn(x, filters, kernel_size, **kwargs):
        return conv2d_bn(x, filters, kernel_size, names=names, **kwargs)

    def max_pool(x):
        return MaxPooling2D(3, strides=2, padding="valid", name=names("max_pooling2d"))(x)

    # Stem.
    x = cbn(img_input, 32, 3, strides=2, padding="valid")
    x = cbn(x, 32, 3, padding="valid")
    x = cbn(x, 64, 3)
    x = max_pool(x)
    x = cbn(x, 80, 1, padding="valid")
    x = cbn(x, 192, 3, padding="valid")
    x = max_pool(x)

    # Mixed 5b (Inception-A).
    branch_0 = cbn(x, 96, 1)
    branch_1 = cbn(cbn(x, 48, 1), 64, 5)
    branch_2 = cbn(cbn(cbn(x, 64, 1), 96, 3), 96, 3)
    branch_pool = AveragePooling2D(3, strides=1, padding="same",
                                   name=names("average_pooling2d"))(x)
    branch_pool = cbn(branch_pool, 64, 1)
    x = Concatenate(axis=axis, name="mixed_5b")([branch_0, branch_1, branch_2, branch_pool])
    for block_idx in range(1, 11):
        x = inception_resnet_block(x, scale=0.17, block_type="block35", block_idx=block_idx,
                                   names=names)

    # Mixed 6a (Reduction-A).
    branch_0 = cbn(x, 384, 3, strides=2, padding="valid")
    branch_1 = cbn(cbn(cbn(x, 256, 1), 256, 3), 384, 3, strides=2, padding="valid")
    branch_pool = max_pool(x)
    x = Concatenate(axis=axis, name="mixed_6a")([branch_0, branch_1, branch_pool])
    for block_idx in range(1, 21):
        x = inception_resnet_block(x, scale=0.1, block_type="block17", block_idx=block_idx,
                                   names=names)

    # Mixed 7a (Reduction-B).
    branch_0 = cbn(cbn(x, 256, 1), 384, 3, strides=2, padding="valid")
    branch_1 = cbn(cbn(x, 256, 1), 288, 3, strides=2, padding="valid")
    branch_2 = cbn(cbn(cbn(x, 256, 1), 288, 3), 320, 3, strides=2, padding="valid")
    branch_pool = max_pool(x)
    x = Concatenate(axis=axis, name="mixed_7a")([branch_0, branch_1, branch_2, branch_pool])
    for block_idx in range(1, 10):
        x = inception_resnet_block(x, scale=0.2, block_type="block8", block_idx=block_idx,
                                   names=names)
    x = inception_resnet_block(x, scale=1.0, activation=None, block_type="block8", block_idx=10,
                               names=names)
    x = conv2d_bn(x, 1536, 1, name="conv_7b")

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
            "inception_resnet_v2",
            f"inception_resnet_v2_weights_tf_dim_ordering_tf_kernels{suffix}.h5",
            WEIGHTS_HASHES[0 if include_top else 1])
    return finish_model(img_input, input_tensor, x, name, weights, published,
                        describe("InceptionResNetV2", include_top=include_top))


def preprocess_input(x, data_format=None):
    """Scales pixels from [0, 255] to [-1, 1] (Keras's "tf" mode)."""
    return imagenet_utils.preprocess_input(x, data_format=data_format, mode="tf")


def decode_predictions(preds, top=5):
    """See `imagenet_utils.decode_predictions`."""
    return imagenet_utils.decode_predictions(preds, top=top)
