"""examples/structured_data_feature_space.py: a model on raw table columns learns and reloads."""

import importlib.util
from pathlib import Path

import numpy as np

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "structured_data_feature_space.py"


def _load():
    spec = importlib.util.spec_from_file_location("structured_data_feature_space", EXAMPLE)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_model_learns_from_raw_columns_and_reloads(capsys):
    accuracy, reload_same = _load().main(epochs=20, count=400)
    assert accuracy >= 0.75  # the label is a fixed rule of the columns; chance is about 0.5
    assert reload_same
    # 4 age bins + 5 pain ids ([UNK] and 4) + 1 + 1 + 3 smoker ids ([UNK], 0, 1)
    # + 8 city bins + 4 ward bins + 16 crossing bins
    assert "encoded as 42 numbers" in capsys.readouterr().out


def test_labels_follow_the_rule_on_the_columns():
    module = _load()
    columns, labels = module.make_patients(200, np.random.default_rng(1))
    assert set(columns) == {"age", "cholesterol", "heart_rate", "chest_pain", "smoker", "city",
                            "ward"}
    assert 0.2 < labels.mean() < 0.8  # both classes are common
