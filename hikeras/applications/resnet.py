"""ResNet (He et al., 2015), as `keras.applications.resnet`; also the builder ResNet V2 uses.

The blocks are functions of a symbolic tensor, named as Keras names them
(`conv2_block1_1_conv`, ...), so Keras's published files load by topology and by name.
"""

from ..layers import (Activation, Add, BatchNormalization, Conv2D, Dense,
                      GlobalAveragePooling2D, MaxPooling2D, ZeroPadding2D)
from . import imagenet_utils
from ._common import (channel_axis, describe, finish_model, is_imagenet, model_input,
                      pooled_features)
from ._weights import published_weights

__all__ = ["ResNet50", "ResNet101", "ResNet152", "decode_predictions", "preprocess_input"]

# MD5 of Keras's published files, (with the top, without it), by weights name.
WEIGHTS_HASHES = {
    "resnet50": ("2cb95161c43110f7111970584f804107", "4d473c1dd8becc155b73f8504c6f6626"),
    "resnet101": ("f1aeb4b969a6efcfb50fad2f0c20cfc5", "88cf7a10940856eca736dc7b7e228a21"),
    "resnet152": ("100835be76be38e30d865e96f2aaae62", "ee4c566cf9a93f14d82f913c2dc6dd0c"),
    "resnet50v2": ("3ef43a0b657b3be2300d5770ece849e0", "fac2f116257151a9d068a22e544a4917"),
    "resnet101v2": ("6343647c601c52e1368623803854d971", "c0ed64b8031c3730f411d2eb4eea35b5"),
    "resnet152v2": ("a49b44d1979771252814e80f8ec446f9", "ed17cf2e0169df9d443503ef94b23b33"),
}
_BN_EPSILON = 1.001e-5


def _batch_norm(name):
    return BatchNormalization(axis=channel_axis(), epsilon=_BN_EPSILON, name=name)


def ResNet(stack_fn, preact, use_bias, include_top=True, weights="imagenet", input_tensor=None,
           input_shape=None, pooling=None, classes=1000, classifier_activation="softmax",
           name="resnet", weights_name=None):
    """The ResNet skeleton around `stack_fn` (the residual stages); `preact` selects V2."""
    input_shape, img_input = model_input(weights, include_top, classes, pooling,
                                         input_tensor, input_shape,
                                         default_size=224, min_size=32)

    x = ZeroPadding2D(padding=((3, 3), (3, 3)), name="conv1_pad")(img_input)
    x = Conv2D(64, 7, strides=2, use_bias=use_bias, name="conv1_conv")(x)
    if not preact:
        x = _batch_norm("conv1_bn")(x)
        x = Activation("relu", name="conv1_relu")(x)
    x = ZeroPadding2D(padding=((1, 1), (1, 1)), name="pool1_pad")(x)
    x = MaxPooling2D(3, strides=2, name="pool1_pool")(x)
    x = stack_fn(x)
    if preact:
        x = _batch_norm("post_bn")(x)
        x = Activation("relu", name="post_relu")(x)

    if include_top:
        x = GlobalAveragePooling2D(name="avg_pool")(x)
        imagenet_utils.validate_activation(classifier_activation, weights)
        x = Dense(classes, activation=classifier_activation, name="predictions")(x)
    else:
        x = pooled_features(x, pooling, avg_name="avg_pool", max_name="max_pool")

    published = None
    if is_imagenet(weights) and weights_name in WEIGHTS_HASHES:
        suffix = "" if include_top else "_notop"
        published = published_weights(
            "resnet", f"{weights_name}_weights_tf_dim_ordering_tf_kernels{suffix}.h5",
            WEIGHTS_HASHES[weights_name][0 if include_top else 1])
    return finish_model(img_input, input_tensor, x, name, weights, published,
                        describe(name, include_top=include_top))


def residual_block_v1(x, filters, kernel_size=3, stride=1, conv_shortcut=True, name=None):
    """A bottleneck block: 1x1 (stride), kxk, 1x1 to 4*filters, added to the shortcut."""
    if conv_shortcut:
        shortcut = Conv2D(4 * filters, 1, strides=stride, name=f"{name}_0_conv")(x)
        shortcut = _batch_norm(f"{name}_0_bn")(shortcut)
    else:
        shortcut = x
    x = Conv2D(filters, 1, strides=stride, name=f"{name}_1_conv")(x)
    x = _batch_norm(f"{name}_1_bn")(x)
    x = Activation("relu", name=f"{name}_1_relu")(x)
    x = Conv2D(filters, kernel_size, padding="same", name=f"{name}_2_conv")(x)
    x = _batch_norm(f"{name}_2_bn")(x)
    x = Activation("relu", name=f"{name}_2_relu")(x)
    x = Conv2D(4 * filters, 1, name=f"{name}_3_conv")(x)
    x = _batch_norm(f"{name}_3_bn")(x)
    x = Add(name=f"{name}_add")([shortcut, x])
    return Activation("relu", name=f"{name}_out")(x)


def stack_residual_blocks_v1(x, filters, blocks, stride1=2, name=None):
    """`blocks` V1 blocks; the first has a projection shortcut and stride `stride1`."""
    x = residual_block_v1(x, filters, stride=stride1, name=f"{name}_block1")
    for i in range(2, blocks + 1):
        x = residual_block_v1(x, filters, conv_shortcut=False, name=f"{name}_block{i}")
    return x


