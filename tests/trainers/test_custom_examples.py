"""The training examples run and keep their promises."""

import importlib.util
from pathlib import Path

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"


def load(name):
    spec = importlib.util.spec_from_file_location(name, EXAMPLES / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_custom_loss_and_metric_example(capsys):
    f1 = load("custom_loss_and_metric").main()
    out = capsys.readouterr().out
    assert f1 > 0.9
    assert "reloaded f1score" in out


def test_custom_training_loop_example(capsys):
    accuracy = load("custom_training_loop").main(epochs=4)
    assert accuracy > 0.9
    assert "epoch 4:" in capsys.readouterr().out
