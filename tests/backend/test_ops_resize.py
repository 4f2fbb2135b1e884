"""Bilinear and nearest-neighbour resizing with half-pixel centres."""

import numpy as np
import pytest

from hikeras.backend import apply
from tests.helpers.check_op import case, params, random_array

# Builds constant data at import only; a test draws from its own `rng` fixture.
_TABLE_RNG = np.random.default_rng(12)


def r(*shape):
    return random_array(_TABLE_RNG, *shape)


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


def _nearest_loops(x, size, axes=(1, 2)):
    """Copies, one output index at a time, the input pixel under its centre."""
    out = x
    for new, axis in zip(size, axes):
        old = out.shape[axis]
        picks = [min(int(np.floor((o + 0.5) * old / new)), old - 1) for o in range(new)]
        out = np.take(out, picks, axis=axis)
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
    case("resize_nearest", r(2, 3, 4, 2), attrs={"size": (7, 3)},
         reference=lambda x: _nearest_loops(x, (7, 3)), label="up-and-down"),
    case("resize_nearest", r(2, 2, 5, 3), attrs={"size": (2, 9), "axes": (2, 3)},
         reference=lambda x: _nearest_loops(x, (2, 9), (2, 3)), label="nchw"),
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


def test_nearest_matches_tensorflow_and_keeps_integer_dtypes():
    # tf.image.resize(x, (1, 5), "nearest") on a row [0, 1, 2] picks 0, 0, 1, 2, 2,
    # and on a row [0 .. 4] shrunk to 3 picks 0, 2, 4.
    up = apply("resize_nearest", np.array([0, 1, 2], "uint8").reshape(1, 1, 3, 1), size=(1, 5))
    assert up.dtype == np.uint8 and up.ravel().tolist() == [0, 0, 1, 2, 2]
    down = apply("resize_nearest", np.arange(5).reshape(1, 1, 5, 1), size=(1, 3))
    assert down.ravel().tolist() == [0, 2, 4]
