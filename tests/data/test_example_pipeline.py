"""examples/data_pipeline.py must run offline and learn the digits from both feeds."""

import importlib.util
from pathlib import Path

from tests.data.fit_helpers import data_threads

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "data_pipeline.py"


def test_data_pipeline_example_learns_and_cleans_up(capsys):
    spec = importlib.util.spec_from_file_location("data_pipeline", EXAMPLE)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    pipeline_accuracy, sequence_accuracy = module.main(epochs=8)
    out = capsys.readouterr().out
    assert "training batches per epoch: 23" in out and "Epoch 8/8" in out
    assert pipeline_accuracy >= 0.9 and sequence_accuracy >= 0.9
    assert data_threads() == []
