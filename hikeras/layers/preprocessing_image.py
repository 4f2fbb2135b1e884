"""Image preprocessing layers: resizing and cropping, and random augmentation.

`Resizing` and `CenterCrop` are deterministic. `RandomFlip`, `RandomCrop`,
`RandomBrightness` and `RandomContrast` (and the geometric and colour layers
built on this module's bases, in `preprocessing_geometric` and
`preprocessing_color`) augment unless told they are not training: as in Keras 3, a direct call augments (`call`'s `training` defaults
to True), `fit` augments, and `predict`/`evaluate` or `training=False` give
the identity (`RandomCrop` then crops the centre, see its docstring). Each
random layer draws from its own `numpy.random.Generator`: from `seed` when
given, else derived from the global seed (`hikeras.utils.set_random_seed`),
as `Dropout` does.

All take one image `(height, width, channels)` or a batch
`(batch, height, width, channels)` (channels first under
`data_format="channels_first"`). Resampling follows TensorFlow's
`tf.image.resize` with half-pixel centres, which is what Keras 3 calls; the
aspect-ratio crop and pad use Keras's integer arithmetic, so the same pixels
are kept. Every layer here is differentiable with respect to float inputs.
"""

import numbers

import numpy as np

from .. import backend, ops
from ..backend import SymbolicTensor
from ..utils.rng import make_generator
from .conv_arguments import standardize_data_format
from .layer import Layer

__all__ = ["Resizing", "CenterCrop", "RandomFlip", "RandomCrop", "RandomBrightness",
           "RandomContrast"]

_INTERPOLATIONS = ("bilinear", "nearest")
_FLIP_MODES = ("horizontal", "vertical", "horizontal_and_vertical")


# ----------------------------------------------------------------- arguments
def _is_number(value):
    return isinstance(value, numbers.Real) and not isinstance(value, bool)


def _positive_int(layer_name, argument, value):
    if not isinstance(value, (int, np.integer)) or isinstance(value, bool) or value < 1:
        raise ValueError(f"{layer_name} expects `{argument}` to be a positive integer. "
                         f"Received: {argument}={value!r}")
    return int(value)


def _factor_range(layer_name, factor, low, high):
    """Keras's reading of `factor`: a pair sorted, or a number `f` as `(max(-f, low), f)`."""
    message = (f"{layer_name} expects `factor` to be a number or a pair of numbers in "
               f"[{low}, {high}]. Received: factor={factor!r}")
    if isinstance(factor, (list, tuple)):
        if len(factor) != 2 or not all(_is_number(f) and low <= f <= high for f in factor):
            raise ValueError(message)
        return tuple(sorted(factor))
    if not _is_number(factor) or not low <= factor <= high:
        raise ValueError(message)
    return (max(-abs(factor), low), abs(factor))


def _value_range(layer_name, value_range):
    if (not isinstance(value_range, (list, tuple)) or len(value_range) != 2
            or not all(_is_number(v) for v in value_range)):
        raise ValueError(f"{layer_name} expects `value_range` to be a pair of numbers "
                         f"(low, high). Received: value_range={value_range!r}")
    return value_range


# -------------------------------------------------------------------- layout
def _spatial_axes(layer, shape):
    """The height and width axes of a single image or a batch of images."""
    if len(shape) not in (3, 4):
        raise ValueError(
            f"Layer '{layer.name}' ({type(layer).__name__}) expects a single image (rank 3) "
            f"or a batch of images (rank 4). Received: input_shape={tuple(shape)}")
    first = len(shape) - (2 if layer.data_format == "channels_first" else 3)
    return first, first + 1


def _with_size(shape, axes, size):
    shape = list(shape)
    for axis, length in zip(axes, size):
        shape[axis] = length
    return tuple(shape)


def _crop(images, axes, starts, size):
    key = [slice(None)] * len(images.shape)
    for axis, start, length in zip(axes, starts, size):
        key[axis] = slice(start, start + length)
    return backend.apply("getitem", images, key=tuple(key))


