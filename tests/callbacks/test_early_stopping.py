import numpy as np
import pytest

from hikeras import callbacks

from .conftest import ScriptedLogs


def _fit(model, data, cbs, epochs=20, **kwargs):
    x, y = data
    return model.fit(x, y, batch_size=8, epochs=epochs, verbose=0, callbacks=cbs, **kwargs)


@pytest.mark.parametrize("losses, kwargs, stopped", [
    # e2 and e3 do not beat 4.0: patience 2 is exhausted at epoch 3.
    ([5, 4, 4.5, 4.2, 3, 3, 3, 3], dict(patience=2), 3),
    # min_delta 0.5: 4.6 (e1) and 3.5, 3.4 (e4, e5) are not improvements on 5, 3.8.
    ([5, 4.6, 4.4, 3.8, 3.5, 3.4, 3, 3], dict(patience=2, min_delta=0.5), 5),
    # Keras 3 baseline rule: improving epochs that miss the baseline keep counting.
    ([2, 1.5, 1.6, 1.7, 1.8, 1.9, 2, 2], dict(patience=3, baseline=1.0), 2),
    ([2, 1.5, 1.6, 1.7, 1.8, 1.9, 2, 2], dict(patience=3), 4),
    # Warm-up epochs 0-2 are ignored, then patience 0 stops at the first miss.
    ([1, 2, 3, 4, 5, 6, 7, 8], dict(patience=0, start_from_epoch=3), 4),
    ([1, 2, 3, 4, 5, 6, 7, 8], dict(patience=0), 1),
])
def test_stops_at_the_hand_computed_epoch(make_model, data, losses, kwargs, stopped):
    stop = callbacks.EarlyStopping(monitor="loss", **kwargs)
    history = _fit(make_model(), data, [ScriptedLogs(loss=losses), stop], epochs=len(losses))
    assert stop.stopped_epoch == stopped
    assert history.epoch == list(range(stopped + 1))


def test_auto_mode_maximizes_accuracy(make_model, data):
    stop = callbacks.EarlyStopping(monitor="accuracy", patience=1)
    history = _fit(make_model(metrics=["accuracy"]), data,
                   [ScriptedLogs(accuracy=[0.5, 0.6, 0.55, 0.58, 0.7]), stop], epochs=5)
    assert stop.stopped_epoch == 2 and len(history.epoch) == 3 and stop.best == 0.6


def test_restore_best_weights_puts_back_the_best_epoch(make_model, data):
    snapshots = []
    record = callbacks.LambdaCallback(
        on_epoch_end=lambda epoch, logs: snapshots.append(model.get_weights()))
    stop = callbacks.EarlyStopping(monitor="loss", patience=2, restore_best_weights=True)
    model = make_model(lr=0.05)
    _fit(model, data, [ScriptedLogs(loss=[3, 1, 2, 2.5, 0, 0]), stop, record], epochs=6)
    assert stop.stopped_epoch == 3 and stop.best_epoch == 1 and len(snapshots) == 4
    for final, best, last in zip(model.get_weights(), snapshots[1], snapshots[3]):
        np.testing.assert_array_equal(final, best)
    assert any(not np.array_equal(a, b) for a, b in zip(snapshots[1], snapshots[3]))


def test_epochs_without_validation_are_skipped(make_model, data):
    class ScriptValidated(callbacks.Callback):
        def on_epoch_end(self, epoch, logs=None):
            if "val_loss" in logs:
                logs["val_loss"] = {1: 5.0, 3: 6.0, 5: 7.0}[epoch]

    stop = callbacks.EarlyStopping(patience=0)
    history = _fit(make_model(), data, [ScriptValidated(), stop], epochs=6,
                   validation_data=data, validation_freq=2)
    assert stop.stopped_epoch == 3 and len(history.epoch) == 4


def test_misspelt_monitor_fails_at_the_first_epoch_end_listing_keys(make_model, data):
    ended = []
    watcher = callbacks.LambdaCallback(on_epoch_end=lambda epoch, logs: ended.append(epoch))
    with pytest.raises(ValueError, match=r"'val_los' is not among.*'val_loss'"):
        _fit(make_model(), data, [watcher, callbacks.EarlyStopping(monitor="val_los")],
             validation_data=data, epochs=3)
    assert ended == [0]


def test_a_key_an_earlier_callback_logs_at_epoch_end_can_be_monitored(make_model, data):
    """Issue 18: callbacks share one logs dict in order (as in Keras)."""

    class ValidationByHand(callbacks.Callback):
        def on_epoch_end(self, epoch, logs=None):
            logs["val_loss"] = [3.0, 2.0, 2.5, 2.6, 2.7][epoch]

    history = _fit(make_model(), data, [ValidationByHand(),
                                        callbacks.EarlyStopping(monitor="val_loss", patience=1)],
                   epochs=5)
    assert history.history["val_loss"] == [3.0, 2.0, 2.5]


def test_val_monitor_without_validation_data_fails_early(make_model, data):
    with pytest.raises(ValueError, match=r"Available keys: \['loss'\]"):
        _fit(make_model(), data, [callbacks.EarlyStopping()])


def test_direction_of_an_unknown_metric_must_be_given(make_model, data):
    def my_score(y_true, y_pred):
        return np.abs(y_true - y_pred)

    with pytest.raises(ValueError, match="Pass mode='min' or mode='max'"):
        _fit(make_model(metrics=[my_score]), data,
             [callbacks.EarlyStopping(monitor="my_score")])
    history = _fit(make_model(metrics=[my_score]), data,
                   [callbacks.EarlyStopping(monitor="my_score", mode="min")], epochs=2)
    assert len(history.epoch) == 2


@pytest.mark.parametrize("kwargs, match", [
    (dict(mode="best"), "mode must be one of"),
    (dict(patience=-1), "patience must be a non-negative integer"),
    (dict(start_from_epoch=1.5), "start_from_epoch"),
    (dict(monitor=""), "monitor must be a non-empty"),
])
def test_bad_arguments(kwargs, match):
    with pytest.raises(ValueError, match=match):
        callbacks.EarlyStopping(**kwargs)
