"""`resample` (the kernel of `resize` and `scale_and_translate`): values against
hand-computed resamplings, gradients, and shape rules with unknown sizes."""

import numpy as np
import pytest

from tests.helpers.check_op import case, params, random_array

_TABLE_RNG = np.random.default_rng(16)


def _images(*shape):
    return random_array(_TABLE_RNG, *shape, low=0.0, high=1.0)


def _block_mean(x):
    """2x downscale by averaging 2x2 blocks: `area` on even sizes."""
    n, h, w, c = x.shape
    return x.reshape(n, h // 2, 2, w // 2, 2, c).mean(axis=(2, 4))


def _upsample_bilinear_1d(x, axis):
    """Half-pixel 2x linear upsampling along `axis`, edges clamped, by hand."""
    x = np.moveaxis(x, axis, -1)
    n = x.shape[-1]
    out = np.empty(x.shape[:-1] + (2 * n,))
    for o in range(2 * n):
        src = (o + 0.5) / 2 - 0.5
        low = int(np.floor(src))
        frac = src - low
        a, b = x[..., min(max(low, 0), n - 1)], x[..., min(max(low + 1, 0), n - 1)]
        out[..., o] = (1 - frac) * a + frac * b
    return np.moveaxis(out, -1, axis)


CASES = [
    case("resample", _images(2, 4, 6, 3), attrs={"sizes": (2, 3), "axes": (1, 2),
                                                 "method": "area"},
         reference=_block_mean, label="area-halves"),
    case("resample", _images(2, 3, 4, 2), attrs={"sizes": (6, 8), "axes": (1, 2),
                                                 "method": "bilinear"},
         reference=lambda x: _upsample_bilinear_1d(_upsample_bilinear_1d(x, 1), 2),
         label="bilinear-doubles"),
    case("resample", _images(1, 4, 4, 1), attrs={"sizes": (8, 2), "axes": (1, 2),
                                                 "method": "nearest"},
         reference=lambda x: np.repeat(x, 2, axis=1)[:, :, 1::2], label="nearest"),
    case("resample", _images(2, 5, 3), attrs={"sizes": (5,), "axes": (1,), "method": "linear",
                                              "scales": (1.0,), "translations": (0.0,)},
         reference=lambda x: x, label="scale-and-translate-identity"),
    case("resample", _images(2, 9, 7, 1), attrs={"sizes": (4, 10), "axes": (1, 2),
                                                 "method": "lanczos3", "antialias": True},
         reference=None, label="lanczos-antialiased"),
    case("resample", _images(1, 6, 1), attrs={"sizes": (4,), "axes": (1,), "method": "cubic",
                                              "scales": (0.5,), "translations": (1.0,)},
         reference=None, label="cubic-shifted"),
]


@pytest.mark.parametrize("op_case", params(CASES))
def test_op(op_case):
    op_case.run()


def test_shape_rule_keeps_unknown_sizes_on_other_axes():
    from hikeras.backend import SymbolicTensor, apply

    out = apply("resample", SymbolicTensor((None, None, None, 3)), sizes=(4, 5), axes=(1, 2))
    assert out.shape == (None, 4, 5, 3)
