"""fit on arrays: validation_split from the end before shuffling, seeded shuffles, steps."""

import numpy as np
import pytest

import hikeras
from tests.data.fit_helpers import Recorder, make_model, rows


def test_validation_split_takes_the_last_samples_before_shuffling():
    model = make_model(Recorder)
    x, y = rows(10)
    model.fit(x, y, batch_size=4, epochs=2, validation_split=0.3, shuffle=True, verbose=0)
    trained = sorted(v for batch in model.trained for v in batch)
    assert trained == sorted(list(range(7)) * 2)
    assert model.tested == [[7.0, 8.0, 9.0], [7.0, 8.0, 9.0]]


def test_shuffle_order_is_reproducible_with_the_global_seed():
    x, y = rows(12)
    orders = []
    for _ in range(2):
        model = make_model(Recorder)
        hikeras.utils.set_random_seed(5)
        model.fit(x, y, batch_size=4, epochs=2, verbose=0)
        orders.append(model.trained)
    assert orders[0] == orders[1]
    epoch1, epoch2 = sum(orders[0][:3], []), sum(orders[0][3:], [])
    assert sorted(epoch1) == sorted(epoch2) == list(range(12)) and epoch1 != epoch2
    model = make_model(Recorder)
    model.fit(x, y, batch_size=5, epochs=1, shuffle=False, verbose=0)
    assert model.trained == [[0, 1, 2, 3, 4], [5, 6, 7, 8, 9], [10, 11]]


def test_steps_per_epoch_continues_where_the_last_epoch_stopped():
    model = make_model(Recorder)
    x, y = rows(10)
    history = model.fit(x, y, batch_size=2, epochs=3, steps_per_epoch=2, shuffle=False,
                        verbose=0)
    assert model.trained == [[0, 1], [2, 3], [4, 5], [6, 7], [8, 9], [0, 1]]
    assert len(history.history["loss"]) == 3


def test_evaluate_with_steps_reads_at_most_that_many_batches():
    model = make_model(Recorder)
    x, y = rows(10)
    model.evaluate(x, y, batch_size=3, steps=2, verbose=0)
    assert model.tested == [[0, 1, 2], [3, 4, 5]]
    with pytest.warns(UserWarning, match="ran out of data"):
        model.evaluate(x, y, batch_size=5, steps=3, verbose=0)


def test_class_weight_matches_explicit_sample_weight():
    x, _ = rows(8)
    weights = {0: 1.0, 1: 3.0}
    labels = (np.arange(8) % 2).astype("float32")[:, None]
    a = make_model(learning_rate=0.0)
    b = make_model(learning_rate=0.0)
    loss_cw = a.fit(x, labels, class_weight=weights, batch_size=8, verbose=0).history["loss"]
    sw = np.where(labels[:, 0] == 1, 3.0, 1.0)
    loss_sw = b.fit(x, labels, sample_weight=sw, batch_size=8, verbose=0).history["loss"]
    assert loss_cw == pytest.approx(loss_sw)