def _aspect_window(in_size, size, caster=float):
    """The centred window of the input with the target's aspect ratio, as Keras finds it.

    `in_size` and `size` are `(height, width)`; returns `(starts, lengths)`.
    Each side is `int(other_side * target_ratio)` clipped to `[1, side]`,
    computed in `caster`'s precision (Keras's resize uses float32).
    """
    (height, width), (target_h, target_w) = in_size, size
    crop_h = max(min(height, int(caster(width * target_h) / caster(target_w))), 1)
    crop_w = max(min(width, int(caster(height * target_w) / caster(target_h))), 1)
    starts = (int(caster(height - crop_h) / 2), int(caster(width - crop_w) / 2))
    return starts, (crop_h, crop_w)


def _pad_to_aspect(images, axes, size, fill_value):
    """Pads the short side evenly to the target's aspect ratio, as Keras does.

    Keras pads `start` rows (or columns) on both sides, where `start` is half
    the missing length rounded down, so an odd difference leaves one short.
    """
    height, width = (images.shape[a] for a in axes)
    target_h, target_w = size
    full_h = max(height, int(np.float32(width * target_h) / np.float32(target_w)))
    full_w = max(width, int(np.float32(height * target_w) / np.float32(target_h)))
    widths = [(0, 0)] * len(images.shape)
    for axis, full, have in zip(axes, (full_h, full_w), (height, width)):
        start = int(np.float32(full - have) / 2)
        widths[axis] = (start, start)
    if all(w == (0, 0) for w in widths):
        return images
    return ops.pad(images, widths, constant_values=fill_value)


def _resize(images, axes, size, interpolation):
    op = "resize_nearest" if interpolation == "nearest" else "resize_bilinear"
    return backend.apply(op, images, size=tuple(size), axes=tuple(axes))


def _smart_resize(images, axes, size):
    """Keras's `smart_resize`: the largest centred window of the target's aspect
    ratio, resized bilinearly to `size`."""
    starts, lengths = _aspect_window(tuple(images.shape[a] for a in axes), size)
    return _resize(_crop(images, axes, starts, lengths), axes, size, "bilinear")


def _to_float(layer, images):
    """Images in the layer's float dtype (integer images become floats)."""
    if np.dtype(images.dtype) == np.dtype(layer.dtype):
        return images
    return ops.cast(images, layer.dtype)


def _per_image_shape(images):
    """One value per image, broadcast over its pixels and channels."""
    return (images.shape[0], 1, 1, 1) if len(images.shape) == 4 else (1, 1, 1)


class _ImageLayer(Layer):
    """Shared by the layers here: the data format and the rank check."""

    def __init__(self, data_format=None, **kwargs):
        super().__init__(**kwargs)
        self.data_format = standardize_data_format(data_format)

    def compute_output_spec(self, inputs, training=None):
        _spatial_axes(self, inputs.shape)
        return SymbolicTensor(inputs.shape, self.dtype)

    def get_config(self):
        config = super().get_config()
        config["data_format"] = self.data_format
        return config


