"""Dataset transformations: ordering, shuffling determinism, repeat counts, caching."""

import numpy as np
import pytest

import hikeras
from hikeras.data import AUTOTUNE, INFINITE_CARDINALITY, UNKNOWN_CARDINALITY, Dataset


def test_map_spreads_tuples_and_keeps_order_with_parallel_calls():
    x = np.arange(50)
    ds = Dataset.from_tensor_slices((x, x * 2))
    sequential = [(int(a), int(b)) for a, b in ds.map(lambda a, b: (a + 1, a * b))]
    assert sequential == [(i + 1, i * 2 * i) for i in range(50)]
    for calls in (2, 7, AUTOTUNE):
        parallel = [(int(a), int(b)) for a, b in ds.map(lambda a, b: (a + 1, a * b),
                                                         num_parallel_calls=calls)]
        assert parallel == sequential
    dicts = list(Dataset.from_tensor_slices({"v": x[:3]}).map(lambda d: d["v"] * 3))
    assert [int(v) for v in dicts] == [0, 3, 6]


def test_map_rejects_bad_num_parallel_calls():
    with pytest.raises(ValueError, match="num_parallel_calls"):
        Dataset.range(3).map(lambda v: v, num_parallel_calls=0)


def test_filter_keeps_order_and_needs_a_scalar_boolean():
    evens = Dataset.range(10).filter(lambda v: v % 2 == 0)
    assert [int(v) for v in evens] == [0, 2, 4, 6, 8]
    assert evens.cardinality() == UNKNOWN_CARDINALITY
    with pytest.raises(ValueError, match="scalar boolean"):
        list(Dataset.range(3).filter(lambda v: v))


def test_shuffle_is_a_permutation_deterministic_for_a_seed():
    ds = Dataset.range(100).shuffle(100, seed=7)
    first, second = [int(v) for v in ds], [int(v) for v in ds]
    assert sorted(first) == list(range(100)) and first != list(range(100))
    assert first != second  # reshuffled on each pass
    again = Dataset.range(100).shuffle(100, seed=7)
    assert [int(v) for v in again] == first and [int(v) for v in again] == second
    fixed = Dataset.range(100).shuffle(100, seed=7, reshuffle_each_iteration=False)
    assert [int(v) for v in fixed] == [int(v) for v in fixed]


def test_shuffle_without_seed_follows_the_global_seed():
    hikeras.utils.set_random_seed(3)
    a = [int(v) for v in Dataset.range(20).shuffle(20)]
    hikeras.utils.set_random_seed(3)
    b = [int(v) for v in Dataset.range(20).shuffle(20)]
    assert a == b


def test_shuffle_buffer_bounds_how_far_elements_move():
    # With a buffer of 3, the element at output position i is among the
    # first i + 3 inputs; a buffer of 1 changes nothing.
    out = [int(v) for v in Dataset.range(50).shuffle(3, seed=1)]
    assert sorted(out) == list(range(50))
    assert all(v < i + 3 for i, v in enumerate(out))
    assert [int(v) for v in Dataset.range(10).shuffle(1, seed=1)] == list(range(10))


def test_repeat_counts_and_rejects_booleans():
    assert [int(v) for v in Dataset.range(3).repeat(2)] == [0, 1, 2, 0, 1, 2]
    assert Dataset.range(3).repeat(2).cardinality() == 6
    assert list(Dataset.range(3).repeat(0)) == []
    forever = Dataset.range(3).repeat()
    assert forever.cardinality() == INFINITE_CARDINALITY
    assert [int(v) for v in forever.take(7)] == [0, 1, 2, 0, 1, 2, 0]
    assert Dataset.range(3).repeat(-1).cardinality() == INFINITE_CARDINALITY
    for bad in (True, False, 1.5, -2, "2"):
        with pytest.raises(ValueError, match=r"`count` must be .* Received: count="):
            Dataset.range(3).repeat(bad)


def test_repeat_of_an_empty_dataset_ends():
    assert list(Dataset.range(0).repeat()) == []


def test_take_and_skip():
    ds = Dataset.range(10)
    assert [int(v) for v in ds.take(3)] == [0, 1, 2] and ds.take(3).cardinality() == 3
    assert [int(v) for v in ds.skip(7)] == [7, 8, 9] and ds.skip(7).cardinality() == 3
    assert len(list(ds.take(-1))) == 10 and list(ds.skip(-1)) == []
    assert ds.take(20).cardinality() == 10 and ds.skip(20).cardinality() == 0
    assert ds.repeat().take(4).cardinality() == 4
    with pytest.raises(ValueError, match="count"):
        ds.take(-3)


def test_cache_replays_the_first_complete_pass():
    calls = []

    def record(v):
        calls.append(int(v))
        return v

    ds = Dataset.range(4).map(record).cache()
    list(ds.take(2))  # a partial pass is not cached
    assert [int(v) for v in ds] == [0, 1, 2, 3]
    assert [int(v) for v in ds] == [0, 1, 2, 3]
    assert calls == [0, 1, 0, 1, 2, 3]
    with pytest.raises(ValueError, match="in memory"):
        Dataset.range(2).cache("file.cache")


def test_cache_before_shuffle_keeps_data_but_reshuffles():
    ds = Dataset.range(20).cache().shuffle(20, seed=0)
    a, b = [int(v) for v in ds], [int(v) for v in ds]
    assert sorted(a) == sorted(b) == list(range(20)) and a != b
