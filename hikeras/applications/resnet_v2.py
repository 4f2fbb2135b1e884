"""ResNet V2 (He et al., 2016: pre-activation blocks), as `keras.applications.resnet_v2`."""

from . import imagenet_utils
from .resnet import _DOC, ResNet, stack_residual_blocks_v2

__all__ = ["ResNet50V2", "ResNet101V2", "ResNet152V2", "decode_predictions", "preprocess_input"]


def _resnet_v2(depths, weights_name, name, **kwargs):
    def stack_fn(x):
        x = stack_residual_blocks_v2(x, 64, depths[0], name="conv2")
        x = stack_residual_blocks_v2(x, 128, depths[1], name="conv3")
        x = stack_residual_blocks_v2(x, 256, depths[2], name="conv4")
        return stack_residual_blocks_v2(x, 512, depths[3], stride1=1, name="conv5")

    return ResNet(stack_fn, preact=True, use_bias=True, name=name, weights_name=weights_name,
                  **kwargs)


def ResNet50V2(include_top=True, weights="imagenet", input_tensor=None, input_shape=None,
               pooling=None, classes=1000, classifier_activation="softmax", name="resnet50v2"):
    return _resnet_v2((3, 4, 6, 3), "resnet50v2", name, include_top=include_top,
                      weights=weights, input_tensor=input_tensor, input_shape=input_shape,
                      pooling=pooling, classes=classes,
                      classifier_activation=classifier_activation)


def ResNet101V2(include_top=True, weights="imagenet", input_tensor=None, input_shape=None,
                pooling=None, classes=1000, classifier_activation="softmax", name="resnet101v2"):
    return _resnet_v2((3, 4, 23, 3), "resnet101v2", name, include_top=include_top,
                      weights=weights, input_tensor=input_tensor, input_shape=input_shape,
                      pooling=pooling, classes=classes,
                      classifier_activation=classifier_activation)


def ResNet152V2(include_top=True, weights="imagenet", input_tensor=None, input_shape=None,
                pooling=None, classes=1000, classifier_activation="softmax", name="resnet152v2"):
    return _resnet_v2((3, 8, 36, 3), "resnet152v2", name, include_top=include_top,
                      weights=weights, input_tensor=input_tensor, input_shape=input_shape,
                      pooling=pooling, classes=classes,
                      classifier_activation=classifier_activation)


for _constructor in (ResNet50V2, ResNet101V2, ResNet152V2):
    _constructor.__doc__ = _DOC.format(name=_constructor.__name__, module="resnet_v2")


def preprocess_input(x, data_format=None):
    """TF-style preprocessing: scale pixels to [-1, 1]."""
    return imagenet_utils.preprocess_input(x, data_format=data_format, mode="tf")


def decode_predictions(preds, top=5):
    """See `imagenet_utils.decode_predictions`."""
    return imagenet_utils.decode_predictions(preds, top=top)
