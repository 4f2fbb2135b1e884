"""Bilinear resizing with half-pixel centres."""

import numpy as np
import pytest

from hikeras.backend import apply
from tests.helpers.check_op import case, params, random_array

rng = np.random.default_rng(12)


def r(*shape):
    return random_array(rng, *shape)


def _bilinear_loops(x, size, axes=(1, 2)):
    """Resizes one axis at a time, one output index at a time."""
    out = x
    for new, axis in zip(size, axes):
        old = out.shape[axis]
        moved = np.moveaxis(out, axis, 0)
        rows = []
        for o in range(new):
            src = min(max((o + 0.5) * old / new - 0.5, 0.0), old - 1.0)
            low = int(np.floor(src))
            high = min(low + 1, old - 1)
            frac = src - low
            rows.append((1 - frac) * moved[low] + frac * moved[high])
        out = np.moveaxis(np.stack(rows), 0, axis)
    return out


CASES = [
    case("resize_bilinear", r(2, 3, 4, 2), attrs={"size": (6, 8)},
         reference=lambda x: _bilinear_loops(x, (6, 8)), label="x2"),
    case("resize_bilinear", r(1, 2, 3, 1), attrs={"size": (6, 3)},
         reference=lambda x: _bilinear_loops(x, (6, 3)), label="x3-height-only"),
    case("resize_bilinear", r(2, 1, 3, 5), attrs={"size": (4, 6), "axes": (2, 3)},
         reference=lambda x: _bilinear_loops(x, (4, 6), (2, 3)), label="nchw"),
    case("resize_bilinear", r(2, 5, 3), attrs={"size": (3,), "axes": (1,)},
         reference=lambda x: _bilinear_loops(x, (3,), (1,)), label="downsample-1d"),
]


@pytest.mark.parametrize("op_case", params(CASES))
def test_op(op_case):
    op_case.run()


def test_upsampling_a_row_by_two_matches_tensorflow():
    # tf.image.resize([[0, 1, 2]], (1, 6), "bilinear") gives these values.
    x = np.array([0.0, 1.0, 2.0]).reshape(1, 1, 3, 1)
    out = apply("resize_bilinear", x, size=(1, 6))
    np.testing.assert_allclose(out.reshape(-1), [0, 0.25, 0.75, 1.25, 1.75, 2])


def test_resize_rejects_a_size_per_axis_mismatch():
    with pytest.raises(ValueError, match="size"):
        apply("resize_bilinear", np.zeros((1, 2, 2, 1)), size=(4,))
