"""Dataset sources and combinators: what each yields, in what order, and its cardinality."""

import numpy as np
import pytest

from hikeras.data import INFINITE_CARDINALITY, UNKNOWN_CARDINALITY, Dataset


def test_from_tensor_slices_array_tuple_and_dict():
    x = np.arange(12).reshape(4, 3)
    rows = list(Dataset.from_tensor_slices(x))
    assert [r.tolist() for r in rows] == x.tolist()

    pairs = list(Dataset.from_tensor_slices((x, np.array([10, 11, 12, 13]))))
    assert [(a.tolist(), int(b)) for a, b in pairs] == [
        ([0, 1, 2], 10), ([3, 4, 5], 11), ([6, 7, 8], 12), ([9, 10, 11], 13)]

    ds = Dataset.from_tensor_slices({"a": x, "b": (np.ones(4), np.zeros(4))})
    first = next(iter(ds))
    assert list(first) == ["a", "b"] and first["a"].tolist() == [0, 1, 2]
    assert isinstance(first["b"], tuple) and float(first["b"][0]) == 1.0
    assert ds.cardinality() == len(ds) == 4


def test_from_tensor_slices_treats_a_list_as_one_array():
    ds = Dataset.from_tensor_slices([[1, 2], [3, 4], [5, 6]])
    assert [e.tolist() for e in ds] == [[1, 2], [3, 4], [5, 6]]


def test_from_tensor_slices_rejects_mismatched_lengths_and_scalars():
    with pytest.raises(ValueError, match=r"tensors\[0\] with 3 rows, tensors\[1\] with 2 rows"):
        Dataset.from_tensor_slices((np.zeros(3), np.zeros(2)))
    with pytest.raises(ValueError, match="scalar"):
        Dataset.from_tensor_slices(np.float32(3))


def test_from_generator_restarts_each_pass_and_has_unknown_cardinality():
    calls = []

    def make(n):
        calls.append(n)
        for i in range(n):
            yield i, {"sq": i * i}

    ds = Dataset.from_generator(make, args=(3,))
    assert ds.cardinality() == UNKNOWN_CARDINALITY
    assert [(int(a), int(b["sq"])) for a, b in ds] == [(0, 0), (1, 1), (2, 4)]
    assert len(list(ds)) == 3 and calls == [3, 3]
    with pytest.raises(TypeError, match="cardinality"):
        len(ds)


def test_from_generator_needs_a_callable():
    gen = (i for i in range(3))
    with pytest.raises(TypeError, match="not a generator object"):
        Dataset.from_generator(gen)


def test_range_from_tensors_and_enumerate():
    assert [int(v) for v in Dataset.range(2, 11, 3)] == [2, 5, 8]
    assert Dataset.range(2, 11, 3).cardinality() == 3
    (only,) = list(Dataset.from_tensors(np.ones((2, 2))))
    assert only.shape == (2, 2)
    pairs = [(int(i), int(v)) for i, v in Dataset.range(3).map(lambda v: v * 10).enumerate(5)]
    assert pairs == [(5, 0), (6, 10), (7, 20)]


def test_zip_stops_at_the_shortest_and_accepts_dicts():
    a, b = Dataset.range(5), Dataset.range(10, 13)
    zipped = Dataset.zip(a, b)
    assert [(int(x), int(y)) for x, y in zipped] == [(0, 10), (1, 11), (2, 12)]
    assert zipped.cardinality() == 3
    assert Dataset.zip((a, b)).cardinality() == 3
    named = list(Dataset.zip({"x": a, "y": b}))
    assert int(named[1]["x"]) == 1 and int(named[1]["y"]) == 11
    assert Dataset.zip(a.repeat(), b).cardinality() == 3
    assert Dataset.zip(a.repeat(), b.repeat()).cardinality() == INFINITE_CARDINALITY
    with pytest.raises(TypeError, match="Datasets"):
        Dataset.zip(a, [1, 2])


def test_concatenate_appends_and_checks_structure():
    joined = Dataset.range(2).concatenate(Dataset.range(5, 7))
    assert [int(v) for v in joined] == [0, 1, 5, 6] and joined.cardinality() == 4
    mixed = Dataset.range(2).concatenate(Dataset.zip(Dataset.range(2), Dataset.range(2)))
    with pytest.raises(ValueError, match="same structure"):
        list(mixed)
    assert Dataset.range(2).concatenate(Dataset.range(1).repeat()).cardinality() == \
        INFINITE_CARDINALITY
