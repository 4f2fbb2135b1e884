"""VGG19 (Simonyan & Zisserman, 2015), as `keras.applications.vgg19`."""

from . import imagenet_utils
from ._vgg import build_vgg

__all__ = ["VGG19", "decode_predictions", "preprocess_input"]

# MD5 of Keras's published files: (with the top, without it).
WEIGHTS_HASHES = ("cbe5617147190e668d6c5d5026f83318", "253f8cb515780f3b799900260a226db6")


def VGG19(include_top=True, weights="imagenet", input_tensor=None, input_shape=None, pooling=None,
          classes=1000, classifier_activation="softmax", name="vgg19"):
    """Instantiates the VGG19 model.

    Args:
        include_top: whether to include the 3 fully-connected layers at the top.
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
        A functional `Model`.

    >>> model = VGG19(weights=None, include_top=False, input_shape=(32, 32, 3), pooling="avg")
    >>> model.outputs[0].shape
    (None, 512)
    """
    return build_vgg("VGG19", (2, 2, 4, 4, 4), include_top, weights, input_tensor, input_shape,
                     pooling, classes, classifier_activation, name, WEIGHTS_HASHES)


def preprocess_input(x, data_format=None):
    """Caffe-style preprocessing: RGB to BGR, then subtract ImageNet's mean per channel."""
    return imagenet_utils.preprocess_input(x, data_format=data_format, mode="caffe")


def decode_predictions(preds, top=5):
    """See `imagenet_utils.decode_predictions`."""
    return imagenet_utils.decode_predictions(preds, top=top)
