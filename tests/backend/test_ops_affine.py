"""`affine_transform`: projective resampling with TensorFlow's fill modes."""

import math

import numpy as np
import pytest

from hikeras.backend import GradientTape, SymbolicTensor, apply
from tests.helpers.check_op import case, params, random_array

# Builds constant data at import only; a test draws from its own `rng` fixture.
_TABLE_RNG = np.random.default_rng(21)


def _map_loops(c, n, mode):
    """One coordinate, brought back inside as TensorFlow's scalar code does."""
    if mode == "constant":
        return c
    if mode == "nearest" or n <= 1:
        return min(max(c, 0.0), n - 1.0) if n > 1 else 0.0
    if mode == "reflect":
        if c < 0:
            c = 2 * n * math.trunc(-c / (2 * n)) + c
            c = c + 2 * n if c < -n else -c - 1
        elif c > n - 1:
            c -= 2 * n * math.trunc(c / (2 * n))
            if c >= n:
                c = 2 * n - c - 1
    else:  # wrap
        if c < 0:
            c += n * (math.trunc(-c / (n - 1)) + 1)
        elif c > n - 1:
            c -= n * math.trunc(c / (n - 1))
    return min(max(c, 0.0), n - 1.0)


def _transform_loops(images, transform, interpolation="bilinear", fill_mode="constant",
                     fill_value=0.0):
    """NHWC images resampled one output pixel at a time."""
    batch, height, width, _ = images.shape
    transform = np.broadcast_to(np.reshape(transform, (-1, 8)), (batch, 8)).astype(np.float64)
    out = np.empty(images.shape)

    def read(b, row, col):
        if 0 <= row < height and 0 <= col < width:
            return images[b, row, col]
        return np.full(images.shape[-1], fill_value)

    for b in range(batch):
        a0, a1, a2, b0, b1, b2, c0, c1 = transform[b]
        for oy in range(height):
            for ox in range(width):
                k = c0 * ox + c1 * oy + 1
                if k == 0:
                    out[b, oy, ox] = fill_value
                    continue
                x = _map_loops((a0 * ox + a1 * oy + a2) / k, width, fill_mode)
                y = _map_loops((b0 * ox + b1 * oy + b2) / k, height, fill_mode)
                if interpolation == "nearest":
                    row = int(math.floor(abs(y) + 0.5) * math.copysign(1, y))
                    col = int(math.floor(abs(x) + 0.5) * math.copysign(1, x))
                    out[b, oy, ox] = read(b, row, col)
                    continue
                y0, x0 = math.floor(y), math.floor(x)
                fy, fx = y - y0, x - x0
                out[b, oy, ox] = ((1 - fy) * ((1 - fx) * read(b, y0, x0) + fx * read(b, y0, x0 + 1))
                                  + fy * ((1 - fx) * read(b, y0 + 1, x0)
                                          + fx * read(b, y0 + 1, x0 + 1)))
    return out


def _rotation(angle, height, width):
    """Keras's rotation about the image centre, as eight numbers."""
    cos, sin = math.cos(angle), math.sin(angle)
    cx, cy = (width - 1) / 2, (height - 1) / 2
    return np.array([cos, -sin, cx - cx * cos + cy * sin,
                     sin, cos, cy - cx * sin - cy * cos, 0.0, 0.0])


# Transforms chosen so that no sampled coordinate lies within float32 noise
# of a pixel centre or of a half (where nearest rounding or a floor flips).
SHIFT = np.array([1.0, 0.0, -1.3, 0.0, 1.0, 2.2, 0.0, 0.0])
PER_IMAGE = np.stack([_rotation(0.37, 5, 6), np.array([0.7, 0.1, 0.9, -0.2, 1.4, -0.8,
                                                       0.0, 0.0])])
PROJECTIVE = np.array([0.9, 0.2, 0.3, -0.1, 1.1, 0.2, 0.04, -0.03])


IMAGES = random_array(_TABLE_RNG, 2, 5, 6, 3)


def _loops(**attrs):
    return lambda x, t: _transform_loops(x, t, **attrs)


CASES = [
    case("affine_transform", IMAGES, PER_IMAGE, wrt=(0,),
         reference=_loops(), label="constant-bilinear"),
    case("affine_transform", IMAGES, PER_IMAGE, attrs=dict(fill_mode="reflect"), wrt=(0,),
         reference=_loops(fill_mode="reflect"), label="reflect-bilinear"),
    case("affine_transform", IMAGES, SHIFT * [1, 1, 3.1, 1, 1, 2.9, 1, 1],
         attrs=dict(fill_mode="wrap", interpolation="nearest"), wrt=(0,),
         reference=_loops(fill_mode="wrap", interpolation="nearest"), label="wrap-nearest"),
    case("affine_transform", IMAGES, SHIFT, attrs=dict(fill_mode="nearest"), wrt=(0,),
         reference=_loops(fill_mode="nearest"), label="nearest-bilinear"),
    case("affine_transform", random_array(_TABLE_RNG, 1, 4, 5, 2), PROJECTIVE,
         attrs=dict(fill_value=0.75), wrt=(0,), reference=_loops(fill_value=0.75),
         label="projective-fill-value"),
    case("affine_transform", random_array(_TABLE_RNG, 2, 2, 4, 5), SHIFT,
         attrs=dict(axes=(2, 3), fill_mode="reflect", interpolation="nearest"), wrt=(0,),
         reference=lambda x, t: np.moveaxis(_transform_loops(
             np.moveaxis(x, 1, 3), t, "nearest", "reflect"), 3, 1), label="nchw"),
]


