"""Colour augmentation layers: grayscale, inversion, solarisation, posterisation,
auto-contrast, saturation and hue.

They share the image layers' conventions (`base_image_layer`): one image
or a batch, either data format, float outputs, and, for the random ones, a
direct call or `fit` augments while `training=False` or `predict` gives the
identity, with draws from the layer's own generator (`seed`, else the global
seed). Each random layer draws its parameters per image. `AutoContrast` is
not random and applies in inference too, as in Keras 3.

Colour values are read relative to `value_range = (low, high)`: the layers
work on values rescaled to `[0, 255]` (or `[0, 1]` for hue and saturation)
and rescale back, so `(0, 1)` and `(0, 255)` images give the same
augmentation. Hue and saturation use TensorFlow's RGB <-> HSV formulas
(`tf.image.rgb_to_hsv`), which Keras calls; all of it is written with
`ops`, so gradients flow where the operation has them.
"""

import numpy as np

from .... import ops
from .base_image_layer import (
    _factor_range,
    _ImageLayer,
    _is_number,
    _per_image_shape,
    _RandomImageLayer,
    _spatial_axes,
    _to_float,
    _value_range,
)

__all__ = ["RandomGrayscale", "RandomInvert", "Solarization", "RandomPosterization",
           "AutoContrast", "RandomSaturation", "RandomHue"]

# The ITU-R 601 luma weights, rounded as tf.image.rgb_to_grayscale rounds them.
_GRAY_WEIGHTS = (0.2989, 0.5870, 0.1140)
_EPSILON = 1e-7  # Keras's backend epsilon, in the saturation factor's odds


# ----------------------------------------------------------------- helpers
def _channel_axis(layer, images):
    height_axis, _ = _spatial_axes(layer, images.shape)
    if layer.data_format == "channels_first":
        return height_axis - 1
    return len(images.shape) - 1


def _rgb(layer, images):
    """The red, green and blue planes (channel axis kept), checking for 3 channels."""
    axis = _channel_axis(layer, images)
    if images.shape[axis] != 3:
        raise ValueError(f"{type(layer).__name__} expects RGB images (3 channels). "
                         f"Received: input_shape={tuple(images.shape)}")
    return ops.split(images, 3, axis=axis), axis


def _rescale(images, source, target):
    """Maps `source = (low, high)` linearly onto `target`."""
    (s_low, s_high), (t_low, t_high) = source, target
    if (s_low, s_high) == (t_low, t_high):
        return images
    scale = (t_high - t_low) / (s_high - s_low)
    return ops.add(ops.multiply(ops.subtract(images, s_low), scale), t_low)


def _safe(denominator):
    """The denominator with its zeros replaced by ones (their quotients are masked out)."""
    return ops.where(ops.greater(denominator, 0.0), denominator, 1.0)


def _rgb_to_hsv(red, green, blue):
    """TensorFlow's `rgb_to_hsv` on `[0, 1]` planes: hue and saturation in [0, 1]."""
    value = ops.maximum(ops.maximum(red, green), blue)
    spread = ops.subtract(value, ops.minimum(ops.minimum(red, green), blue))
    saturation = ops.where(ops.greater(value, 0.0), ops.divide(spread, _safe(value)), 0.0)
    norm = ops.divide(1.0 / 6.0, _safe(spread))
    hue = ops.where(
        ops.equal(red, value), ops.multiply(norm, ops.subtract(green, blue)),
        ops.where(ops.equal(green, value),
                  ops.add(ops.multiply(norm, ops.subtract(blue, red)), 2.0 / 6.0),
                  ops.add(ops.multiply(norm, ops.subtract(red, green)), 4.0 / 6.0)))
    hue = ops.where(ops.greater(spread, 0.0), hue, 0.0)
    hue = ops.where(ops.less(hue, 0.0), ops.add(hue, 1.0), hue)
    return hue, saturation, value


