"""The spectrogram example (custom layer on ops.stft/ops.top_k) must learn its four tones."""

import importlib.util
from pathlib import Path

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "spectrogram_classifier.py"


def test_spectrogram_classifier_learns_the_tones(capsys):
    spec = importlib.util.spec_from_file_location("spectrogram_classifier", EXAMPLE)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    accuracy = module.main()
    assert accuracy >= 0.9
    assert "test accuracy" in capsys.readouterr().out
