import numpy as np
import pytest

from hikeras.utils import normalize, to_categorical


def test_to_categorical_one_hot_rows():
    out = to_categorical([2, 0, 1, 2])
    assert out.dtype == np.float32 and out.shape == (4, 3)
    assert out.tolist() == [[0, 0, 1], [1, 0, 0], [0, 1, 0], [0, 0, 1]]


def test_to_categorical_drops_a_trailing_unit_axis_and_keeps_others():
    assert to_categorical(np.array([[1], [0]]), 2).shape == (2, 2)
    grid = to_categorical(np.array([[0, 1], [2, 3]]), 5)
    assert grid.shape == (2, 2, 5) and grid[1, 0, 2] == 1 and grid.sum() == 4
    assert to_categorical([1], 3, dtype="int32").dtype == np.int32


def test_to_categorical_rejects_out_of_range_and_fractional_labels():
    with pytest.raises(ValueError, match=r"\[0, 3\).*from 0 to 3"):
        to_categorical([0, 3], num_classes=3)
    with pytest.raises(ValueError, match=r"from -1"):
        to_categorical([-1, 1])
    with pytest.raises(ValueError, match="integer class labels"):
        to_categorical([0.5, 1])


def test_normalize_l2_l1_and_zero_rows():
    x = np.array([[3.0, 4.0], [0.0, 0.0], [1.0, -1.0]])
    np.testing.assert_allclose(normalize(x), [[0.6, 0.8], [0, 0], [2 ** -0.5, -(2 ** -0.5)]])
    np.testing.assert_allclose(normalize(x, order=1)[0], [3 / 7, 4 / 7])
    np.testing.assert_allclose(normalize(x, axis=0)[:, 0], [3 / np.sqrt(10), 0, 1 / np.sqrt(10)])
