"""MixUp and CutMix: augmentations that mix each image (and its label) with another's.

Both take a batch of images, or a dict `{"images": ..., "labels": ...}` whose
labels (one-hot or soft) are mixed in the same proportions; a dict comes back
as a dict. Partners are a random permutation of the batch. Outside training,
or on a single image, they return their input.
"""

import numpy as np

from .... import ops
from ....backend import SymbolicTensor
from .base_image_layer import _is_number, _RandomImageLayer, _spatial_axes, _to_float

__all__ = ["CutMix", "MixUp"]


def _beta(rng, concentration, size):
    """Beta(c, c) draws as a ratio of gamma draws (both layers' mixing weights)."""
    first = rng.gamma(concentration, size=size)
    second = rng.gamma(concentration, size=size)
    return first / np.maximum(first + second, np.finfo("float64").tiny)


class _MixingLayer(_RandomImageLayer):
    def __init__(self, concentration, argument, data_format=None, seed=None, **kwargs):
        super().__init__(seed=seed, data_format=data_format, **kwargs)
        if not _is_number(concentration) or concentration <= 0:
            raise ValueError(f"{type(self).__name__} expects `{argument}` to be a positive "
                             f"number. Received: {argument}={concentration!r}")

    def call(self, inputs, training=True):
        is_dict = isinstance(inputs, dict)
        images = _to_float(self, inputs["images"] if is_dict else inputs)
        _spatial_axes(self, images.shape)
        labels = inputs.get("labels") if is_dict else None
        if training and len(images.shape) == 4:
            images, labels = self._mix(images, labels)
        if not is_dict:
            return images
        return {**inputs, "images": images, **({"labels": labels} if labels is not None else {})}

    def compute_output_spec(self, inputs, training=None):
        if isinstance(inputs, dict):
            return {k: SymbolicTensor(v.shape, self.dtype) for k, v in inputs.items()}
        return super().compute_output_spec(inputs, training)

    def _mix_labels(self, labels, weights, order):
        if labels is None:
            return None
        labels = _to_float(self, labels)
        weights = weights.reshape((-1,) + (1,) * (len(labels.shape) - 1)).astype(self.dtype)
        return labels * weights + ops.take(labels, order, axis=0) * (1.0 - weights)


class MixUp(_MixingLayer):
    """Mixes each image with a partner: `w * image + (1 - w) * partner`, `w ~ Beta(a, a)`.

    Labels are mixed with the same `w` (Zhang et al., 2018).

    Args:
        alpha: the concentration `a` of the Beta distribution. Defaults to `0.2`.
        data_format: `"channels_last"` (default) or `"channels_first"`.
        seed: makes the draws reproducible.
    """

    def __init__(self, alpha=0.2, data_format=None, seed=None, **kwargs):
        super().__init__(alpha, "alpha", data_format=data_format, seed=seed, **kwargs)
        self.alpha = alpha

    def _mix(self, images, labels):
        batch = images.shape[0]
        order = self._rng.permutation(batch)
        weights = _beta(self._rng, self.alpha, batch)
        w = weights.reshape(-1, 1, 1, 1).astype(self.dtype)
        mixed = images * w + ops.take(images, order, axis=0) * (1.0 - w)
        return mixed, self._mix_labels(labels, weights, order)

    def get_config(self):
        config = super().get_config()
        config["alpha"] = self.alpha
        return config


class CutMix(_MixingLayer):
    """Pastes a box cut from a partner image into each image (Yun et al., 2019).

    For each image a weight `w ~ Beta(f, f)` sets the box's side ratio
    `sqrt(1 - w)` of the image's; the box is centred at a uniform random
    pixel and clipped to the image. Labels are mixed by the share of pixels
    that stayed: `1 - box area / image area`.

    Args:
        factor: the concentration `f` of the Beta distribution. Defaults to `1.0`.
        seed: makes the draws reproducible.
        data_format: `"channels_last"` (default) or `"channels_first"`.
    """

    def __init__(self, factor=1.0, seed=None, data_format=None, **kwargs):
        super().__init__(factor, "factor", data_format=data_format, seed=seed, **kwargs)
        self.factor = factor

    def _mix(self, images, labels):
        batch = images.shape[0]
        height_axis, width_axis = _spatial_axes(self, images.shape)
        height, width = images.shape[height_axis], images.shape[width_axis]
        ratio = np.sqrt(1.0 - _beta(self._rng, self.factor, batch))
        rows = self._bounds(height, ratio, batch)
        cols = self._bounds(width, ratio, batch)
        inside = np.zeros((batch, height, width), dtype=bool)
        for i, ((top, bottom), (left, right)) in enumerate(zip(rows, cols)):
            inside[i, top:bottom, left:right] = True
        kept = 1.0 - inside.reshape(batch, -1).mean(axis=1)
        mask = inside[..., None] if self.data_format == "channels_last" else inside[:, None]
        order = self._rng.permutation(batch)
        mixed = ops.where(mask, ops.take(images, order, axis=0), images)
        return mixed, self._mix_labels(labels, kept, order)

    def _bounds(self, size, ratio, batch):
        centres = self._rng.integers(0, size, size=batch)
        half = (ratio * size).astype(int) // 2
        return list(zip(np.clip(centres - half, 0, size), np.clip(centres + half, 0, size)))

    def get_config(self):
        config = super().get_config()
        config["factor"] = self.factor
        return config
