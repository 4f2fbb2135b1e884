import numpy as np
import pytest

import hikeras
from hikeras import layers
from hikeras.callbacks.progbar_logger import resolve_verbose


def _fit(verbose, epochs=2):
    model = hikeras.Sequential([hikeras.Input((2,)), layers.Dense(1)])
    model.compile(optimizer="sgd", loss="mse", metrics=["mae"])
    return model.fit(np.ones((8, 2), "float32"), np.ones((8, 1), "float32"), epochs=epochs,
                     batch_size=4, verbose=verbose)


def test_verbose_0_prints_nothing(capsys):
    _fit(0)
    captured = capsys.readouterr()
    assert captured.out == "" and captured.err == ""


def test_verbose_2_prints_one_line_per_epoch(capsys):
    _fit(2, epochs=3)
    lines = [l for l in capsys.readouterr().out.splitlines() if l.strip()]
    assert len(lines) == 3
    assert lines[0].startswith("Epoch 1/3") and "loss:" in lines[0] and "mae:" in lines[0]


def test_verbose_1_shows_a_bar_with_live_metrics(capsys):
    _fit(1, epochs=1)
    out = capsys.readouterr().out
    assert "Epoch 1/1" in out and "2/2" in out and "loss:" in out


def test_auto_is_2_when_not_a_tty(capsys):
    assert resolve_verbose("auto") == 2  # pytest captures stdout: not a terminal
    with pytest.raises(ValueError, match="Received: verbose=3"):
        resolve_verbose(3)


def test_history_object_returned_and_attached():
    history = _fit(0, epochs=2)
    assert isinstance(history, hikeras.callbacks.History)
    assert history.epoch == [0, 1] and len(history.history["mae"]) == 2
