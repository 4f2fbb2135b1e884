"""The weight-surgery example: a sliced head keeps the old logits and survives save/load."""

import importlib.util
from pathlib import Path

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "weight_surgery.py"


def test_weight_surgery_example(tmp_path):
    spec = importlib.util.spec_from_file_location("weight_surgery", EXAMPLE)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    result = module.main(str(tmp_path), epochs=5)
    assert result["max_diff"] < 1e-5  # the kept channels are the old logits
    assert result["reload_diff"] == 0.0
    assert result["accuracy"] > 0.9
    assert (tmp_path / "two_classes.h5").exists()
