"""ImageNet helpers shared by the applications, as Keras's `keras.applications.imagenet_utils`.

`preprocess_input` scales images the way each published network was trained
(`"caffe"`, `"tf"` or `"torch"` mode), `decode_predictions` names the top
classes of a 1000-way prediction (reading `imagenet_class_index.json` from
the Keras cache, never downloading), and `obtain_input_shape` validates a
constructor's `input_shape` as Keras does.
"""

import json
import warnings

import numpy as np

from .. import activations, backend, ops
from ._weights import PublishedFile, find_published_file

CLASS_INDEX_FILE = PublishedFile(
    "imagenet_class_index.json",
    "https://storage.googleapis.com/download.tensorflow.org/data/imagenet_class_index.json",
    "c2c37ea517e94d9795004a39431a14cb",
)

_CLASS_INDEX = None
_MODES = ("caffe", "tf", "torch")
_CAFFE_MEAN = (103.939, 116.779, 123.68)  # BGR order
_TORCH_MEAN = (0.485, 0.456, 0.406)
_TORCH_STD = (0.229, 0.224, 0.225)


def preprocess_input(x, data_format=None, mode="caffe"):
    """Preprocesses a batch of images (values in [0, 255]) for an ImageNet network.

    Args:
        x: a float or integer numpy array, or a symbolic tensor, 3D or 4D with
            3 colour channels. A float numpy array is modified in place (as in
            Keras); pass `np.copy(x)` to keep the original.
        data_format: `"channels_last"` or `"channels_first"`; default
            `hikeras.backend.image_data_format()`.
        mode: `"caffe"` (RGB to BGR, then subtract the ImageNet mean per
            channel, no scaling), `"tf"` (scale to [-1, 1]) or `"torch"`
            (scale to [0, 1], then normalise per channel with ImageNet's mean
            and standard deviation).

    Returns:
        The preprocessed float array (or tensor).

    >>> import numpy as np
    >>> preprocess_input(np.array([[0.0, 127.5, 255.0]]), mode="tf")
    array([[-1.,  0.,  1.]])
    """
    if mode not in _MODES:
        raise ValueError(f"Expected mode to be one of `caffe`, `tf` or `torch`. "
                         f"Received: mode={mode!r}")
    data_format = _check_data_format(data_format)
    if isinstance(x, np.ndarray):
        return _preprocess_numpy(x, data_format, mode)
    return _preprocess_tensor(x, data_format, mode)


def _check_data_format(data_format):
    if data_format is None:
        return backend.image_data_format()
    if data_format not in ("channels_first", "channels_last"):
        raise ValueError("Expected data_format to be one of `channels_first` or `channels_last`. "
                         f"Received: data_format={data_format!r}")
    return data_format


def _channel_view(x, data_format):
    """`x` with its channel axis last (a view), so one code path serves both layouts."""
    if data_format == "channels_last":
        return x
    axis = 0 if x.ndim == 3 else 1
    return np.moveaxis(x, axis, -1)


def _preprocess_numpy(x, data_format, mode):
    if not np.issubdtype(x.dtype, np.floating):
        x = x.astype(backend.floatx())
    if mode == "tf":
        x /= 127.5
        x -= 1.0
        return x
    if mode == "torch":
        x /= 255.0
        mean, std = _TORCH_MEAN, _TORCH_STD
    else:
        x = np.flip(x, axis=-1 if data_format == "channels_last" else x.ndim - 3)  # RGB -> BGR
        mean, std = _CAFFE_MEAN, None
    channels = _channel_view(x, data_format)
    channels -= np.asarray(mean, dtype=x.dtype)
    if std is not None:
        channels /= np.asarray(std, dtype=x.dtype)
    return x


def _preprocess_tensor(x, data_format, mode):
    ndim = len(x.shape)
    if mode == "tf":
        return x / 127.5 - 1.0
    channel_axis = -1 if data_format == "channels_last" else (0 if ndim == 3 else 1)
    if mode == "torch":
        x = x / 255.0
        mean, std = _TORCH_MEAN, _TORCH_STD
    else:
        x = ops.stack([_take_channel(x, i, channel_axis) for i in (2, 1, 0)],
                      axis=channel_axis)
        mean, std = _CAFFE_MEAN, None
    shape = [1] * ndim
    shape[channel_axis] = 3
    x = x + ops.convert_to_tensor(-np.reshape(np.asarray(mean, "float32"), shape))
    if std is not None:
        x = x / ops.convert_to_tensor(np.reshape(np.asarray(std, "float32"), shape))
    return x


def _take_channel(x, index, channel_axis):
    if channel_axis == -1:
        return x[..., index]
    if channel_axis == 0:
        return x[index]
    return x[:, index]