def _hsv_to_rgb(hue, saturation, value):
    """TensorFlow's `hsv_to_rgb`: each channel a piecewise-linear ramp of the hue."""
    sixths = ops.multiply(hue, 6.0)
    ramps = [ops.clip(ops.subtract(ops.abs(ops.subtract(sixths, 3.0)), 1.0), 0.0, 1.0)]
    for centre in (2.0, 4.0):
        ramps.append(ops.clip(ops.subtract(2.0, ops.abs(ops.subtract(sixths, centre))),
                              0.0, 1.0))
    grey = ops.subtract(1.0, saturation)
    return [ops.multiply(ops.add(grey, ops.multiply(saturation, ramp)), value)
            for ramp in ramps]


def _pair(layer_name, argument, value, low, high, single):
    """A factor as a sorted pair in [low, high]; a number `f` becomes `single(f)`."""
    message = (f"{layer_name} expects `{argument}` to be a number or a pair of numbers in "
               f"[{low}, {high}]. Received: {argument}={value!r}")
    values = list(value) if isinstance(value, (list, tuple)) else [value]
    if ((isinstance(value, (list, tuple)) and len(value) != 2)
            or not all(_is_number(v) and low <= v <= high for v in values)):
        raise ValueError(message)
    return tuple(sorted(values)) if isinstance(value, (list, tuple)) else single(value)


class _ColorLayer(_RandomImageLayer):
    """A random colour layer with a `value_range`."""

    _keeps_boxes = True  # changes pixel values, not where they are

    def __init__(self, value_range=(0, 255), seed=None, data_format=None, **kwargs):
        super().__init__(seed=seed, data_format=data_format, **kwargs)
        self.value_range = sorted(_value_range(type(self).__name__, value_range))

    def _per_image(self, images, low=0.0, high=1.0):
        return self._rng.uniform(low, high, size=_per_image_shape(images)).astype(self.dtype)

    def get_config(self):
        config = super().get_config()
        config["value_range"] = self.value_range
        return config


# ------------------------------------------------------------------- layers
class RandomGrayscale(_RandomImageLayer):
    """Turns each image grey with probability `factor` in training.

    A grey image keeps its channels, each set to the luma
    `0.2989 R + 0.5870 G + 0.1140 B` (`tf.image.rgb_to_grayscale`'s weights).
    Images must have 3 channels, or 1 (left as they are). Outputs are floats;
    outside training the layer is the identity.

    Args:
        factor: the probability in [0, 1] that an image turns grey.
        data_format: `"channels_last"` (default) or `"channels_first"`.
        seed: makes the draws reproducible; without it they derive from the
            global seed (`hikeras.utils.set_random_seed`).

    >>> import numpy as np
    >>> out = RandomGrayscale(1.0)(np.array([[[100.0, 50.0, 200.0]]]))
    >>> [round(float(v), 2) for v in out.ravel()]
    [82.04, 82.04, 82.04]
    """

    _keeps_boxes = True  # changes pixel values, not where they are

    def __init__(self, factor=0.5, data_format=None, seed=None, **kwargs):
        super().__init__(seed=seed, data_format=data_format, **kwargs)
        if not _is_number(factor) or not 0 <= factor <= 1:
            raise ValueError("RandomGrayscale expects `factor` to be a number in [0, 1]. "
                             f"Received: factor={factor!r}")
        self.factor = factor

    def _augment(self, images):
        axis = _channel_axis(self, images)
        if images.shape[axis] == 1:
            return images
        (red, green, blue), _ = _rgb(self, images)
        gray = ops.add(ops.add(ops.multiply(red, _GRAY_WEIGHTS[0]),
                               ops.multiply(green, _GRAY_WEIGHTS[1])),
                       ops.multiply(blue, _GRAY_WEIGHTS[2]))
        apply = self._rng.uniform(size=_per_image_shape(images)) < self.factor
        return ops.where(apply, gray, images)

    def get_config(self):
        config = super().get_config()
        config["factor"] = self.factor
        return config