# ------------------------------------------------------------- deterministic
class Resizing(_ImageLayer):
    """Resizes images to `(height, width)`.

    Sampling uses half-pixel centres with edges clamped (TensorFlow's
    `tf.image.resize`, which Keras 3 calls). Integer images are rounded back
    to their dtype, as in Keras.

    Args:
        height, width: the output size.
        interpolation: `"bilinear"` (default) or `"nearest"`.
        crop_to_aspect_ratio: first crop the largest centred window with the
            output's aspect ratio, so the image is not distorted.
        pad_to_aspect_ratio: instead pad the short side evenly with
            `fill_value` to the output's aspect ratio.
        fill_mode: `"constant"`, the only mode (as in Keras).
        fill_value: the padding value for `pad_to_aspect_ratio`.
        antialias: must be False; anti-aliased downsampling is not supported.
        data_format: `"channels_last"` (default) or `"channels_first"`.

    >>> import numpy as np
    >>> Resizing(1, 4)(np.array([[[1.0], [3.0]]])).ravel().tolist()
    [1.0, 1.5, 2.5, 3.0]
    """

    def __init__(self, height, width, interpolation="bilinear", crop_to_aspect_ratio=False,
                 pad_to_aspect_ratio=False, fill_mode="constant", fill_value=0.0,
                 antialias=False, data_format=None, **kwargs):
        super().__init__(data_format=data_format, **kwargs)
        self.height = _positive_int("Resizing", "height", height)
        self.width = _positive_int("Resizing", "width", width)
        if interpolation not in _INTERPOLATIONS:
            raise ValueError(f"Resizing supports interpolation {_INTERPOLATIONS} "
                             f"('bicubic' and 'lanczos' are not implemented). "
                             f"Received: interpolation={interpolation!r}")
        if fill_mode != "constant":
            raise ValueError("Resizing supports only fill_mode='constant'. "
                             f"Received: fill_mode={fill_mode!r}")
        if crop_to_aspect_ratio and pad_to_aspect_ratio:
            raise ValueError("Resizing takes at most one of `crop_to_aspect_ratio` and "
                             "`pad_to_aspect_ratio`. Received: crop_to_aspect_ratio=True, "
                             "pad_to_aspect_ratio=True")
        if antialias:
            raise ValueError("Resizing does not implement anti-aliased resizing. "
                             f"Received: antialias={antialias!r}")
        if not _is_number(fill_value):
            raise ValueError(f"Resizing expects `fill_value` to be a number. "
                             f"Received: fill_value={fill_value!r}")
        self.interpolation = interpolation
        self.crop_to_aspect_ratio = bool(crop_to_aspect_ratio)
        self.pad_to_aspect_ratio = bool(pad_to_aspect_ratio)
        self.fill_mode = fill_mode
        self.fill_value = fill_value
        self.antialias = False

    def call(self, inputs):
        axes = _spatial_axes(self, inputs.shape)
        size = (self.height, self.width)
        images = inputs
        if self.crop_to_aspect_ratio:
            starts, lengths = _aspect_window(tuple(images.shape[a] for a in axes), size,
                                             np.float32)
            images = _crop(images, axes, starts, lengths)
        elif self.pad_to_aspect_ratio:
            images = _pad_to_aspect(images, axes, size, self.fill_value)
        resized = _resize(images, axes, size, self.interpolation)
        dtype = np.dtype(inputs.dtype)
        if np.issubdtype(dtype, np.integer) and np.dtype(resized.dtype) != dtype:
            info = np.iinfo(dtype)  # rounded and saturated back, as Keras does
            resized = ops.cast(ops.clip(ops.round(resized), info.min, info.max), dtype)
        return resized

    def compute_output_spec(self, inputs):
        axes = _spatial_axes(self, inputs.shape)
        return SymbolicTensor(_with_size(inputs.shape, axes, (self.height, self.width)),
                              inputs.dtype)

    def get_config(self):
        config = super().get_config()
        config.update({"height": self.height, "width": self.width,
                       "interpolation": self.interpolation,
                       "crop_to_aspect_ratio": self.crop_to_aspect_ratio,
                       "pad_to_aspect_ratio": self.pad_to_aspect_ratio,
                       "fill_mode": self.fill_mode, "fill_value": self.fill_value,
                       "antialias": self.antialias})
        return config


