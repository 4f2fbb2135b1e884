import numpy as np
import pytest

from hikeras.utils import timeseries_dataset_from_array


def test_windows_and_targets_match_a_direct_construction():
    data = np.arange(100).reshape(50, 2)
    targets = np.arange(50) * 10
    ds = timeseries_dataset_from_array(data, targets, sequence_length=4, sequence_stride=3,
                                       sampling_rate=2, batch_size=5, start_index=5,
                                       end_index=40)
    windows, labels = zip(*ds)
    windows, labels = np.concatenate(windows), np.concatenate(labels)
    starts = list(range(5, 40 - 3 * 2, 3))
    expected = np.stack([data[s:s + 8:2] for s in starts])
    np.testing.assert_array_equal(windows, expected)
    np.testing.assert_array_equal(labels, targets[starts])
    assert ds.cardinality() == -(-len(starts) // 5)


def test_without_targets_and_unbatched():
    ds = timeseries_dataset_from_array(np.arange(5), None, sequence_length=3, batch_size=None)
    assert [w.tolist() for w in ds] == [[0, 1, 2], [1, 2, 3], [2, 3, 4]]


def test_shuffle_permutes_windows_with_a_seed():
    data = np.arange(30)
    a = timeseries_dataset_from_array(data, data, 5, batch_size=None, shuffle=True, seed=1)
    b = timeseries_dataset_from_array(data, data, 5, batch_size=None, shuffle=True, seed=1)
    firsts = [int(w[0]) for w, _ in a]
    assert firsts == [int(w[0]) for w, _ in b]
    assert sorted(firsts) == list(range(26)) and firsts != list(range(26))
    assert all(int(t) == int(w[0]) for w, t in a)


def test_errors():
    with pytest.raises(ValueError, match="sequence_length"):
        timeseries_dataset_from_array(np.arange(5), None, sequence_length=0)
    with pytest.raises(ValueError, match="No window"):
        timeseries_dataset_from_array(np.arange(5), None, sequence_length=6)
    with pytest.raises(ValueError, match="end_index"):
        timeseries_dataset_from_array(np.arange(5), None, 2, start_index=3, end_index=2)