class RandomInvert(_ColorLayer):
    """Inverts the colours of some images in training: `x -> low + high - x`.

    As in Keras 3, each image first draws a probability `p` uniformly from
    the factor's range and is then inverted with probability `p`: the
    default `factor=1.0` (range `[0, 1]`) inverts half the images on
    average, and `(1, 1)` inverts all of them. Outputs are floats; outside
    training the layer is the identity.

    Args:
        factor: a number `f` in [0, 1] for the range `[0, f]`, or a pair
            `(lower, upper)` in [0, 1].
        value_range: the `(low, high)` range of the pixel values.
        seed: makes the draws reproducible; without it they derive from the
            global seed (`hikeras.utils.set_random_seed`).

    >>> import numpy as np
    >>> RandomInvert((1, 1))(np.array([[[0.0, 55.0, 255.0]]])).tolist()
    [[[255.0, 200.0, 0.0]]]
    """

    def __init__(self, factor=1.0, value_range=(0, 255), seed=None, **kwargs):
        super().__init__(value_range=value_range, seed=seed, **kwargs)
        self.factor = _factor_range("RandomInvert", factor, 0, 1)

    def _augment(self, images):
        probability = self._per_image(images, *self.factor)
        apply = self._per_image(images) < probability
        low, high = self.value_range
        return ops.where(apply, ops.subtract(low + high, images), images)

    def get_config(self):
        config = super().get_config()
        config["factor"] = self.factor
        return config


class Solarization(_ColorLayer):
    """Solarises images in training: inverts the pixels at or above a threshold.

    On the scale where `value_range` is `[0, 255]`, each image draws an
    addition `a` from `addition_factor * 255` and a threshold `t` from
    `threshold_factor * 255`; a value `x` becomes `y = clip(x + a, 0, 255)`
    and then `255 - y` where `y >= t`. With both factors 0 (the defaults)
    every image is fully inverted. Outputs are floats; outside training the
    layer is the identity.

    Args:
        addition_factor: a number `f` in [0, 1] for the range `[0, f]`, or a
            pair `(lower, upper)` in [0, 1].
        threshold_factor: the same, for the threshold.
        value_range: the `(low, high)` range of the pixel values.
        seed: makes the draws reproducible; without it they derive from the
            global seed (`hikeras.utils.set_random_seed`).

    >>> import numpy as np
    >>> layer = Solarization(threshold_factor=(0.5, 0.5), value_range=(0, 1))
    >>> layer(np.array([[[0.25, 0.5, 0.75]]])).tolist()
    [[[0.25, 0.5, 0.25]]]
    """

    def __init__(self, addition_factor=0.0, threshold_factor=0.0, value_range=(0, 255),
                 seed=None, **kwargs):
        super().__init__(value_range=value_range, seed=seed, **kwargs)
        self.addition_factor = _pair("Solarization", "addition_factor", addition_factor, 0, 1,
                                     lambda f: (0, f))
        self.threshold_factor = _pair("Solarization", "threshold_factor", threshold_factor,
                                      0, 1, lambda f: (0, f))

    def _augment(self, images):
        addition = self._per_image(images, *(255.0 * f for f in self.addition_factor))
        threshold = self._per_image(images, *(255.0 * f for f in self.threshold_factor))
        shifted = ops.clip(ops.add(_rescale(images, self.value_range, (0, 255)), addition),
                           0.0, 255.0)
        solarised = ops.where(ops.less(shifted, threshold), shifted,
                              ops.subtract(255.0, shifted))
        return _rescale(solarised, (0, 255), self.value_range)

    def get_config(self):
        config = super().get_config()
        config.update({"addition_factor": self.addition_factor,
                       "threshold_factor": self.threshold_factor})
        return config


