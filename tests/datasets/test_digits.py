import numpy as np
import pytest

from hikeras.datasets import digits

NUM_SAMPLES = 1797


def test_default_split_shapes_and_dtypes():
    (x_train, y_train), (x_test, y_test) = digits.load_data()
    assert x_train.shape == (1437, 8, 8)
    assert x_test.shape == (360, 8, 8)
    assert y_train.shape == (1437,)
    assert y_test.shape == (360,)
    for array in (x_train, y_train, x_test, y_test):
        assert array.dtype == np.uint8


def test_value_ranges_and_classes():
    (x_train, y_train), (x_test, y_test) = digits.load_data()
    images = np.concatenate([x_train, x_test])
    labels = np.concatenate([y_train, y_test])
    assert images.min() == 0
    assert images.max() == 16
    assert set(np.unique(labels).tolist()) == set(range(10))
    # every class appears in both parts of the default split
    assert set(np.unique(y_train).tolist()) == set(range(10))
    assert set(np.unique(y_test).tolist()) == set(range(10))


@pytest.mark.parametrize("test_split", [0.0, 0.1, 0.25, 0.5, 0.99])
def test_split_sizes(test_split):
    (x_train, y_train), (x_test, y_test) = digits.load_data(test_split=test_split)
    expected_train = int(NUM_SAMPLES * (1 - test_split))
    assert len(x_train) == len(y_train) == expected_train
    assert len(x_test) == len(y_test) == NUM_SAMPLES - expected_train
    assert x_test.shape[1:] == (8, 8)


def _sorted_rows(images):
    flat = images.reshape(len(images), -1)
    return flat[np.lexsort(flat.T[::-1])]


def test_split_is_a_partition_of_the_whole_set():
    (x_a, y_a), (x_b, y_b) = digits.load_data(test_split=0.3, seed=1)
    (x_all, y_all), _ = digits.load_data(test_split=0.0, seed=2)
    np.testing.assert_array_equal(
        _sorted_rows(np.concatenate([x_a, x_b])), _sorted_rows(x_all)
    )
    np.testing.assert_array_equal(
        np.sort(np.concatenate([y_a, y_b])), np.sort(y_all)
    )


def test_same_seed_is_reproducible():
    first = digits.load_data(seed=7)
    second = digits.load_data(seed=7)
    for a, b in zip(first, second):
        np.testing.assert_array_equal(a[0], b[0])
        np.testing.assert_array_equal(a[1], b[1])


def test_different_seed_gives_different_split():
    (x_a, y_a), _ = digits.load_data(seed=7)
    (x_b, y_b), _ = digits.load_data(seed=8)
    assert not np.array_equal(x_a, x_b)
    assert not np.array_equal(y_a, y_b)


@pytest.mark.parametrize("bad", [-0.1, 1.0, 1.5, float("nan"), "0.2", None, True])
def test_bad_test_split_raises(bad):
    with pytest.raises(ValueError, match=r"Received: test_split="):
        digits.load_data(test_split=bad)
