"""Geometric image augmentation: `RandomRotation`, `RandomTranslation`, `RandomZoom`.

Each draws one transform per image, built as Keras builds it (in float32, in
Keras's order of operations), and resamples through the backend's
`affine_transform`, which follows TensorFlow's `ImageProjectiveTransformV3`
(fill modes reflect, wrap, constant and nearest; bilinear or nearest
interpolation). Like the other augmentation layers (`base_image_layer`),
they augment unless `training=False`, and are differentiable with respect
to the images.
"""

import numpy as np

from .... import ops
from ....ops import kernels
from .base_image_layer import (
    _INTERPOLATIONS,
    _factor_range,
    _is_number,
    _number,
    _one_of,
    _RandomImageLayer,
    _spatial_axes,
    _to_float,
)
from .bounding_box_inputs import invert_transforms

__all__ = ["RandomRotation", "RandomTranslation", "RandomZoom"]

_FILL_MODES = ("reflect", "wrap", "constant", "nearest")


def _signed_factor(layer_name, argument, factor, low_inclusive=True):
    """Keras's reading of a translation or zoom factor: a pair sorted, or `f` as `(-|f|, |f|)`.

    Each number must lie in [-1, 1] (in (-1, 1] for zoom, `low_inclusive=False`).
    """
    interval = "[-1, 1]" if low_inclusive else "(-1, 1]"
    values = list(factor) if isinstance(factor, (list, tuple)) else [factor]
    if (isinstance(factor, (list, tuple)) and len(factor) != 2) or not all(
            _is_number(v) and v <= 1 and (v >= -1 if low_inclusive else v > -1)
            for v in values):
        raise ValueError(f"{layer_name} expects `{argument}` to be a number or a pair of "
                         f"numbers in {interval}. Received: {argument}={factor!r}")
    if isinstance(factor, (list, tuple)):
        return tuple(sorted(float(v) for v in factor))
    return (-abs(float(factor)), abs(float(factor)))


class _RandomAffineLayer(_RandomImageLayer):
    """Resamples each image through a random transform drawn by `_transforms`.

    Subclasses return, for a batch of `batch` images of `size = (height,
    width)`, a `(batch, 8)` float32 array of TensorFlow-style transforms
    (output pixel -> input coordinate), computed as Keras computes them.
    """

    def __init__(self, fill_mode="reflect", interpolation="bilinear", seed=None,
                 fill_value=0.0, data_format=None, **kwargs):
        super().__init__(seed=seed, data_format=data_format, **kwargs)
        name = type(self).__name__
        self.fill_mode = _one_of(name, "fill_mode", fill_mode, _FILL_MODES)
        self.interpolation = _one_of(name, "interpolation", interpolation, _INTERPOLATIONS)
        self.fill_value = _number(name, "fill_value", fill_value)

    def _augment(self, images):
        return self.transform_images(images, self.get_random_transformation(images))

    def get_random_transformation(self, data, training=True, seed=None):
        """This call's transforms: `{"transforms": (batch, 8), "input_size": (h, w)}`.

        The transforms are TensorFlow-style (output pixel -> input point),
        one per image; `None` outside training. `seed` is accepted for
        Keras's signature; the layer draws from its own generator.
        """
        if not training:
            return None
        images = data["images"] if isinstance(data, dict) else data
        size = self._image_size(images)
        batch = 1 if np.ndim(images) == 3 else np.shape(images)[0]
        return {"transforms": self._transforms(batch, size), "input_size": size}

    def transform_images(self, images, transformation, training=True):
        """Resamples the images through `transformation` (floats, in the layer's dtype)."""
        images = _to_float(self, images)
        if not training or transformation is None:
            return images
        return self._move_pixels(images, transformation, self.interpolation)

    def _move_pixels(self, images, transformation, interpolation):
        axes = _spatial_axes(self, images.shape)
        single = len(images.shape) == 3
        if single:  # the op wants a batch axis first
            images, axes = ops.expand_dims(images, 0), (axes[0] + 1, axes[1] + 1)
        out = kernels.affine_transform(images, transformation["transforms"],
                                       interpolation=interpolation,
                                       fill_mode=self.fill_mode,
                                       fill_value=float(self.fill_value), axes=axes)
        return ops.squeeze(out, 0) if single else out

    def _box_matrices(self, transformation):
        return invert_transforms(transformation["transforms"])

    def _uniform(self, bounds, batch):
        """One float32 draw per image from `[low, high)`, as Keras draws in float32."""
        return self._rng.uniform(*bounds, size=batch).astype(np.float32)

    def get_config(self):
        config = super().get_config()
        config.update({"fill_mode": self.fill_mode, "interpolation": self.interpolation,
                       "fill_value": self.fill_value})
        return config


