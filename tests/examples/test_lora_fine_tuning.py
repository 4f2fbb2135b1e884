"""The LoRA example: fine-tuning trains a small share of the parameters, learns the new
digits, and its file loads into a model without LoRA with the same predictions."""

import importlib.util
from pathlib import Path

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "lora_fine_tuning.py"


def test_lora_fine_tuning_example():
    spec = importlib.util.spec_from_file_location("lora_fine_tuning", EXAMPLE)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    result = module.main(epochs=10)
    # biases 2 * 128, output layer 1,290, factors 64*4 + 4*128 + 128*4 + 4*128
    assert result["trainable"] == 256 + 1290 + 1792
    assert result["trainable"] < result["total"] / 5
    assert result["accuracy"] > 0.8
    assert result["gap"] < 1e-5
