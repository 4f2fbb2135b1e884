"""The Muon example: Muon trains the digits MLP, and only the non-matrix or excluded
weights get AdamW's velocity slot."""

import importlib.util
from pathlib import Path

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "muon_optimizer.py"


def test_muon_example():
    spec = importlib.util.spec_from_file_location("muon_optimizer", EXAMPLE)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    result = module.main(epochs=5)
    assert result["adamw_updated"] == ["hidden_1_bias_velocity", "hidden_2_bias_velocity",
                                       "output_kernel_velocity", "output_bias_velocity"]
    assert result["muon"] > 0.9 and result["adamw"] > 0.85