def _stack_transforms(a0, a1, a2, b0, b1, b2):
    """`(batch, 8)` float32 transforms from per-image entries (no projective part)."""
    batch = max(np.size(v) for v in (a0, a1, a2, b0, b1, b2))
    columns = [np.broadcast_to(np.asarray(v, np.float32), (batch,))
               for v in (a0, a1, a2, b0, b1, b2)]
    return np.stack(columns + [np.zeros(batch, np.float32)] * 2, axis=1)


class RandomRotation(_RandomAffineLayer):
    """Rotates each image by a random angle about its centre in training.

    Each image gets its own angle, drawn uniformly from
    `[lower * 360, upper * 360]` degrees; positive angles turn the image
    counter-clockwise. The centre is `((width - 1) / 2, (height - 1) / 2)`
    in pixel coordinates, and the corners the rotation uncovers are filled by
    `fill_mode`. Outputs are floats; outside training the layer is the
    identity.

    Args:
        factor: a fraction of a full turn: a number `f` in [0, 1] for the
            range `[-f, f]`, or a pair `(lower, upper)` within [-1, 1].
        fill_mode: how points outside the image are read: `"reflect"`
            (default, `d c b a | a b c d | d c b a`), `"wrap"`
            (`a b c d | a b c d`), `"constant"` (`fill_value`) or `"nearest"`
            (the edge pixel).
        interpolation: `"bilinear"` (default) or `"nearest"`.
        seed: makes the angles reproducible; without it they derive from the
            global seed (`hikeras.utils.set_random_seed`).
        fill_value: the value read outside the image when `fill_mode="constant"`.
        data_format: `"channels_last"` (default) or `"channels_first"`.

    >>> import numpy as np
    >>> x = np.arange(4.0).reshape(1, 2, 2, 1)
    >>> RandomRotation((0.25, 0.25))(x)[0, :, :, 0].round(4).tolist()
    [[1.0, 3.0], [0.0, 2.0]]
    """

    def __init__(self, factor, fill_mode="reflect", interpolation="bilinear", seed=None,
                 fill_value=0.0, data_format=None, **kwargs):
        super().__init__(fill_mode=fill_mode, interpolation=interpolation, seed=seed,
                         fill_value=fill_value, data_format=data_format, **kwargs)
        self.factor = _factor_range("RandomRotation", factor, -1, 1)

    def _transforms(self, batch, size):
        height, width = size
        lower, upper = self.factor
        degrees = self._rng.uniform(lower * 360.0, upper * 360.0, size=batch).astype(np.float32)
        radians = degrees * np.float32(np.pi / 180.0)
        cos, sin = np.cos(radians), np.sin(radians)
        cx, cy = np.float32(0.5 * (width - 1)), np.float32(0.5 * (height - 1))
        # Output (x, y) reads input R (x - c, y - c) + c, R rotating by the angle.
        return _stack_transforms(cos, -sin, cx - cx * cos + cy * sin,
                                 sin, cos, cy - cx * sin - cy * cos)

    def get_config(self):
        config = super().get_config()
        config["factor"] = self.factor
        return config


