"""DenseNet (Huang et al., 2017), as `keras.applications.densenet`."""

from .. import backend
from ..layers import (Activation, AveragePooling2D, BatchNormalization, Concatenate, Conv2D,
                      Dense, GlobalAveragePooling2D, MaxPooling2D, ZeroPadding2D)
from . import imagenet_utils
from ._common import describe, finish_model, is_imagenet, model_input, pooled_features
from ._weights import published_weights

__all__ = ["DenseNet121", "DenseNet169", "DenseNet201", "decode_predictions",
           "preprocess_input"]

# Blocks per dense stage -> (weights name, MD5 with the top, MD5 without it).
_PUBLISHED = {
    (6, 12, 24, 16): ("densenet121", "9d60b8095a5708f2dcce2bca79d332c7",
                      "30ee3e1110167f948a6b9946edeeb738"),
    (6, 12, 32, 32): ("densenet169", "d699b8f76981ab1b30698df4c175e90b",
                      "b8c4d4c20dd625c148057b9ff1c1176b"),
    (6, 12, 48, 32): ("densenet201", "1ceb130c1ea1b78c3bf6114dbdfd8807",
                      "c13680b51ded0fb44dff2d8f86ac8bb1"),
}
_BN_EPSILON = 1.001e-5
_BN_AXIS = 3


def dense_block(x, blocks, name):
    """`blocks` conv blocks, each concatenating 32 new channels to its input."""
    for i in range(blocks):
        x = conv_block(x, 32, name=f"{name}_block{i + 1}")
    return x


def transition_block(x, reduction, name):
    """BN, ReLU, 1x1 convolution to `reduction` of the channels, 2x2 average pooling."""
    x = BatchNormalization(axis=_BN_AXIS, epsilon=_BN_EPSILON, name=f"{name}_bn")(x)
    x = Activation("relu", name=f"{name}_relu")(x)
    x = Conv2D(int(x.shape[_BN_AXIS] * reduction), 1, use_bias=False, name=f"{name}_conv")(x)
    return AveragePooling2D(2, strides=2, name=f"{name}_pool")(x)


def conv_block(x, growth_rate, name):
    """BN-ReLU-1x1 (4*growth_rate), BN-ReLU-3x3 (growth_rate), concatenated to `x`."""
    x1 = BatchNormalization(axis=_BN_AXIS, epsilon=_BN_EPSILON, name=f"{name}_0_bn")(x)
    x1 = Activation("relu", name=f"{name}_0_relu")(x1)
    x1 = Conv2D(4 * growth_rate, 1, use_bias=False, name=f"{name}_1_conv")(x1)
    x1 = BatchNormalization(axis=_BN_AXIS, epsilon=_BN_EPSILON, name=f"{name}_1_bn")(x1)
    x1 = Activation("relu", name=f"{name}_1_relu")(x1)
    x1 = Conv2D(growth_rate, 3, padding="same", use_bias=False, name=f"{name}_2_conv")(x1)
    return Concatenate(axis=_BN_AXIS, name=f"{name}_concat")([x, x1])


def DenseNet(blocks, include_top=True, weights="imagenet", input_tensor=None, input_shape=None,
             pooling=None, classes=1000, classifier_activation="softmax", name="densenet"):
    """DenseNet with `blocks[i]` conv blocks in dense stage i."""
    if backend.image_data_format() == "channels_first":
        raise ValueError("DenseNet does not support the `channels_first` image data format. "
                         "Switch to `channels_last` with "
                         "hikeras.backend.set_image_data_format('channels_last').")
    input_shape, img_input = model_input(weights, include_top, classes, pooling,
                                         input_tensor, input_shape,
                                         default_size=224, min_size=32)

    # Keras leaves the two paddings unnamed (auto-named, no weights).
    x = ZeroPadding2D(padding=((3, 3), (3, 3)))(img_input)
    x = Conv2D(64, 7, strides=2, use_bias=False, name="conv1_conv")(x)
    x = BatchNormalization(axis=_BN_AXIS, epsilon=_BN_EPSILON, name="conv1_bn")(x)
    x = Activation("relu", name="conv1_relu")(x)
    x = ZeroPadding2D(padding=((1, 1), (1, 1)))(x)
    x = MaxPooling2D(3, strides=2, name="pool1")(x)
    for stage, count in enumerate(blocks):
        x = dense_block(x, count, name=f"conv{stage + 2}")
        if stage < len(blocks) - 1:
            x = transition_block(x, 0.5, name=f"pool{stage + 2}")
    x = BatchNormalization(axis=_BN_AXIS, epsilon=_BN_EPSILON, name="bn")(x)
    x = Activation("relu", name="relu")(x)

    if include_top:
        x = GlobalAveragePooling2D(name="avg_pool")(x)
        imagenet_utils.validate_activation(classifier_activation, weights)
        x = Dense(classes, activation=classifier_activation, name="predictions")(x)
    else:
        x = pooled_features(x, pooling, avg_name="avg_pool", max_name="max_pool")

    published = None
    if is_imagenet(weights):
        if tuple(blocks) not in _PUBLISHED:
            raise ValueError(f"Keras publishes no ImageNet weights for DenseNet blocks={blocks}.")
        weights_name, top_hash, notop_hash = _PUBLISHED[tuple(blocks)]
        suffix = "" if include_top else "_notop"
        published = published_weights(
            "densenet", f"{weights_name}_weights_tf_dim_ordering_tf_kernels{suffix}.h5",
            top_hash if include_top else notop_hash)
    return finish_model(img_input, input_tensor, x, name, weights, published,
                        describe(name, include_top=include_top))


_DOC = """Instantiates the {name} architecture (Huang et al., 2017).

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
        `hikeras.applications.densenet.preprocess_input` (torch mode).
    """


def DenseNet121(include_top=True, weights="imagenet", input_tensor=None, input_shape=None,
                pooling=None, classes=1000, classifier_activation="softmax", name="densenet121"):
    return DenseNet([6, 12, 24, 16], include_top, weights, input_tensor, input_shape, pooling,
                    classes, classifier_activation, name=name)


def DenseNet169(include_top=True, weights="imagenet", input_tensor=None, input_shape=None,
                pooling=None, classes=1000, classifier_activation="softmax", name="densenet169"):
    return DenseNet([6, 12, 32, 32], include_top, weights, input_tensor, input_shape, pooling,
                    classes, classifier_activation, name=name)


def DenseNet201(include_top=True, weights="imagenet", input_tensor=None, input_shape=None,
                pooling=None, classes=1000, classifier_activation="softmax", name="densenet201"):
    return DenseNet([6, 12, 48, 32], include_top, weights, input_tensor, input_shape, pooling,
                    classes, classifier_activation, name=name)


for _constructor in (DenseNet121, DenseNet169, DenseNet201):
    _constructor.__doc__ = _DOC.format(name=_constructor.__name__)


def preprocess_input(x, data_format=None):
    """Torch-style preprocessing: scale to [0, 1], then normalise per channel."""
    return imagenet_utils.preprocess_input(x, data_format=data_format, mode="torch")


def decode_predictions(preds, top=5):
    """See `imagenet_utils.decode_predictions`."""
    return imagenet_utils.decode_predictions(preds, top=top)
