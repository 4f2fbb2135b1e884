"""examples/distillation.py runs, and its distilled student learns the task."""

import importlib.util
from pathlib import Path

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "distillation.py"


def test_distilled_student_classifies_digits(capsys):
    spec = importlib.util.spec_from_file_location("distillation_example", EXAMPLE)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    results = module.main()
    assert results["teacher"] >= 0.95
    assert results["distilled student"] >= 0.93
    out = capsys.readouterr().out
    assert "'distillation_loss'" in out and "student params 2,778" in out