class RandomTranslation(_RandomAffineLayer):
    """Shifts each image by a random offset in training.

    Each image moves down by `dy * height` and right by `dx * width` pixels,
    with `dy` and `dx` drawn per image uniformly from the height and width
    factors' ranges (negative values move it up or left; offsets need not be
    whole pixels). The uncovered border is filled by `fill_mode`. Outputs are
    floats; outside training the layer is the identity.

    Args:
        height_factor: a fraction of the height: a number `f` in [0, 1] for
            `[-f, f]`, or a pair `(lower, upper)` within [-1, 1].
        width_factor: the same, as a fraction of the width.
        fill_mode: `"reflect"` (default), `"wrap"`, `"constant"` or
            `"nearest"`, as for `RandomRotation`.
        interpolation: `"bilinear"` (default) or `"nearest"`.
        seed: makes the offsets reproducible; without it they derive from the
            global seed (`hikeras.utils.set_random_seed`).
        fill_value: the value read outside the image when `fill_mode="constant"`.
        data_format: `"channels_last"` (default) or `"channels_first"`.

    >>> import numpy as np
    >>> x = np.arange(1.0, 5.0).reshape(1, 1, 4, 1)
    >>> RandomTranslation(0, (0.5, 0.5), fill_mode="constant")(x).ravel().tolist()
    [0.0, 0.0, 1.0, 2.0]
    """

    def __init__(self, height_factor, width_factor, fill_mode="reflect",
                 interpolation="bilinear", seed=None, fill_value=0.0, data_format=None,
                 **kwargs):
        super().__init__(fill_mode=fill_mode, interpolation=interpolation, seed=seed,
                         fill_value=fill_value, data_format=data_format, **kwargs)
        self.height_factor = height_factor
        self.width_factor = width_factor
        self._height_range = _signed_factor("RandomTranslation", "height_factor",
                                            height_factor)
        self._width_range = _signed_factor("RandomTranslation", "width_factor", width_factor)

    def _transforms(self, batch, size):
        height, width = size
        dy = self._uniform(self._height_range, batch) * np.float32(height)
        dx = self._uniform(self._width_range, batch) * np.float32(width)
        return _stack_transforms(1, 0, -dx, 0, 1, -dy)

    def get_config(self):
        config = super().get_config()
        config.update({"height_factor": self.height_factor,
                       "width_factor": self.width_factor})
        return config


class RandomZoom(_RandomAffineLayer):
    """Zooms each image in or out by a random amount about its centre in training.

    Each image is sampled on a grid `1 + h` times its height and `1 + w`
    times its width, centred on the image, with `h` and `w` drawn per image
    uniformly from the factors' ranges: a positive factor zooms out (the
    image shrinks and `fill_mode` fills the border), a negative one zooms in.
    Without `width_factor` the same draw serves both axes, keeping the
    aspect ratio. Outputs are floats; outside training the layer is the
    identity.

    Args:
        height_factor: a number `f` in [0, 1] for `[-f, f]`, or a pair
            `(lower, upper)` within (-1, 1].
        width_factor: the same for the width, or `None` (default) to zoom
            both axes by the height's draw.
        fill_mode: `"reflect"` (default), `"wrap"`, `"constant"` or
            `"nearest"`, as for `RandomRotation`.
        interpolation: `"bilinear"` (default) or `"nearest"`.
        seed: makes the zooms reproducible; without it they derive from the
            global seed (`hikeras.utils.set_random_seed`).
        fill_value: the value read outside the image when `fill_mode="constant"`.
        data_format: `"channels_last"` (default) or `"channels_first"`.

    >>> import numpy as np
    >>> x = np.arange(5.0).reshape(1, 1, 5, 1)
    >>> RandomZoom(0, (-0.5, -0.5))(x).ravel().tolist()
    [1.0, 1.5, 2.0, 2.5, 3.0]
    """

    def __init__(self, height_factor, width_factor=None, fill_mode="reflect",
                 interpolation="bilinear", seed=None, fill_value=0.0, data_format=None,
                 **kwargs):
        super().__init__(fill_mode=fill_mode, interpolation=interpolation, seed=seed,
                         fill_value=fill_value, data_format=data_format, **kwargs)
        self.height_factor = height_factor
        self.width_factor = width_factor
        self._height_range = _signed_factor("RandomZoom", "height_factor", height_factor,
                                            low_inclusive=False)
        self._width_range = None if width_factor is None else _signed_factor(
            "RandomZoom", "width_factor", width_factor, low_inclusive=False)

    def _transforms(self, batch, size):
        height, width = size
        lower, upper = self._height_range
        zoom_y = self._uniform((1.0 + lower, 1.0 + upper), batch)
        if self._width_range is None:
            zoom_x = zoom_y
        else:
            lower, upper = self._width_range
            zoom_x = self._uniform((1.0 + lower, 1.0 + upper), batch)
        # The centre stays put: x_in = z x + (width - 1) / 2 (1 - z).
        offset_x = (np.float32(width) - 1) / 2 * (1 - zoom_x)
        offset_y = (np.float32(height) - 1) / 2 * (1 - zoom_y)
        return _stack_transforms(zoom_x, 0, offset_x, 0, zoom_y, offset_y)

    def get_config(self):
        config = super().get_config()
        config.update({"height_factor": self.height_factor,
                       "width_factor": self.width_factor})
        return config
