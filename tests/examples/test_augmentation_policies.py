"""examples/augmentation_policies.py: a model trained through RandAugment and AugMix learns,
and reloads with its CLAHE step."""

import importlib.util
from pathlib import Path

import numpy as np

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "augmentation_policies.py"


def _load():
    spec = importlib.util.spec_from_file_location("augmentation_policies", EXAMPLE)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_learns_through_the_augmentations_and_reloads():
    accuracy, same = _load().main(epochs=4)
    assert accuracy >= 0.6  # chance is 0.1
    assert same


def test_the_pipeline_augments_and_evaluation_data_is_untouched():
    module = _load()
    (x_train, y_train), _ = module.load_images()
    x, y = x_train[:8], y_train[:8]
    (augmented, labels), = list(module.training_pipeline(x, y, batch_size=8))
    assert augmented.shape == x.shape and sorted(labels) == sorted(y)
    assert not np.allclose(np.sort(augmented.ravel()), np.sort(x.ravel()))
    model = module.build_model()
    clahe = model.layers[1]
    np.testing.assert_allclose(model.get_layer("augment")(x, training=False), x)
    assert type(clahe).__name__ == "ContrastLimitedAdaptiveHistogramEqualization"
