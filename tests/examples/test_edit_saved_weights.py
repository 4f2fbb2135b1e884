"""The file-editor example: an edited weights file gives the new model the old logits."""

import importlib.util
from pathlib import Path

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "edit_saved_weights.py"


def test_edit_saved_weights_example(tmp_path, capsys):
    spec = importlib.util.spec_from_file_location("edit_saved_weights", EXAMPLE)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    result = module.main(str(tmp_path), epochs=10)
    assert result["status"] == "success"
    assert result["max_diff"] < 1e-5  # the kept channels are the old logits
    assert result["accuracy"] > 0.9
    assert "dense_1 ('dense_1')" in capsys.readouterr().out
    assert (tmp_path / "zero_or_one.weights.h5").exists()
