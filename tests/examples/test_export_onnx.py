"""examples/export_onnx.py trains, exports, and onnxruntime agrees with predict."""

import importlib.util
from pathlib import Path

import pytest

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "export_onnx.py"


def test_export_example_runs_and_the_runtimes_agree(tmp_path, capsys):
    pytest.importorskip("onnxruntime")
    pytest.importorskip("onnx")
    spec = importlib.util.spec_from_file_location("export_onnx", EXAMPLE)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    path = tmp_path / "classifier.onnx"
    difference, accuracy = module.main(str(path))
    assert path.exists()
    assert difference < 1e-5
    assert accuracy > 0.8
    assert "onnxruntime test accuracy" in capsys.readouterr().out