@pytest.mark.parametrize("op_case", params(CASES))
def test_op(op_case):
    op_case.run()


# TensorFlow's ImageProjectiveTransformV3 on the row [0, 1, 2, 3] shifted so
# that output pixel x reads input x + shift, with fill_value -1.
TENSORFLOW_ROWS = {
    ("reflect", "bilinear", -5.5): [2.5, 3.0, 2.5, 1.5],
    ("reflect", "bilinear", -1.5): [0.5, 0.0, 0.5, 1.5],
    ("reflect", "nearest", -1.5): [1.0, 0.0, 1.0, 2.0],
    ("reflect", "nearest", 2.5): [3.0, 3.0, 3.0, 2.0],
    ("wrap", "bilinear", -5.5): [2.5, 3.0, 3.0, 1.5],
    ("wrap", "bilinear", -0.5): [3.0, 0.5, 1.5, 2.5],
    ("wrap", "nearest", -1.5): [3.0, 3.0, 1.0, 2.0],
    ("wrap", "bilinear", 2.5): [2.5, 0.0, 0.5, 1.5],
    ("nearest", "bilinear", -1.5): [0.0, 0.0, 0.5, 1.5],
    ("nearest", "nearest", 2.5): [3.0, 3.0, 3.0, 3.0],
    ("constant", "bilinear", -1.5): [-1.0, -0.5, 0.5, 1.5],
    ("constant", "bilinear", 2.5): [2.5, 1.0, -1.0, -1.0],
    ("constant", "nearest", -0.5): [-1.0, 1.0, 2.0, 3.0],
    ("constant", "nearest", -5.5): [-1.0, -1.0, -1.0, -1.0],
}


@pytest.mark.parametrize("fill_mode, interpolation, shift", list(TENSORFLOW_ROWS))
def test_shifted_row_matches_tensorflow(fill_mode, interpolation, shift):
    row = np.arange(4.0, dtype=np.float32).reshape(1, 1, 4, 1)
    out = apply("affine_transform", row, np.array([1, 0, shift, 0, 1, 0, 0, 0]),
                interpolation=interpolation, fill_mode=fill_mode, fill_value=-1.0)
    assert out.ravel().tolist() == TENSORFLOW_ROWS[fill_mode, interpolation, shift]


def test_zero_projection_gives_the_fill_value():
    # k = 1 - x vanishes in column 1: TensorFlow returns fill_value there.
    out = apply("affine_transform", np.ones((1, 1, 3, 1), np.float32),
                np.array([1, 0, 0, 0, 1, 0, -1, 0]), fill_mode="nearest", fill_value=5.0)
    assert out[0, 0, 1, 0] == 5.0


def test_gradient_sums_into_the_pixels_read():
    # Every output of a nearest-mode shift by 3 reads the last pixel.
    x = np.arange(4.0).reshape(1, 1, 4, 1)
    with GradientTape() as tape:
        tape.watch(x)
        out = apply("affine_transform", x, np.array([1, 0, 3, 0, 1, 0, 0, 0]),
                    fill_mode="nearest")
    grad = tape.gradient(out, x, output_gradients=np.ones((1, 1, 4, 1)))
    assert grad.ravel().tolist() == [0.0, 0.0, 0.0, 4.0]


def test_rejects_bad_arguments():
    x = np.zeros((1, 3, 3, 1))
    with pytest.raises(ValueError, match="Received: fill_mode='mirror'"):
        apply("affine_transform", x, np.eye(3).ravel()[:8], fill_mode="mirror")
    with pytest.raises(ValueError, match="Received: interpolation='bicubic'"):
        apply("affine_transform", x, np.eye(3).ravel()[:8], interpolation="bicubic")
    with pytest.raises(ValueError, match=r"Received: transform.shape=\(2, 8\)"):
        apply("affine_transform", x, np.zeros((2, 8)))
    with pytest.raises(ValueError, match=r"Received: transform.shape=\(6,\)"):
        apply("affine_transform", SymbolicTensor((None, 3, 3, 1), "float32"),
              SymbolicTensor((6,), "float32"))
