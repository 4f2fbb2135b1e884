"""RandomShear: images sheared along x and y by random amounts."""

import numpy as np

from .base_image_layer import _is_number
from .geometric_augmentation import _RandomAffineLayer

__all__ = ["RandomShear"]


def _shear_range(argument, factor):
    """Keras's reading: a pair in [0, 1] sorted, or a number `f` in [0, 1] as `(-f, f)`."""
    values = list(factor) if isinstance(factor, (list, tuple)) else [factor]
    if (isinstance(factor, (list, tuple)) and len(factor) != 2) or not all(
            _is_number(v) and 0 <= v <= 1 for v in values):
        raise ValueError(f"RandomShear expects `{argument}` to be a number or a pair of numbers "
                         f"in [0, 1]. Received: {argument}={factor!r}")
    if isinstance(factor, (list, tuple)):
        return tuple(sorted(float(v) for v in factor))
    return (-abs(float(factor)), abs(float(factor)))


class RandomShear(_RandomAffineLayer):
    """Shears each image: output pixel `(x, y)` samples input `(x + s_x y, y + s_y x)`.

    Per image, `s_x` and `s_y` are drawn from `x_factor`'s and `y_factor`'s
    ranges and both flipped in sign with probability 1/2, as Keras does; the
    shear is about the top-left corner.

    Args:
        x_factor, y_factor: a number `f` in [0, 1] (draws from `[-f, f]`) or a pair.
        interpolation: `"bilinear"` (default) or `"nearest"`.
        fill_mode: `"reflect"` (default), `"wrap"`, `"constant"` or `"nearest"`.
        fill_value: the value outside the image for `"constant"`.
        data_format: `"channels_last"` (default) or `"channels_first"`.
        seed: makes the draws reproducible.
    """

    def __init__(self, x_factor=0.0, y_factor=0.0, interpolation="bilinear",
                 fill_mode="reflect", fill_value=0.0, data_format=None, seed=None, **kwargs):
        super().__init__(fill_mode=fill_mode, interpolation=interpolation, seed=seed,
                         fill_value=fill_value, data_format=data_format, **kwargs)
        # The arguments as given go into the config (a drawn range such as
        # (-0.2, 0.2) would not pass the check again); the ranges are drawn from.
        self.x_factor, self.y_factor = x_factor, y_factor
        self._x_range = _shear_range("x_factor", x_factor)
        self._y_range = _shear_range("y_factor", y_factor)

    def _transforms(self, batch, size):
        invert = np.where(self._rng.uniform(size=(batch, 1)) > 0.5, -1.0, 1.0)
        shear_y = self._rng.uniform(*self._y_range, size=(batch, 1))
        shear_x = self._rng.uniform(*self._x_range, size=(batch, 1))
        return self._shear_matrix(np.concatenate([shear_x, shear_y], axis=1) * invert)

    @staticmethod
    def _shear_matrix(shears):
        """TensorFlow-style transforms `[1, s_x, 0, s_y, 1, 0, 0, 0]` per row of `shears`."""
        ones, zeros = np.ones(len(shears)), np.zeros(len(shears))
        return np.stack([ones, shears[:, 0], zeros, shears[:, 1], ones, zeros, zeros, zeros],
                        axis=1).astype(np.float32)

    def get_config(self):
        config = super().get_config()
        config.update({"x_factor": self.x_factor, "y_factor": self.y_factor})
        return config
