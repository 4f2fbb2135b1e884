import numpy as np
import pytest

from hikeras.data import Dataset
from hikeras.utils import split_dataset


def test_fraction_split_of_an_array_keeps_order():
    left, right = split_dataset(np.arange(10), left_size=0.8)
    assert [int(v) for v in left] == list(range(8)) and [int(v) for v in right] == [8, 9]


def test_integer_sizes_take_from_both_ends():
    x, y = np.arange(10), np.arange(10) * 10
    left, right = split_dataset((x, y), left_size=3, right_size=2)
    assert [(int(a), int(b)) for a, b in left] == [(0, 0), (1, 10), (2, 20)]
    assert [int(a) for a, _ in right] == [8, 9]
    left, right = split_dataset([x, y], right_size=0.25)
    assert left.cardinality() == 8 and right.cardinality() == 2  # round(2.5) == 2


def test_shuffled_split_is_a_seeded_partition():
    a = split_dataset(np.arange(20), left_size=0.5, shuffle=True, seed=4)
    b = split_dataset(np.arange(20), left_size=0.5, shuffle=True, seed=4)
    left, right = ([int(v) for v in d] for d in a)
    assert left == [int(v) for v in b[0]] and left != list(range(10))
    assert sorted(left + right) == list(range(20))


def test_dataset_input_and_dict_elements():
    ds = Dataset.from_tensor_slices({"a": np.arange(6), "b": np.ones((6, 2))})
    left, right = split_dataset(ds, left_size=4)
    first = next(iter(right))
    assert int(first["a"]) == 4 and first["b"].shape == (2,)
    assert left.cardinality() == 4


def test_split_errors():
    with pytest.raises(ValueError, match="left_size` or `right_size"):
        split_dataset(np.arange(4))
    with pytest.raises(ValueError, match="left_size"):
        split_dataset(np.arange(4), left_size=4)
    with pytest.raises(ValueError, match="fraction"):
        split_dataset(np.arange(4), left_size=1.5)
    with pytest.raises(ValueError, match="exceeds"):
        split_dataset(np.arange(4), left_size=3, right_size=2)
    with pytest.raises(ValueError, match="empty"):
        split_dataset(np.arange(4), left_size=0.1)
    with pytest.raises(TypeError, match="left_size"):
        split_dataset(np.arange(4), left_size="2")
    with pytest.raises(ValueError, match="same length"):
        split_dataset((np.arange(4), np.arange(3)), left_size=1)
    with pytest.raises(ValueError, match="finite"):
        split_dataset(Dataset.range(3).repeat(), left_size=1)
