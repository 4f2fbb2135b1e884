"""examples/text_lstm.py: masked sequence classification must learn its task."""

import importlib.util
from pathlib import Path

import numpy as np

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "text_lstm.py"


def _load():
    spec = importlib.util.spec_from_file_location("text_lstm", EXAMPLE)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_text_lstm_learns_the_pattern(capsys):
    accuracy = _load().main(train_size=1200, epochs=6, verbose=0)
    out = capsys.readouterr().out
    assert accuracy >= 0.9
    assert "padded vs bare LSTM output: max difference" in out


def test_generated_labels_follow_the_rule():
    module = _load()
    x, y = module.make_dataset(200, np.random.default_rng(0))
    assert x.shape == (200, module.MAX_LEN) and 0.4 < y.mean() < 0.7
    for row, label in zip(x, y):
        tokens = [int(t) for t in row if t != 0]
        assert label == module.contains_pattern(tokens)
