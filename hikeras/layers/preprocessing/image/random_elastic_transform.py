"""RandomElasticTransform: images bent by a smooth random displacement field."""

import numpy as np

from .... import ops
from .base_image_layer import (
    _INTERPOLATIONS,
    _number,
    _one_of,
    _RandomImageLayer,
    _spatial_axes,
    _to_float,
    _value_range,
)
from .color_augmentation import _pair

__all__ = ["RandomElasticTransform"]

_FILL_MODES = ("constant", "nearest", "wrap", "mirror", "reflect")


class RandomElasticTransform(_RandomImageLayer):
    """Distorts images elastically, each with a random probability.

    Per call, as in Keras 3: one distortion `s` is drawn from `scale`'s range
    and the images are resampled along a random displacement field
    (`hikeras.ops.image.elastic_transform`: Gaussian noise smoothed with
    `sigma = 0.05 s min(height, width)` and scaled by
    `alpha = 0.1 s max(height, width)`, one field per image). Per image, a
    probability `p` is drawn from `factor`'s range and the image is
    distorted when a uniform draw falls below it. The outputs (distorted or
    not) are then clipped to `value_range`. When `factor` or `scale` is 0 the
    layer draws nothing and returns its inputs unclipped, as Keras does;
    outside training it is the identity. The field comes from hikeras's
    generators, so its numbers differ from Keras's. Outputs are floats,
    differentiable with respect to the images.

    Args:
        factor: the probability of distorting an image: a number `f` in
            [0, 1] (drawn from `[0, f]`) or a pair `(lower, upper)` in [0, 1].
        scale: the strength of the distortion: a number `s` in [0, 1]
            (drawn from `[0, s]`) or a pair in [0, 1].
        interpolation: `"bilinear"` (default) or `"nearest"`.
        fill_mode: how points outside the image are read: `"reflect"`
            (default), `"mirror"`, `"wrap"`, `"nearest"` or `"constant"`
            (`fill_value`).
        fill_value: the value read outside the image when `fill_mode="constant"`.
        value_range: the `(low, high)` range of the pixel values.
        seed: makes the draws reproducible; without it they derive from the
            global seed (`hikeras.utils.set_random_seed`).
        data_format: `"channels_last"` (default) or `"channels_first"`.

    >>> import numpy as np
    >>> x = np.full((1, 4, 4, 1), 9.0)
    >>> RandomElasticTransform(value_range=(0, 5), seed=1)(x).max().item()
    5.0
    """

    def __init__(self, factor=1.0, scale=1.0, interpolation="bilinear", fill_mode="reflect",
                 fill_value=0.0, value_range=(0, 255), seed=None, data_format=None, **kwargs):
        super().__init__(seed=seed, data_format=data_format, **kwargs)
        name = "RandomElasticTransform"
        self.factor = _pair(name, "factor", factor, 0, 1, lambda f: (0, f))
        self.scale = _pair(name, "scale", scale, 0, 1, lambda s: (0, s))
        self.interpolation = _one_of(name, "interpolation", interpolation, _INTERPOLATIONS)
        self.fill_mode = _one_of(name, "fill_mode", fill_mode, _FILL_MODES)
        self.fill_value = _number(name, "fill_value", fill_value)
        self.value_range = _value_range(name, value_range)

    def get_random_transformation(self, data, training=True, seed=None):
        """Draws which images to distort, the strength and the field's seed; None when
        nothing would change (outside training, or `factor` or `scale` 0).

        `seed` (an int) draws from a generator of its own instead of the layer's.
        """
        if not training or self.scale[1] == 0 or self.factor[1] == 0:
            return None
        images = data["images"] if isinstance(data, dict) else data
        batch = 1 if len(images.shape) == 3 else images.shape[0]
        rng = self._rng if seed is None else np.random.default_rng(seed)
        probability = rng.uniform(*self.factor, size=batch)
        apply = rng.uniform(size=batch) < probability
        distortion = rng.uniform(*self.scale)
        return {"apply_transform": apply, "distortion_factor": distortion,
                "seed": int(rng.integers(2**31))}

    def transform_images(self, images, transformation, training=True):
        """`images` distorted by `transformation` (from `get_random_transformation`)."""
        images = _to_float(self, images)
        height_axis, width_axis = _spatial_axes(self, images.shape)
        if not training or transformation is None:
            return images
        height, width = images.shape[height_axis], images.shape[width_axis]
        distortion = float(transformation["distortion_factor"])
        distorted = ops.image.elastic_transform(
            images, alpha=max(height, width) * 0.1 * distortion,
            sigma=min(height, width) * 0.05 * distortion, interpolation=self.interpolation,
            fill_mode=self.fill_mode, fill_value=self.fill_value,
            seed=transformation["seed"], data_format=self.data_format)
        apply = np.asarray(transformation["apply_transform"])
        apply = apply.reshape((-1, 1, 1, 1) if len(images.shape) == 4 else (1, 1, 1))
        out = ops.where(apply, distorted, images)
        return ops.clip(out, self.value_range[0], self.value_range[1])

    def _augment(self, images):
        return self.transform_images(images, self.get_random_transformation(images))

    def get_config(self):
        config = super().get_config()
        config.update({"factor": self.factor, "scale": self.scale,
                       "interpolation": self.interpolation, "fill_mode": self.fill_mode,
                       "fill_value": self.fill_value, "value_range": self.value_range})
        return config
