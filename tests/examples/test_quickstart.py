"""The README's demo must keep working and keep its promise (test accuracy >= 0.95)."""

import importlib.util
from pathlib import Path

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "quickstart.py"


def test_quickstart_trains_to_95_percent(capsys):
    spec = importlib.util.spec_from_file_location("quickstart", EXAMPLE)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    accuracy = module.main()
    out = capsys.readouterr().out
    assert accuracy >= 0.95
    assert "Epoch 30/30" in out and "test accuracy" in out and "Total params: 9,610" in out
