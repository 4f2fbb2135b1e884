import numpy as np
import pytest

import hikeras
from hikeras import callbacks, layers

from .conftest import ScriptedLogs


class RecordLR(callbacks.Callback):
    """The learning rate in effect during each epoch."""

    def __init__(self):
        super().__init__()
        self.rates = []

    def on_epoch_begin(self, epoch, logs=None):
        self.rates.append(self.model.optimizer.learning_rate)


def _fit(model, data, cbs, epochs):
    x, y = data
    return model.fit(x, y, batch_size=8, epochs=epochs, verbose=0, callbacks=cbs)


def test_plateau_reduces_at_the_hand_computed_epochs(make_model, data):
    # best 5 at e0; e1, e2 miss -> reduce after each (patience 1); 4 at e3 improves;
    # e4, e5 miss -> reduce again.
    plateau = callbacks.ReduceLROnPlateau(monitor="loss", factor=0.5, patience=1, min_delta=0)
    record = RecordLR()
    history = _fit(make_model(lr=0.1), data,
                   [ScriptedLogs(loss=[5, 5, 5, 4, 4, 4]), plateau, record], epochs=6)
    expected = [0.1, 0.1, 0.05, 0.025, 0.025, 0.0125]
    np.testing.assert_allclose(record.rates, expected, rtol=1e-6)
    np.testing.assert_allclose(history.history["learning_rate"], expected, rtol=1e-6)
    assert plateau.model.optimizer.learning_rate == pytest.approx(0.00625)


def test_plateau_cooldown_and_min_lr(make_model, data):
    # patience 1, cooldown 2: reductions after e1, e3, e5, e7 (two quiet epochs each time).
    plateau = callbacks.ReduceLROnPlateau(monitor="loss", factor=0.5, patience=1, cooldown=2)
    record = RecordLR()
    _fit(make_model(lr=0.1), data, [ScriptedLogs(loss=[5] * 8), plateau, record], epochs=8)
    np.testing.assert_allclose(record.rates, [0.1, 0.1, 0.05, 0.05, 0.025, 0.025, 0.0125,
                                              0.0125], rtol=1e-6)
    floor = callbacks.ReduceLROnPlateau(monitor="loss", factor=0.5, patience=0, min_lr=0.03)
    model = make_model(lr=0.1)
    _fit(model, data, [ScriptedLogs(loss=[5] * 5), floor], epochs=5)
    assert model.optimizer.learning_rate == pytest.approx(0.03)


def test_plateau_rejects_bad_arguments():
    with pytest.raises(ValueError, match="factor >= 1.0"):
        callbacks.ReduceLROnPlateau(factor=1.0)
    with pytest.raises(ValueError, match="mode must be one of"):
        callbacks.ReduceLROnPlateau(mode="up")
    with pytest.raises(ValueError, match="unknown arguments"):
        callbacks.ReduceLROnPlateau(patiense=3)
    assert callbacks.ReduceLROnPlateau(epsilon=0.5).min_delta == 0.5  # Keras 2 spelling


def _single_weight_model(lr):
    model = hikeras.Sequential([hikeras.Input((1,)), layers.Dense(1, use_bias=False)])
    model.compile(optimizer=hikeras.optimizers.SGD(lr), loss="mse")
    model.set_weights([np.ones((1, 1), "float32")])
    return model


def test_scheduler_sets_the_rate_used_by_each_epoch():
    # loss = w**2 on x=1, y=0: each SGD step multiplies w by (1 - 2 * lr).
    model = _single_weight_model(0.2)
    halve = callbacks.LearningRateScheduler(lambda epoch, lr: lr if epoch == 0 else lr / 2)
    history = model.fit(np.ones((1, 1)), np.zeros((1, 1)), epochs=3, verbose=0,
                        callbacks=[halve])
    np.testing.assert_allclose(history.history["learning_rate"], [0.2, 0.1, 0.05], rtol=1e-6)
    np.testing.assert_allclose(model.get_weights()[0], [[0.6 * 0.8 * 0.9]], rtol=1e-5)


def test_scheduler_accepts_epoch_only_schedules_and_checks_the_result(capsys):
    model = _single_weight_model(0.2)
    fixed = callbacks.LearningRateScheduler(lambda epoch: 0.125, verbose=1)
    model.fit(np.ones((1, 1)), np.zeros((1, 1)), epochs=1, verbose=0, callbacks=[fixed])
    assert model.optimizer.learning_rate == 0.125
    assert "setting learning rate to 0.125" in capsys.readouterr().out
    broken = callbacks.LearningRateScheduler(lambda epoch, lr: "fast" if epoch == 1 else lr)
    with pytest.raises(ValueError, match="at epoch 1 it returned 'fast'"):
        model.fit(np.ones((1, 1)), np.zeros((1, 1)), epochs=2, verbose=0, callbacks=[broken])
    with pytest.raises(TypeError, match="schedule must be callable"):
        callbacks.LearningRateScheduler(0.1)
