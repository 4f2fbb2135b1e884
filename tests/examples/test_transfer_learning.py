"""The transfer-learning example: a frozen base stays bit-identical, fine-tuning moves only the top."""

import importlib.util
from pathlib import Path

import numpy as np

import hikeras

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "transfer_learning.py"


def _load():
    spec = importlib.util.spec_from_file_location("transfer_learning", EXAMPLE)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _snapshot(layer):
    return {w.path: w.value.copy() for w in layer.weights}


def test_frozen_base_is_bit_identical_and_fine_tuning_moves_only_the_top():
    example = _load()
    hikeras.utils.set_random_seed(0)
    base = example.build_base()
    assert example.train_source(base, epochs=6) >= 0.95
    moving = [w.path for w in base.non_trainable_weights]
    assert len(moving) == 4 and sum("moving_mean" in p for p in moving) == 2

    before = _snapshot(base)
    model, accuracy = example.train_new_head(base)
    after = _snapshot(base)
    assert before.keys() == after.keys()
    for path in before:
        np.testing.assert_array_equal(after[path], before[path], err_msg=path)
    assert accuracy >= 0.8  # five classes: chance is 0.2

    head = model.get_layer("new_head")
    head_before = head.get_weights()[0].copy()
    example.fine_tune(model, base, epochs=2)
    tuned = _snapshot(base)
    changed = {p for p in before if not np.array_equal(tuned[p], before[p])}
    assert changed == {p for p in before if p.startswith("top_conv/")}
    assert not np.array_equal(head.get_weights()[0], head_before)


def test_freezing_alone_keeps_batch_normalization_in_inference_mode():
    # Without the example's `training=False`, `trainable = False` must suffice.
    example = _load()
    hikeras.utils.set_random_seed(1)
    base = example.build_base()
    base.trainable = False
    inputs = hikeras.Input(shape=(8, 8, 1))
    model = hikeras.Model(inputs, hikeras.layers.Dense(5, activation="softmax")(base(inputs)))
    (x, y), _ = example.load_task(example.TARGET_DIGITS)
    before = _snapshot(base)
    model.compile(optimizer="adam", loss="sparse_categorical_crossentropy")
    model.fit(x, y, batch_size=64, epochs=1, verbose=0)
    for path, value in _snapshot(base).items():
        np.testing.assert_array_equal(value, before[path], err_msg=path)
