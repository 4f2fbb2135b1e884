"""fit on a `Sequence`: batch order, shuffling, on_epoch_end, the thread pool, its errors
and its clean shutdown when fit returns or raises."""

import threading
import traceback

import numpy as np
import pytest

import hikeras
from tests.data.fit_helpers import Recorder, data_threads, make_model, rows


class Batches(hikeras.utils.Sequence):
    def __init__(self, n=12, size=3, fail_at=None, **kwargs):
        super().__init__(**kwargs)
        self.x, self.y = rows(n)
        self.size, self.fail_at = size, fail_at
        self.epochs_ended = 0
        self.loaded_by = set()

    def __len__(self):
        return -(-len(self.x) // self.size)

    def __getitem__(self, index):
        self.loaded_by.add(threading.current_thread().name)
        if index == self.fail_at:
            raise IndexError(f"cannot load batch {index}")
        part = slice(index * self.size, (index + 1) * self.size)
        return self.x[part], self.y[part]

    def on_epoch_end(self):
        self.epochs_ended += 1


def test_sequence_order_and_on_epoch_end():
    model = make_model(Recorder)
    seq = Batches()
    history = model.fit(seq, epochs=2, shuffle=False, verbose=0)
    assert [b[0] for b in model.trained] == [0, 3, 6, 9] * 2
    assert seq.epochs_ended == 2 and len(history.history["loss"]) == 2


def test_sequence_shuffle_permutes_batches_reproducibly():
    orders = []
    for _ in range(2):
        model = make_model(Recorder)
        hikeras.utils.set_random_seed(11)
        model.fit(Batches(n=30), epochs=2, verbose=0)
        orders.append([b[0] for b in model.trained])
    assert orders[0] == orders[1]
    first, second = orders[0][:10], orders[0][10:]
    assert sorted(first) == sorted(second) == list(range(0, 30, 3)) and first != second


def test_workers_give_the_same_batches_in_the_same_order():
    plain, pooled = make_model(Recorder), make_model(Recorder)
    hikeras.utils.set_random_seed(2)
    plain.fit(Batches(n=30), epochs=2, verbose=0)
    hikeras.utils.set_random_seed(2)
    seq = Batches(n=30, workers=3, max_queue_size=4)
    pooled.fit(seq, epochs=2, verbose=0)
    assert pooled.trained == plain.trained
    assert any(name.startswith("hikeras-data") for name in seq.loaded_by)
    assert data_threads() == []


def test_fit_arguments_override_the_sequence_settings():
    seq = Batches(workers=1)
    make_model().fit(seq, workers=2, epochs=1, verbose=0)
    assert any(name.startswith("hikeras-data") for name in seq.loaded_by)
    with pytest.raises(ValueError, match="use_multiprocessing=True is not supported"):
        make_model().fit(Batches(), use_multiprocessing=True, verbose=0)
    with pytest.raises(ValueError, match="max_queue_size"):
        make_model().fit(Batches(), workers=2, max_queue_size=0, verbose=0)


def test_worker_exception_surfaces_with_its_traceback_and_no_thread_remains():
    model = make_model()
    with pytest.raises(IndexError, match="cannot load batch 2") as info:
        model.fit(Batches(fail_at=2, workers=3), epochs=1, shuffle=False, verbose=0)
    frames = traceback.extract_tb(info.value.__traceback__)
    assert any(f.name == "__getitem__" for f in frames)
    assert data_threads() == []


def test_no_thread_remains_when_the_training_loop_raises():
    class Boom(hikeras.callbacks.Callback):
        def on_train_batch_end(self, batch, logs=None):
            self.alive = len(data_threads())
            if batch == 1:
                raise RuntimeError("callback failed")

    boom = Boom()
    with pytest.raises(RuntimeError, match="callback failed"):
        make_model().fit(Batches(n=60, workers=3), epochs=1, callbacks=[boom], verbose=0)
    assert boom.alive > 0  # the pool was running during training ...
    assert data_threads() == []  # ... and is gone once fit has raised


def test_no_thread_remains_after_steps_per_epoch_training_and_validation():
    model = make_model()
    model.fit(Batches(n=60, workers=2), steps_per_epoch=3, epochs=2, verbose=0,
              validation_data=Batches(workers=2), validation_steps=2)
    assert data_threads() == []


def test_evaluate_and_predict_on_a_sequence():
    model = make_model()
    seq = Batches(n=10, workers=2)
    x, y = rows(10)
    assert model.evaluate(seq, verbose=0) == pytest.approx(
        model.evaluate(x, y, batch_size=3, verbose=0))
    np.testing.assert_allclose(model.predict(seq, verbose=0), model.predict(x, verbose=0))
    assert data_threads() == []
