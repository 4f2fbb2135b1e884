"""RandomPerspective: images warped as if seen from a randomly moved viewpoint."""

import numpy as np

from .... import ops
from ....ops.image_geometry import homography
from ....utils import bounding_boxes as bb
from .base_image_layer import (
    _INTERPOLATIONS,
    _is_number,
    _number,
    _one_of,
    _RandomImageLayer,
    _spatial_axes,
    _to_float,
)
from .color_augmentation import _pair

__all__ = ["RandomPerspective"]


class RandomPerspective(_RandomImageLayer):
    """Warps each image by a random perspective transform, with a random probability.

    Per image, as in Keras 3: a probability `p` is drawn from `factor`'s
    range and the image is warped when a uniform draw falls below it. The
    warp moves the image's corners `(0, 0)`, `(w - 1, 0)`, `(0, h - 1)` and
    `(w - 1, h - 1)` to `corner * (1 + d)`, with each coordinate's `d` drawn
    from `[-scale / 2, scale / 2]` (so, as in Keras, the top-left corner
    never moves), and resamples the image through the homography between the
    two quads; points from outside the image read `fill_value`. Outside
    training the layer is the identity. Outputs are floats, differentiable
    with respect to the images. Given Keras's dict of `"images"`,
    `"bounding_boxes"` and `"segmentation_masks"`, each box is replaced by the
    box around its warped corners, clipped to the image, and the masks are
    warped with the images.

    `get_random_transformation` and `transform_images` split a call in two,
    as in Keras: the first draws the transformation (a dict with
    `"apply_perspective"`, `"start_points"` and `"end_points"`), the second
    applies a given one, so one draw can serve several inputs.

    Args:
        factor: the probability of warping an image: a number `f` in [0, 1]
            (drawn from `[0, f]`) or a pair `(lower, upper)` in [0, 1].
        scale: how far the corners move, in [0, 1].
        interpolation: `"bilinear"` (default) or `"nearest"`.
        fill_value: the value read from outside the image.
        seed: makes the draws reproducible; without it they derive from the
            global seed (`hikeras.utils.set_random_seed`).
        data_format: `"channels_last"` (default) or `"channels_first"`.

    >>> import numpy as np
    >>> x = np.arange(6.0).reshape(1, 2, 3, 1)
    >>> RandomPerspective(factor=0.0)(x)[0, :, :, 0].tolist()
    [[0.0, 1.0, 2.0], [3.0, 4.0, 5.0]]
    """

    def __init__(self, factor=1.0, scale=1.0, interpolation="bilinear", fill_value=0.0,
                 seed=None, data_format=None, **kwargs):
        super().__init__(seed=seed, data_format=data_format, **kwargs)
        self.factor = _pair("RandomPerspective", "factor", factor, 0, 1, lambda f: (0, f))
        if not _is_number(scale) or not 0 <= scale <= 1:
            raise ValueError("RandomPerspective expects `scale` to be a number in [0, 1]. "
                             f"Received: scale={scale!r}")
        _one_of("RandomPerspective", "interpolation", interpolation, _INTERPOLATIONS)
        _number("RandomPerspective", "fill_value", fill_value)
        self.scale = scale
        self.interpolation = interpolation
        self.fill_value = fill_value

    def get_random_transformation(self, data, training=True, seed=None):
        """Draws the warp for `data` (images, or a dict with `"images"`); None outside training.

        `seed` (an int) draws from a generator of its own instead of the layer's.
        """
        if not training:
            return None
        images = data["images"] if isinstance(data, dict) else data
        shape = tuple(images.shape)
        height_axis, width_axis = _spatial_axes(self, shape)
        height, width = shape[height_axis], shape[width_axis]
        batch = 1 if len(shape) == 3 else shape[0]
        rng = self._rng if seed is None else np.random.default_rng(seed)
        probability = rng.uniform(*self.factor, size=batch)
        apply = rng.uniform(size=batch) < probability
        shift = rng.uniform(-0.5 * self.scale, 0.5 * self.scale, size=(batch, 4, 2))
        corners = np.array([[0.0, 0.0], [width - 1, 0.0], [0.0, height - 1],
                            [width - 1, height - 1]])
        start = np.repeat(corners[None], batch, axis=0).astype(np.float32)
        end = (start + start * shift).astype(np.float32)
        return {"apply_perspective": apply, "start_points": start, "end_points": end,
                "input_shape": shape}

    def transform_images(self, images, transformation, training=True):
        """`images` warped by `transformation` (from `get_random_transformation`)."""
        return self._move_pixels(images, transformation, self.interpolation, training)

    def _move_pixels(self, images, transformation, interpolation, training=True):
        images = _to_float(self, images)
        _spatial_axes(self, images.shape)
        if not training or transformation is None:
            return images
        single = len(images.shape) == 3
        batch = ops.expand_dims(images, 0) if single else images
        warped = ops.image.perspective_transform(
            batch, transformation["start_points"], transformation["end_points"],
            interpolation=interpolation, fill_value=self.fill_value,
            data_format=self.data_format)
        apply = np.asarray(transformation["apply_perspective"]).reshape(-1, 1, 1, 1)
        out = ops.where(apply, warped, batch)
        return ops.squeeze(out, 0) if single else out

    def transform_bounding_boxes(self, bounding_boxes, transformation, training=True):
        """Each box becomes the box around its four corners carried through the warp,
        clipped to the image, as in Keras (boxes of images left unwarped stay)."""
        if not training or transformation is None:
            return bounding_boxes
        shape = transformation["input_shape"]
        height_axis, width_axis = _spatial_axes(self, shape)
        size = (shape[height_axis], shape[width_axis])
        fmt = self.bounding_box_format
        boxes = bb.convert_format(bounding_boxes["boxes"], fmt, "xyxy", *size)
        # `homography` maps output pixels to the input points they read; boxes go forward.
        sampling = homography(transformation["start_points"], transformation["end_points"])
        forward = np.linalg.inv(np.concatenate([sampling, np.ones((len(sampling), 1))],
                                               axis=-1).reshape(-1, 3, 3))
        x0, y0, x1, y1 = (boxes[..., i].astype("float64") for i in range(4))
        corners = np.stack([np.stack([x, y, np.ones_like(x)], axis=-1)
                            for x, y in ((x0, y0), (x1, y1), (x0, y1), (x1, y0))], axis=-2)
        moved = np.einsum("bij,bnkj->bnki", forward, corners)
        points = moved[..., :2] / moved[..., 2:]
        warped = np.concatenate([points.min(axis=-2), points.max(axis=-2)], axis=-1)
        apply = np.asarray(transformation["apply_perspective"]).reshape(-1, 1, 1)
        boxes = np.where(apply, warped, boxes).astype("float32")
        clipped = bb.clip_to_image_size(dict(bounding_boxes, boxes=boxes), *size)
        return bb.convert_format(clipped, "xyxy", fmt, *size)

    def _augment(self, images):
        return self.transform_images(images, self.get_random_transformation(images))

    def get_config(self):
        config = super().get_config()
        config.update({"factor": self.factor, "scale": self.scale,
                       "interpolation": self.interpolation, "fill_value": self.fill_value})
        return config
