"""The parts of `hikeras.distribute` that need no MPI: sharding, scopes, chief-only callbacks."""

import doctest
import sys

import numpy as np
import pytest

import hikeras
from hikeras import callbacks, layers
from hikeras.distribute import MPIStrategy, get_strategy, is_chief, scope, sharding
from hikeras.distribute.sharding import shard_batch, shard_counts


class FakeStrategy:
    """Stands in for a rank of a multi-process strategy."""

    def __init__(self, is_chief):
        self.is_chief = is_chief


@pytest.mark.parametrize("module", [scope, sharding])
def test_docstrings(module):
    assert doctest.testmod(module).failed == 0


@pytest.mark.parametrize("batch_size", range(1, 12))
@pytest.mark.parametrize("num_replicas", [1, 2, 3, 4])
def test_counts_split_evenly_and_cover_the_batch(batch_size, num_replicas):
    counts = shard_counts(batch_size, num_replicas)
    assert sum(counts) == batch_size
    assert max(counts) - min(counts) <= 1


def test_shards_are_contiguous_slices_in_rank_order():
    x = {"a": np.arange(10).reshape(5, 2), "b": np.arange(5)}
    y, weights = np.arange(5) * 10, None
    first, second = (shard_batch((x, y, weights), r, 2) for r in (0, 1))
    assert (first.count, second.count, first.global_count) == (2, 3, 5)
    assert first.data[0]["a"].tolist() == [[0, 1], [2, 3]]
    assert second.data[0]["b"].tolist() == [2, 3, 4]
    assert second.data[1].tolist() == [20, 30, 40]
    assert second.data[2] is None
    assert (first.weight, second.weight) == (0.4, 0.6)
    assert not first.phantom and not second.phantom


def test_a_rank_without_rows_gets_a_phantom_row_weighted_zero():
    empty, full = (shard_batch(np.array([[7.0, 8.0]]), r, 2) for r in (0, 1))
    assert full.count == 1 and full.weight == 1.0
    assert empty.phantom and empty.count == 0 and empty.weight == 0.0
    assert empty.data.tolist() == [[7.0, 8.0]]


def test_arrays_of_different_lengths_are_refused():
    with pytest.raises(ValueError, match=r"same number of rows.*Received: an array of shape"):
        shard_batch((np.zeros((4, 2)), np.zeros(3)), 0, 2)


def test_scope_sets_and_clears_the_strategy_models_remember_it():
    strategy = FakeStrategy(is_chief=False)
    assert get_strategy() is None
    scope.enter(strategy)
    try:
        model = hikeras.Sequential([hikeras.Input((2,)), layers.Dense(1)])
        assert get_strategy() is strategy
        assert not is_chief()
        with pytest.raises(ValueError, match="different distribution strategy"):
            scope.enter(FakeStrategy(is_chief=True))
    finally:
        scope.exit_(strategy)
    assert get_strategy() is None and is_chief()
    assert model.distribute_strategy is strategy and not is_chief(model)
    outside = hikeras.Sequential([hikeras.Input((2,)), layers.Dense(1)])
    assert outside.distribute_strategy is None and is_chief(outside)


@pytest.mark.parametrize("chief", [True, False])
def test_file_and_progress_callbacks_run_on_the_chief_only(tmp_path, chief):
    model = hikeras.Sequential([hikeras.Input((2,)), layers.Dense(1)])
    model.distribute_strategy = FakeStrategy(is_chief=chief)
    given = [callbacks.CSVLogger(str(tmp_path / "log.csv")),
             callbacks.ModelCheckpoint(str(tmp_path / "w.weights.h5"), save_weights_only=True),
             callbacks.EarlyStopping(), callbacks.TerminateOnNaN()]
    kept = callbacks.CallbackList(given, add_history=True, add_progbar=True, model=model)
    names = [type(cb).__name__ for cb in kept.callbacks]
    always = ["EarlyStopping", "TerminateOnNaN", "History"]
    assert names == (["ProgbarLogger", "CSVLogger", "ModelCheckpoint"] + always if chief
                     else always)


def test_without_mpi4py_the_error_names_the_install_command(monkeypatch):
    monkeypatch.setitem(sys.modules, "mpi4py", None)  # makes `from mpi4py import MPI` fail
    with pytest.raises(ImportError, match=r'pip install "hikeras\[mpi\]"'):
        MPIStrategy()