def residual_block_v2(x, filters, kernel_size=3, stride=1, conv_shortcut=False, name=None):
    """A pre-activation bottleneck block (ResNet V2); the stride sits on the kxk convolution."""
    preact = _batch_norm(f"{name}_preact_bn")(x)
    preact = Activation("relu", name=f"{name}_preact_relu")(preact)
    if conv_shortcut:
        shortcut = Conv2D(4 * filters, 1, strides=stride, name=f"{name}_0_conv")(preact)
    else:
        # Keras leaves this pooling unnamed: it is auto-named (no weights).
        shortcut = MaxPooling2D(1, strides=stride)(x) if stride > 1 else x
    x = Conv2D(filters, 1, strides=1, use_bias=False, name=f"{name}_1_conv")(preact)
    x = _batch_norm(f"{name}_1_bn")(x)
    x = Activation("relu", name=f"{name}_1_relu")(x)
    x = ZeroPadding2D(padding=((1, 1), (1, 1)), name=f"{name}_2_pad")(x)
    x = Conv2D(filters, kernel_size, strides=stride, use_bias=False, name=f"{name}_2_conv")(x)
    x = _batch_norm(f"{name}_2_bn")(x)
    x = Activation("relu", name=f"{name}_2_relu")(x)
    x = Conv2D(4 * filters, 1, name=f"{name}_3_conv")(x)
    return Add(name=f"{name}_out")([shortcut, x])


def stack_residual_blocks_v2(x, filters, blocks, stride1=2, name=None):
    """`blocks` V2 blocks; the first projects the shortcut, the last strides by `stride1`."""
    x = residual_block_v2(x, filters, conv_shortcut=True, name=f"{name}_block1")
    for i in range(2, blocks):
        x = residual_block_v2(x, filters, name=f"{name}_block{i}")
    return residual_block_v2(x, filters, stride=stride1, name=f"{name}_block{blocks}")


def _resnet_v1(depths, weights_name, name, **kwargs):
    def stack_fn(x):
        x = stack_residual_blocks_v1(x, 64, depths[0], stride1=1, name="conv2")
        x = stack_residual_blocks_v1(x, 128, depths[1], name="conv3")
        x = stack_residual_blocks_v1(x, 256, depths[2], name="conv4")
        return stack_residual_blocks_v1(x, 512, depths[3], name="conv5")

    return ResNet(stack_fn, preact=False, use_bias=True, name=name, weights_name=weights_name,
                  **kwargs)


_DOC = """Instantiates the {name} architecture (He et al., 2015).

    Args:
        include_top: whether to include the fully-connected layer at the top.
        weights: `None` (random initialisation), `"imagenet"` (Keras's
            published file, from the Keras cache; see docs/applications.md) or
            the path of a weights file.
        input_tensor: optional symbolic tensor to use as the image input.
        input_shape: optional shape tuple, only with `include_top=False`
            (otherwise `(224, 224, 3)`); 3 channels, at least 32x32.
        pooling: with `include_top=False`: `None` (4D output), `"avg"` or `"max"`.
        classes: number of classes, only without `"imagenet"` weights.
        classifier_activation: activation of the top layer (`None` for logits).
        name: the model's name.

    Returns:
        A functional `Model`. Inputs are preprocessed with
        `hikeras.applications.{module}.preprocess_input`.
    """


def ResNet50(include_top=True, weights="imagenet", input_tensor=None, input_shape=None,
             pooling=None, classes=1000, classifier_activation="softmax", name="resnet50"):
    return _resnet_v1((3, 4, 6, 3), "resnet50", name, include_top=include_top, weights=weights,
                      input_tensor=input_tensor, input_shape=input_shape, pooling=pooling,
                      classes=classes, classifier_activation=classifier_activation)


def ResNet101(include_top=True, weights="imagenet", input_tensor=None, input_shape=None,
              pooling=None, classes=1000, classifier_activation="softmax", name="resnet101"):
    return _resnet_v1((3, 4, 23, 3), "resnet101", name, include_top=include_top, weights=weights,
                      input_tensor=input_tensor, input_shape=input_shape, pooling=pooling,
                      classes=classes, classifier_activation=classifier_activation)


def ResNet152(include_top=True, weights="imagenet", input_tensor=None, input_shape=None,
              pooling=None, classes=1000, classifier_activation="softmax", name="resnet152"):
    return _resnet_v1((3, 8, 36, 3), "resnet152", name, include_top=include_top, weights=weights,
                      input_tensor=input_tensor, input_shape=input_shape, pooling=pooling,
                      classes=classes, classifier_activation=classifier_activation)


for _constructor in (ResNet50, ResNet101, ResNet152):
    _constructor.__doc__ = _DOC.format(name=_constructor.__name__, module="resnet")


def preprocess_input(x, data_format=None):
    """Caffe-style preprocessing: RGB to BGR, then subtract ImageNet's mean per channel."""
    return imagenet_utils.preprocess_input(x, data_format=data_format, mode="caffe")


def decode_predictions(preds, top=5):
    """See `imagenet_utils.decode_predictions`."""
    return imagenet_utils.decode_predictions(preds, top=top)
