"""The transformer example must train its tiny encoder well above chance (0.5)."""

import importlib.util
from pathlib import Path

import numpy as np

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "transformer_block.py"


def _load():
    spec = importlib.util.spec_from_file_location("transformer_block", EXAMPLE)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_synthetic_labels_say_whether_marker_a_precedes_marker_b():
    module = _load()
    tokens, labels = module.make_sequences(50, np.random.default_rng(1))
    for row, label in zip(tokens, labels):
        a, b = list(row).index(module.MARKER_A), list(row).index(module.MARKER_B)
        assert label == (a < b)
        assert list(row).count(module.MARKER_A) == 1 and list(row).count(module.MARKER_B) == 1
    assert 0.3 < labels.mean() < 0.7


def test_transformer_example_beats_chance_by_far(capsys):
    accuracy = _load().main(epochs=4)  # the example runs 8; 4 are enough here
    out = capsys.readouterr().out
    assert accuracy >= 0.9
    assert "multi_head_attention" in out and "test accuracy" in out
