"""`map_coordinates`: values against a plain-Python interpolation, gradients
with respect to the input and (order 1) the coordinates, shape rules; and
`elastic_transform`, which samples images the same way along a random field."""

import itertools

import numpy as np
import pytest

from tests.helpers.check_op import case, params

_TABLE_RNG = np.random.default_rng(15)


def _fixed(index, size, mode):
    if mode == "nearest":
        return min(max(index, 0), size - 1)
    if mode == "wrap":
        return index % size
    if mode == "mirror":  # d c b | a b c d | c b a
        period = 2 * (size - 1)
        index %= period
        return index if index < size else period - index
    if mode == "reflect":  # d c b a | a b c d | d c b a
        period = 2 * size
        index %= period
        return index if index < size else period - 1 - index
    return index


def _reference(order, mode, fill_value=0.5):
    def sample(x, point):
        corners = []
        for c, size in zip(point, x.shape):
            if order == 0:
                corners.append([(int(np.round(c)), 1.0)])
            else:
                low = int(np.floor(c))
                corners.append([(low, 1 - (c - low)), (low + 1, c - low)])
        total = 0.0
        for combination in itertools.product(*corners):
            index = [_fixed(i, size, mode) for (i, _), size in zip(combination, x.shape)]
            inside = all(0 <= i < size for i, size in zip(index, x.shape))
            value = x[tuple(index)] if inside else fill_value
            total += np.prod([w for _, w in combination]) * value
        return total

    def reference(x, coordinates):
        points = coordinates.reshape(coordinates.shape[0], -1).T
        return np.array([sample(x, p) for p in points]).reshape(coordinates.shape[1:])

    return reference


def _coordinates(*shape, low=-5.0, high=9.0):
    """Coordinates away from integers (and half-integers), where order 1 has kinks."""
    c = _TABLE_RNG.uniform(low, high, shape)
    frac = c - np.floor(c)
    return np.floor(c) + np.clip(frac, 0.1, 0.9) + np.where(np.abs(frac - 0.5) < 0.05, 0.1, 0)


_X = _TABLE_RNG.standard_normal((4, 5))
CASES = [
    case("map_coordinates", _X, _coordinates(2, 3, 4),
         attrs={"order": 1, "fill_mode": mode, "fill_value": 0.5},
         reference=_reference(1, mode), label=f"linear-{mode}")
    for mode in ("constant", "nearest", "wrap", "mirror", "reflect")
] + [
    case("map_coordinates", _X, _coordinates(2, 7), wrt=(0,),
         attrs={"order": 0, "fill_mode": "constant", "fill_value": 0.5},
         reference=_reference(0, "constant"), label="nearest-order"),
    case("map_coordinates", _TABLE_RNG.standard_normal((3, 4, 2)), _coordinates(3, 5, low=-1, high=4),
         attrs={"order": 1, "fill_mode": "nearest"}, reference=_reference(1, "nearest"),
         label="3d"),
]


_IMAGES = _TABLE_RNG.uniform(size=(2, 6, 5, 2))
CASES += [
    case("elastic_transform", _IMAGES, attrs={"alpha": 0.0, "sigma": 1.0, "seed": 4},
         reference=lambda x: x, label="no-displacement"),
    case("elastic_transform", _IMAGES, attrs={"alpha": 3.0, "sigma": 1.0, "seed": 4,
                                              "fill_mode": "constant"},
         label="displaced"),
]


@pytest.mark.parametrize("op_case", params(CASES))
def test_op(op_case):
    op_case.run()
