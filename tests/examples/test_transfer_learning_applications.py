"""The applications transfer-learning example, on a few images: frozen base, fine-tuned top."""

import importlib.util
from pathlib import Path

import numpy as np

import hikeras
from tests.applications.seeded_weights import seed_model

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "transfer_learning_applications.py"


def _load():
    spec = importlib.util.spec_from_file_location("transfer_learning_applications", EXAMPLE)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_example_runs_with_a_local_weights_file(tmp_path):
    example = _load()
    # A stand-in for Keras's published file: the same architecture, seeded weights.
    source = hikeras.applications.MobileNetV2(weights=None, alpha=example.ALPHA,
                                              include_top=False,
                                              input_shape=(example.SIZE, example.SIZE, 3))
    seed_model(source)
    weights = tmp_path / "mobilenet_v2_no_top.h5"
    source.save_weights(str(weights))

    model = example.main(["--weights", str(weights), "--limit", "48", "--epochs", "1",
                          "--fine-tune-epochs", "1"])
    base = model.get_layer(source.name)
    tuned = {w.path: w.value for w in base.weights}
    original = {w.path: w.value for w in source.weights}
    changed = {path for path in original if not np.array_equal(tuned[path], original[path])}
    assert changed, "fine-tuning moved nothing"
    assert all(path.startswith(example.TOP_BLOCKS) for path in changed), changed
    assert not any("_BN/" in path or "_bn/" in path for path in changed)