class RandomPosterization(_ColorLayer):
    """Keeps only the top `bits` bits of each 8-bit colour value in training.

    On the scale where `value_range` is `[0, 255]`, values are clipped to
    `[0, 255]`, truncated to integers and rounded down to a multiple of
    `2 ** (8 - bits)`. Each image draws `bits` uniformly from the integers
    `lower, ..., upper - 1` (as Keras draws, excluding `upper`), or is
    given `bits = lower` when the two are equal. Outputs are floats; outside
    training the layer is the identity.

    Args:
        factor: the number of bits kept: an integer `f` in [1, 8] for the
            range `(1, f)`, or a pair of integers `(lower, upper)` in [1, 8].
        value_range: the `(low, high)` range of the pixel values.
        data_format: `"channels_last"` (default) or `"channels_first"`.
        seed: makes the draws reproducible; without it they derive from the
            global seed (`hikeras.utils.set_random_seed`).

    >>> import numpy as np
    >>> RandomPosterization((2, 2))(np.array([[[10.0, 100.0, 255.0]]])).tolist()
    [[[0.0, 64.0, 192.0]]]
    """

    def __init__(self, factor, value_range=(0, 255), data_format=None, seed=None, **kwargs):
        super().__init__(value_range=value_range, seed=seed, data_format=data_format, **kwargs)
        values = list(factor) if isinstance(factor, (list, tuple)) else [factor]
        if ((isinstance(factor, (list, tuple)) and len(factor) != 2)
                or not all(_is_number(v) and v == int(v) and 1 <= v <= 8 for v in values)):
            raise ValueError("RandomPosterization expects `factor` to be an integer or a pair "
                             f"of integers in [1, 8]. Received: factor={factor!r}")
        values = sorted(int(v) for v in values)
        self.factor = tuple(values) if len(values) == 2 else (1, values[0])

    def _augment(self, images):
        lower, upper = self.factor
        size = _per_image_shape(images)
        if lower == upper:
            bits = np.full(size, lower)
        else:
            bits = self._rng.integers(lower, upper, size=size)
        step = (2.0 ** (8 - bits)).astype(self.dtype)
        levels = ops.floor(ops.clip(_rescale(images, self.value_range, (0, 255)), 0.0, 255.0))
        posterised = ops.multiply(ops.floor(ops.divide(levels, step)), step)
        return _rescale(posterised, (0, 255), self.value_range)

    def get_config(self):
        config = super().get_config()
        config["factor"] = self.factor
        return config


class AutoContrast(_ImageLayer):
    """Stretches each channel of each image to fill `value_range`.

    Per image and channel, the smallest value becomes `low` and the largest
    `high`, linearly; a constant channel is left as it is. Not random: the
    layer applies in training and inference alike, as in Keras 3. Outputs
    are floats.

    Args:
        value_range: the `(low, high)` range of the pixel values.
        data_format: `"channels_last"` (default) or `"channels_first"`.

    >>> import numpy as np
    >>> AutoContrast()(np.array([[[50.0], [100.0], [150.0]]])).ravel().tolist()
    [0.0, 127.5, 255.0]
    """

    _keeps_boxes = True  # changes pixel values, not where they are

    def __init__(self, value_range=(0, 255), data_format=None, **kwargs):
        super().__init__(data_format=data_format, **kwargs)
        self.value_range = sorted(_value_range("AutoContrast", value_range))

    def call(self, inputs, training=None):
        if isinstance(inputs, dict):
            return self._call_data(inputs, training=training)
        images = _to_float(self, inputs)
        axes = _spatial_axes(self, images.shape)
        low = ops.min(images, axis=axes, keepdims=True)
        high = ops.max(images, axis=axes, keepdims=True)
        spread = ops.subtract(high, low)
        stretched = ops.divide(ops.subtract(images, low), _safe(spread))
        out_low, out_high = self.value_range
        stretched = ops.add(ops.multiply(stretched, out_high - out_low), out_low)
        return ops.where(ops.greater(spread, 0.0), stretched, images)

    def get_config(self):
        config = super().get_config()
        config["value_range"] = self.value_range
        return config


class _HSVLayer(_ColorLayer):
    """Adjusts images in HSV: `_adjust(images, hue, saturation, value)` -> new HSV."""

    def _augment(self, images):
        (red, green, blue), axis = _rgb(self, _rescale(images, self.value_range, (0, 1)))
        hsv = self._adjust(images, *_rgb_to_hsv(red, green, blue))
        rgb = ops.clip(ops.concatenate(_hsv_to_rgb(*hsv), axis=axis), 0.0, 1.0)
        return _rescale(rgb, (0, 1), self.value_range)