class CenterCrop(_ImageLayer):
    """Crops the centre `(height, width)` of images.

    The window starts at half the excess, rounded down. An image smaller than
    the target along either side is instead cropped to the largest centred
    window with the target's aspect ratio and resized bilinearly to the
    target, as Keras does. Outputs are floats.

    Args:
        height, width: the output size.
        data_format: `"channels_last"` (default) or `"channels_first"`.

    >>> import numpy as np
    >>> CenterCrop(1, 2)(np.arange(9.0).reshape(3, 3, 1)).ravel().tolist()
    [3.0, 4.0]
    """

    def __init__(self, height, width, data_format=None, **kwargs):
        super().__init__(data_format=data_format, **kwargs)
        self.height = _positive_int("CenterCrop", "height", height)
        self.width = _positive_int("CenterCrop", "width", width)

    def call(self, inputs):
        images = _to_float(self, inputs)
        axes = _spatial_axes(self, images.shape)
        size = (self.height, self.width)
        excess = [images.shape[a] - s for a, s in zip(axes, size)]
        if min(excess) >= 0:
            return _crop(images, axes, [e // 2 for e in excess], size)
        return _smart_resize(images, axes, size)

    def compute_output_spec(self, inputs):
        axes = _spatial_axes(self, inputs.shape)
        return SymbolicTensor(_with_size(inputs.shape, axes, (self.height, self.width)),
                              self.dtype)

    def get_config(self):
        config = super().get_config()
        config.update({"height": self.height, "width": self.width})
        return config


# -------------------------------------------------------------------- random
class _RandomImageLayer(_ImageLayer):
    """A layer that augments unless `training=False`, drawing from its own generator."""

    def __init__(self, seed=None, data_format=None, **kwargs):
        super().__init__(data_format=data_format, **kwargs)
        self.seed = seed
        self._rng = make_generator(seed)

    def call(self, inputs, training=True):
        images = _to_float(self, inputs)
        _spatial_axes(self, images.shape)
        return self._augment(images) if training else self._infer(images)

    def _infer(self, images):
        return images

    def get_config(self):
        config = super().get_config()
        config["seed"] = self.seed
        return config


class RandomFlip(_RandomImageLayer):
    """Randomly flips images in training: each with probability 1/2.

    In `"horizontal_and_vertical"` mode one draw per image decides both
    flips, as in Keras: an image is either left alone or flipped both ways.
    Outputs are floats; with `training=False` the layer is the identity.

    Args:
        mode: `"horizontal"` (left-right), `"vertical"` (top-bottom) or
            `"horizontal_and_vertical"` (default).
        seed: makes the flips reproducible; without it they derive from the
            global seed (`hikeras.utils.set_random_seed`).
        data_format: `"channels_last"` (default) or `"channels_first"`.

    >>> import numpy as np
    >>> x = np.arange(4.0).reshape(1, 1, 4, 1)
    >>> RandomFlip("horizontal", seed=1)(x, training=False).ravel().tolist()
    [0.0, 1.0, 2.0, 3.0]
    """

    def __init__(self, mode="horizontal_and_vertical", seed=None, data_format=None, **kwargs):
        super().__init__(seed=seed, data_format=data_format, **kwargs)
        if mode not in _FLIP_MODES:
            raise ValueError(f"RandomFlip expects `mode` to be one of {_FLIP_MODES}. "
                             f"Received: mode={mode!r}")
        self.mode = mode

    def _augment(self, images):
        height_axis, width_axis = _spatial_axes(self, images.shape)
        key = [slice(None)] * len(images.shape)
        if self.mode != "vertical":
            key[width_axis] = slice(None, None, -1)
        if self.mode != "horizontal":
            key[height_axis] = slice(None, None, -1)
        flipped = backend.apply("getitem", images, key=tuple(key))
        flips = self._rng.uniform(size=_per_image_shape(images)) <= 0.5
        return ops.where(flips, flipped, images)

    def get_config(self):
        config = super().get_config()
        config["mode"] = self.mode
        return config


class RandomCrop(_RandomImageLayer):
    """Crops a random `(height, width)` window of images in training.

    In training, one window position is drawn per batch, uniformly among all
    positions, and every image in the batch is cropped there. An input not
    larger than the target on both sides is instead cropped centrally (and
    resized where it is too small), as Keras does. Outside training the layer
    does what Keras documents (and Keras 2 did): the largest centred window
    with the target's aspect ratio, resized bilinearly to `(height, width)`.
    Outputs are floats.

    Args:
        height, width: the output size.
        seed: makes the windows reproducible; without it they derive from the
            global seed (`hikeras.utils.set_random_seed`).
        data_format: `"channels_last"` (default) or `"channels_first"`.

    >>> import numpy as np
    >>> RandomCrop(2, 2, seed=0)(np.zeros((3, 5, 4, 1)), training=True).shape
    (3, 2, 2, 1)
    """

    def __init__(self, height, width, seed=None, data_format=None, **kwargs):
        super().__init__(seed=seed, data_format=data_format, **kwargs)
        self.height = _positive_int("RandomCrop", "height", height)
        self.width = _positive_int("RandomCrop", "width", width)

    def _augment(self, images):
        axes = _spatial_axes(self, images.shape)
        in_size = tuple(images.shape[a] for a in axes)
        size = (self.height, self.width)
        if in_size[0] > size[0] and in_size[1] > size[1]:
            starts = [int(self._rng.integers(0, have - want + 1))
                      for have, want in zip(in_size, size)]
            return _crop(images, axes, starts, size)
        # Keras slices the target size from where the centred aspect window
        # starts, then resizes whatever that leaves to the target.
        starts, _ = _aspect_window(in_size, size)
        images = _crop(images, axes, starts, size)
        if tuple(images.shape[a] for a in axes) != size:
            images = _resize(images, axes, size, "bilinear")
        return images

    def _infer(self, images):
        return _smart_resize(images, _spatial_axes(self, images.shape),
                             (self.height, self.width))

    def compute_output_spec(self, inputs, training=None):
        axes = _spatial_axes(self, inputs.shape)
        return SymbolicTensor(_with_size(inputs.shape, axes, (self.height, self.width)),
                              self.dtype)

    def get_config(self):
        config = super().get_config()
        config.update({"height": self.height, "width": self.width})
        return config


class RandomBrightness(_RandomImageLayer):
    """Adds a random brightness offset to each image in training.

    Each image gets `delta * (high - low)` added to every pixel and channel,
    with `delta` drawn uniformly from the factor's range, and the result is
    clipped to `value_range = (low, high)`. Outputs are floats; outside
    training the layer is the identity.

    Args:
        factor: a number `f` in [0, 1] for the range `[-f, f]`, or a pair
            `(lower, upper)` within [-1, 1].
        value_range: the `(low, high)` range of the pixel values.
        seed: makes the offsets reproducible; without it they derive from the
            global seed (`hikeras.utils.set_random_seed`).

    >>> import numpy as np
    >>> out = RandomBrightness((0.5, 0.5), value_range=(0, 1))(
    ...     np.full((1, 2, 2, 1), 0.25), training=True)
    >>> out.ravel().tolist()
    [0.75, 0.75, 0.75, 0.75]
    """

    def __init__(self, factor, value_range=(0, 255), seed=None, **kwargs):
        super().__init__(seed=seed, **kwargs)
        self.factor = _factor_range("RandomBrightness", factor, -1, 1)
        self.value_range = sorted(_value_range("RandomBrightness", value_range))

    def _augment(self, images):
        low, high = self.value_range
        delta = self._rng.uniform(*self.factor, size=_per_image_shape(images)) * (high - low)
        return ops.clip(ops.add(images, delta.astype(self.dtype)), low, high)

    def get_config(self):
        config = super().get_config()
        config.update({"factor": self.factor, "value_range": self.value_range})
        return config


class RandomContrast(_RandomImageLayer):
    """Scales each image's contrast by a random factor in training.

    Each image and channel becomes `(x - mean) * c + mean`, where `mean` is
    that image's mean over its pixels and `c` is drawn per image uniformly
    from `[1 - lower, 1 + upper]`; the result is clipped to `value_range`.
    As in Keras 3, a single number `f` gives `(lower, upper) = (0, f)`, so
    contrast is only ever raised; pass a pair to lower it too. Outputs are
    floats; outside training the layer is the identity.

    Args:
        factor: a number `f` in [0, 1], or a pair `(lower, upper)` in [0, 1].
        value_range: the `(low, high)` range of the pixel values.
        seed: makes the factors reproducible; without it they derive from the
            global seed (`hikeras.utils.set_random_seed`).
        data_format: `"channels_last"` (default) or `"channels_first"`.

    >>> import numpy as np
    >>> x = np.array([[[0.25], [0.75]]])
    >>> out = RandomContrast(0.5, value_range=(0, 1), seed=0)(x, training=True)
    >>> bool(out[0, 0, 0] <= 0.25 and out[0, 1, 0] >= 0.75), round(float(out.mean()), 6)
    (True, 0.5)
    """

    def __init__(self, factor, value_range=(0, 255), seed=None, **kwargs):
        super().__init__(seed=seed, **kwargs)
        self.factor = _factor_range("RandomContrast", factor, 0, 1)
        self.value_range = _value_range("RandomContrast", value_range)

    def _augment(self, images):
        lower, upper = self.factor
        contrast = self._rng.uniform(1.0 - lower, 1.0 + upper, size=_per_image_shape(images))
        mean = ops.mean(images, axis=_spatial_axes(self, images.shape), keepdims=True)
        scaled = ops.add(ops.multiply(ops.subtract(images, mean), contrast.astype(self.dtype)),
                         mean)
        return ops.clip(scaled, *sorted(self.value_range))

    def get_config(self):
        config = super().get_config()
        config.update({"factor": self.factor, "value_range": self.value_range})
        return config