def decode_predictions(preds, top=5):
    """Names the `top` classes of each row of a `(samples, 1000)` ImageNet prediction.

    Reads `imagenet_class_index.json` from the Keras cache (`$KERAS_HOME/models`
    or `~/.keras/models`); when it is missing, the error gives its URL and where
    to put it. Nothing is downloaded.

    Returns:
        One list per sample of `(class_name, class_description, score)`
        tuples, best first.
    """
    global _CLASS_INDEX
    preds = np.asarray(ops.convert_to_numpy(preds))
    if preds.ndim != 2 or preds.shape[1] != 1000:
        raise ValueError("`decode_predictions` expects a batch of predictions "
                         "(i.e. a 2D array of shape (samples, 1000)). "
                         f"Received array with shape: {preds.shape}")
    if _CLASS_INDEX is None:
        path = find_published_file(CLASS_INDEX_FILE, "the ImageNet class names")
        with open(path, encoding="utf-8") as f:
            _CLASS_INDEX = json.load(f)
    results = []
    for pred in preds:
        best = np.argsort(pred)[-top:][::-1]
        results.append([tuple(_CLASS_INDEX[str(i)]) + (pred[i],) for i in best])
    return results


def obtain_input_shape(input_shape, default_size, min_size, data_format, require_flatten,
                       weights=None):
    """Validates a constructor's `input_shape` and fills in its default (Keras's rules).

    Args:
        input_shape: `None` or the user's shape (without the batch axis).
        default_size: the network's default height and width.
        min_size: the smallest height and width it accepts.
        data_format: `"channels_last"` or `"channels_first"`.
        require_flatten: whether the classifier top is included (then the
            shape must be static, and equal to the default with ImageNet weights).
        weights: the constructor's `weights` argument.

    Returns:
        The input shape, a tuple that may contain `None`.

    >>> obtain_input_shape(None, 224, 32, "channels_last", require_flatten=False)
    (None, None, 3)
    """
    channels_last = data_format != "channels_first"
    if weights != "imagenet" and input_shape and len(input_shape) == 3:
        channels = input_shape[-1] if channels_last else input_shape[0]
        if channels not in (1, 3):
            warnings.warn("This model usually expects 1 or 3 input channels. However, it was "
                          f"passed an input_shape with {channels} input channels.", stacklevel=3)
        spatial = (default_size, default_size)
        default_shape = spatial + (channels,) if channels_last else (channels,) + spatial
    else:
        default_shape = ((default_size, default_size, 3) if channels_last
                         else (3, default_size, default_size))
    if weights == "imagenet" and require_flatten:
        if input_shape is not None and tuple(input_shape) != default_shape:
            raise ValueError("When setting `include_top=True` and loading `imagenet` weights, "
                             f"`input_shape` should be {default_shape}. "
                             f"Received: input_shape={input_shape}")
        return default_shape
    if input_shape:
        input_shape = tuple(input_shape)
        if len(input_shape) != 3:
            raise ValueError("`input_shape` must be a tuple of three integers. "
                             f"Received: input_shape={input_shape}")
        channels = input_shape[-1] if channels_last else input_shape[0]
        if channels != 3 and weights == "imagenet":
            raise ValueError(f"The input must have 3 channels; Received: input_shape={input_shape}")
        spatial = input_shape[:2] if channels_last else input_shape[1:]
        if any(size is not None and size < min_size for size in spatial):
            raise ValueError(f"Input size must be at least {min_size}x{min_size}; "
                             f"Received: input_shape={input_shape}")
    elif require_flatten:
        input_shape = default_shape
    else:
        input_shape = (None, None, 3) if channels_last else (3, None, None)
    if require_flatten and None in input_shape:
        raise ValueError("If `include_top` is True, you should specify a static `input_shape`. "
                         f"Received: input_shape={input_shape}")
    return input_shape


def correct_pad(inputs, kernel_size):
    """The `ZeroPadding2D` padding that makes a strided 'valid' convolution match TF's 'same'.

    >>> import hikeras
    >>> correct_pad(hikeras.Input((32, 32, 3)), 3)
    ((0, 1), (0, 1))
    """
    first = 2 if backend.image_data_format() == "channels_first" else 1
    size = inputs.shape[first:first + 2]
    if isinstance(kernel_size, int):
        kernel_size = (kernel_size, kernel_size)
    adjust = (1, 1) if size[0] is None else (1 - size[0] % 2, 1 - size[1] % 2)
    correct = (kernel_size[0] // 2, kernel_size[1] // 2)
    return ((correct[0] - adjust[0], correct[0]), (correct[1] - adjust[1], correct[1]))


def validate_activation(classifier_activation, weights):
    """With pretrained weights, the classifier's activation must be `None` or `"softmax"`."""
    if weights is None:
        return
    activation = activations.get(classifier_activation)
    if activation not in (activations.get("softmax"), activations.get(None)):
        raise ValueError("Only `None` and `softmax` activations are allowed for the "
                         "`classifier_activation` argument when using pretrained weights, "
                         "with `include_top=True`; "
                         f"Received: classifier_activation={classifier_activation!r}")