class RandomSaturation(_HSVLayer):
    """Scales each image's colour saturation by a random amount in training.

    Each image draws `u` uniformly from the factor's range and multiplies
    its HSV saturation by `u / (1 - u)`, clipped to [0, 1]: `u = 0.5` keeps
    the image, `u <= 0` makes it grey and `u = 1` fully saturated. As in
    Keras 3, a single number `f` gives the range `[-f, f]`, so about half
    the draws turn the image grey; pass a pair for anything else. Outputs are
    floats; outside training the layer is the identity.

    Args:
        factor: a number `f` in [0, 1] for `[-f, f]`, or a pair `(lower,
            upper)` within [-1, 1].
        value_range: the `(low, high)` range of the pixel values.
        data_format: `"channels_last"` (default) or `"channels_first"`.
        seed: makes the draws reproducible; without it they derive from the
            global seed (`hikeras.utils.set_random_seed`).

    >>> import numpy as np
    >>> x = np.array([[[0.8, 0.4, 0.2]]])
    >>> out = RandomSaturation((0.0, 0.0), value_range=(0, 1))(x)
    >>> [round(float(v), 4) for v in out.ravel()]
    [0.8, 0.8, 0.8]
    """

    def __init__(self, factor, value_range=(0, 255), data_format=None, seed=None, **kwargs):
        super().__init__(value_range=value_range, seed=seed, data_format=data_format, **kwargs)
        self.factor = _factor_range("RandomSaturation", factor, -1, 1)

    def _adjust(self, images, hue, saturation, value):
        draw = self._per_image(images, *self.factor)
        scale = draw / (1.0 - draw + np.asarray(_EPSILON, self.dtype))
        return hue, ops.clip(ops.multiply(saturation, scale), 0.0, 1.0), value

    def get_config(self):
        config = super().get_config()
        config["factor"] = self.factor
        return config


class RandomHue(_HSVLayer):
    """Rotates each image's hue by a random amount in training.

    Each image draws `u` uniformly from the factor's range and a direction
    (clockwise or not, with equal chance), and its HSV hue moves by `u / 2`
    of a full turn in that direction; `factor=(1, 1)` always moves it half a
    turn, to the complementary colour. Outputs are floats; outside training
    the layer is the identity.

    Args:
        factor: a number `f` in [0, 1] for the range `[0, f]`, or a pair
            `(lower, upper)` in [0, 1].
        value_range: the `(low, high)` range of the pixel values.
        data_format: `"channels_last"` (default) or `"channels_first"`.
        seed: makes the draws reproducible; without it they derive from the
            global seed (`hikeras.utils.set_random_seed`).

    >>> import numpy as np
    >>> x = np.array([[[1.0, 0.0, 0.0]]])
    >>> RandomHue((1, 1), value_range=(0, 1))(x).round(4).tolist()
    [[[0.0, 1.0, 1.0]]]
    """

    def __init__(self, factor, value_range=(0, 255), data_format=None, seed=None, **kwargs):
        super().__init__(value_range=value_range, seed=seed, data_format=data_format, **kwargs)
        self.factor = _factor_range("RandomHue", factor, 0, 1)

    def _adjust(self, images, hue, saturation, value):
        sign = np.where(self._per_image(images) > 0.5, -1.0, 1.0).astype(self.dtype)
        shift = sign * self._per_image(images, *self.factor) * np.asarray(0.5, self.dtype)
        hue = ops.add(hue, shift)
        hue = ops.where(ops.greater(hue, 1.0), ops.subtract(hue, 1.0), hue)
        hue = ops.where(ops.less(hue, 0.0), ops.add(hue, 1.0), hue)
        return hue, saturation, value

    def get_config(self):
        config = super().get_config()
        config["factor"] = self.factor
        return config
