"""The CNN example must keep working and keep its promise (test accuracy >= 0.95)."""

import importlib.util
from pathlib import Path

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "mnist_cnn.py"


def test_mnist_cnn_trains_to_95_percent(capsys):
    spec = importlib.util.spec_from_file_location("mnist_cnn", EXAMPLE)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    accuracy = module.main()
    out = capsys.readouterr().out
    assert accuracy >= 0.95
    assert "Epoch 10/10" in out and "test accuracy" in out and "Total params: 40,394" in out
