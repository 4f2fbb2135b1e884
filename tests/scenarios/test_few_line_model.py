"""Scenario: the few-line model, as a Keras user writes it.

A small classifier is defined, compiled with `metrics=["accuracy"]`, trained,
evaluated, saved and reloaded. Given the weights of the same model trained by
Keras 3 (tests/fixtures/keras_scenarios/classifier.*), it reports what Keras
reported; reloaded from its own file, it reports what it reported before.
"""

import numpy as np
import pytest

import hikeras as keras
from tests.scenarios.keras_scenarios import DATA, EXPECTED, path


def make_model():
    model = keras.Sequential([
        keras.Input(shape=(4,)),
        keras.layers.Dense(8, activation="relu"),
        keras.layers.Dense(3, activation="softmax"),
    ])
    model.compile(optimizer="adam", loss="sparse_categorical_crossentropy",
                  metrics=["accuracy"])
    return model


@pytest.mark.parametrize("ext", ["keras", "h5"])
def test_same_weights_as_keras_give_keras_numbers(ext):
    model = make_model()
    model.load_weights(path("classifier", ext))
    logs = model.evaluate(DATA["x"], DATA["sparse"], batch_size=8, verbose=0, return_dict=True)
    for key, value in EXPECTED["classifier"]["evaluate"].items():
        assert logs[key] == pytest.approx(value, rel=1e-5)


@pytest.mark.parametrize("ext", ["keras", "h5"])
@pytest.mark.parametrize("labels", ["sparse", "onehot"])
def test_train_save_load_evaluate(ext, labels, tmp_path):
    x, y = DATA["x"], DATA[labels]
    model = make_model()
    if labels == "onehot":
        model.compile(optimizer="adam", loss="categorical_crossentropy", metrics=["accuracy"])
    history = model.fit(x, y, epochs=3, batch_size=4, validation_split=0.25, verbose=0)
    assert set(history.history) == {"loss", "accuracy", "val_loss", "val_accuracy"}
    before = model.evaluate(x, y, verbose=0, return_dict=True)
    predictions = model.predict(x, verbose=0)
    accuracy = np.mean(predictions.argmax(-1) == DATA["sparse"])
    assert before["accuracy"] == pytest.approx(accuracy)

    model.save(tmp_path / f"classifier.{ext}")
    reloaded = keras.saving.load_model(tmp_path / f"classifier.{ext}")
    after = reloaded.evaluate(x, y, verbose=0, return_dict=True)
    assert after == pytest.approx(before)
    np.testing.assert_array_equal(reloaded.predict(x, verbose=0), predictions)
    reloaded.fit(x, y, epochs=1, batch_size=4, verbose=0)  # and it trains on


def test_binary_labels_after_reload(tmp_path):
    """Item 1 with 0/1 labels: the reloaded 'accuracy' is the binary one, not 0.0."""
    model = keras.saving.load_model(path("binary", "keras"))
    model.save(tmp_path / "binary.h5")
    for candidate in (model, keras.saving.load_model(tmp_path / "binary.h5")):
        logs = candidate.evaluate(DATA["x"], DATA["binary"], batch_size=8, verbose=0,
                                  return_dict=True)
        assert logs["accuracy"] == pytest.approx(EXPECTED["binary"]["evaluate"]["accuracy"])
