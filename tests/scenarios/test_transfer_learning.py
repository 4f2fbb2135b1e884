"""Scenario: transfer learning with a frozen base, then fine-tuning.

The base is the trunk of a model Keras 3 trained and saved
(tests/fixtures/keras_scenarios/multi.keras), or of one hikeras saved: its
layers are reused through `model.input` and a layer's `output` (item 7), a new
head is trained with the base frozen, then everything is fine-tuned at a small
learning rate set with `optimizer.learning_rate.assign` (item 6).
"""

import numpy as np
import pytest

import hikeras as keras
from tests.scenarios.keras_scenarios import DATA, path


def _own_pretrained(tmp_path):
    inputs = keras.Input((4,), name="features")
    hidden = keras.layers.Dense(8, activation="relu", name="trunk")(inputs)
    model = keras.Model(inputs, keras.layers.Dense(1, name="price")(hidden))
    model.compile("adam", "mse")
    model.fit(DATA["x"], DATA["price"], epochs=2, verbose=0)
    model.save(tmp_path / "pretrained.keras")
    return tmp_path / "pretrained.keras"


@pytest.mark.parametrize("source", ["keras", "hikeras"])
def test_frozen_base_then_fine_tuning(source, tmp_path):
    file = path("multi", "keras") if source == "keras" else _own_pretrained(tmp_path)
    pretrained = keras.saving.load_model(file)
    base = keras.Model(pretrained.input, pretrained.layers[1].output, name="base")
    base.trainable = False

    inputs = keras.Input((4,))
    features = base(inputs, training=False)
    outputs = keras.layers.Dense(3, activation="softmax", name="head")(features)
    model = keras.Model(inputs, outputs)
    model.compile(keras.optimizers.Adam(0.01), "sparse_categorical_crossentropy",
                  metrics=["accuracy"])
    assert len(model.trainable_weights) == 2  # the head's kernel and bias only

    base_before = [w.copy() for w in base.get_weights()]
    head_before = [w.copy() for w in model.get_layer("head").get_weights()]
    model.fit(DATA["x"], DATA["sparse"], epochs=2, batch_size=8, verbose=0)
    for before, after in zip(base_before, base.get_weights()):
        np.testing.assert_array_equal(before, after)
    assert any(not np.array_equal(b, a) for b, a in
               zip(head_before, model.get_layer("head").get_weights()))

    base.trainable = True
    model.compile(keras.optimizers.Adam(0.01), "sparse_categorical_crossentropy",
                  metrics=["accuracy"])
    model.optimizer.learning_rate.assign(1e-4)
    assert len(model.trainable_weights) == 4
    model.fit(DATA["x"], DATA["sparse"], epochs=1, batch_size=8, verbose=0)
    moved = [np.abs(b - a).max() for b, a in zip(base_before, base.get_weights())]
    assert all(0 < m < 1e-2 for m in moved)  # small steps, as the rate asks

    model.save(tmp_path / "tuned.keras")
    reloaded = keras.saving.load_model(tmp_path / "tuned.keras")
    np.testing.assert_allclose(reloaded.predict(DATA["x"], verbose=0),
                               model.predict(DATA["x"], verbose=0), rtol=1e-6)
    assert reloaded.optimizer.learning_rate == pytest.approx(1e-4)
