"""RandomGaussianBlur: a Gaussian blur applied to randomly chosen images."""

import numpy as np

from .... import ops
from .base_image_layer import _is_number, _RandomImageLayer, _value_range
from .color_augmentation import _pair

__all__ = ["RandomGaussianBlur"]


def _gaussian(size, sigma):
    offsets = np.arange(size) - (size - 1) / 2.0
    weights = np.exp(-offsets ** 2 / (2.0 * sigma ** 2))
    return weights / weights.sum()


def _odd_pair(value):
    values = list(value) if isinstance(value, (list, tuple)) else [value, value]
    if len(values) != 2 or not all(_is_number(v) and int(v) == v and v % 2 == 1
                                   for v in values):
        raise ValueError(f"kernel_size must be an odd number. Received: kernel_size={value!r}")
    return int(values[0]), int(values[1])


class RandomGaussianBlur(_RandomImageLayer):
    """Blurs each image, with a probability drawn from `factor`, by a Gaussian kernel.

    Per image, a probability `p` is drawn from `factor`'s range and the image
    is blurred when a uniform draw falls below it; one pair of standard
    deviations `(sigma_y, sigma_x)` is drawn from `sigma`'s range per batch.
    The blur is a `kernel_size` convolution with zero padding at the borders;
    outputs are clipped to `value_range`. Outside training it is the identity.

    Args:
        factor: the blur probability, a number `f` (draws from `[0, f]`) or a pair, in [0, 1].
        kernel_size: odd size of the kernel, or a pair `(height, width)`.
        sigma: the standard deviation, a number `s` (draws from `[0, s]`) or a pair, in
            [0, 1] as in Keras.
        value_range: the `(low, high)` range of the pixel values.
        data_format: `"channels_last"` (default) or `"channels_first"`.
        seed: makes the draws reproducible.
    """

    _keeps_boxes = True  # changes pixel values, not where they are

    def __init__(self, factor=1.0, kernel_size=3, sigma=1.0, value_range=(0, 255),
                 data_format=None, seed=None, **kwargs):
        super().__init__(seed=seed, data_format=data_format, **kwargs)
        self.factor = _pair("RandomGaussianBlur", "factor", factor, 0.0, 1.0, lambda f: (0.0, f))
        self.kernel_size = _odd_pair(kernel_size)
        self.sigma = _pair("RandomGaussianBlur", "sigma", sigma, 0.0, 1.0, lambda s: (0.0, s))
        self.value_range = _value_range("RandomGaussianBlur", value_range)

    def _blur(self, images, sigmas):
        height_axis = len(images.shape) - (2 if self.data_format == "channels_first" else 3)
        (kh, kw), total = self.kernel_size, None
        rows, cols = _gaussian(kh, sigmas[0]), _gaussian(kw, sigmas[1])
        pad = [[0, 0]] * len(images.shape)
        pad[height_axis], pad[height_axis + 1] = [kh // 2, kh // 2], [kw // 2, kw // 2]
        padded = ops.pad(images, pad)
        height, width = images.shape[height_axis], images.shape[height_axis + 1]
        for i in range(kh):
            for j in range(kw):
                index = [slice(None)] * len(images.shape)
                index[height_axis] = slice(i, i + height)
                index[height_axis + 1] = slice(j, j + width)
                term = padded[tuple(index)] * float(rows[i] * cols[j])
                total = term if total is None else total + term
        return total

    def _augment(self, images):
        batch = images.shape[0] if len(images.shape) == 4 else 1
        probability = self._rng.uniform(*self.factor, size=batch)
        apply = self._rng.uniform(size=batch) < probability
        sigmas = self._rng.uniform(*self.sigma, size=2) + 1e-6
        shape = (batch, 1, 1, 1) if len(images.shape) == 4 else (1, 1, 1)
        blurred = ops.where(apply.reshape(shape), self._blur(images, sigmas), images)
        return ops.clip(blurred, self.value_range[0], self.value_range[1])

    def get_config(self):
        config = super().get_config()
        config.update({"factor": self.factor, "kernel_size": self.kernel_size,
                       "sigma": self.sigma, "value_range": self.value_range})
        return config
