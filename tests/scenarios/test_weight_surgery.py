"""Scenario: save, load, and `set_weights` surgery on a model Keras or hikeras saved.

The user reads the weights of a trained model, edits them with numpy (drops a
class from the output layer, widens a hidden layer with zero units), and
writes them into a new model with `set_weights`; the new model computes
exactly what the edited arrays say, and survives a save/load round trip.
"""

import numpy as np
import pytest

import hikeras as keras
from tests.scenarios.keras_scenarios import DATA, path


def _forward(weights, x):
    kernel1, bias1, kernel2, bias2 = weights
    hidden = np.maximum(x @ kernel1 + bias1, 0.0)
    logits = hidden @ kernel2 + bias2
    exp = np.exp(logits - logits.max(-1, keepdims=True))
    return exp / exp.sum(-1, keepdims=True)


def _classifier(hidden, classes):
    return keras.Sequential([keras.Input((4,)), keras.layers.Dense(hidden, activation="relu"),
                             keras.layers.Dense(classes, activation="softmax")])


def _source(kind, tmp_path):
    if kind == "keras":
        return keras.saving.load_model(path("classifier", "h5"))
    model = _classifier(8, 3)
    model.compile("adam", "sparse_categorical_crossentropy")
    model.fit(DATA["x"], DATA["sparse"], epochs=2, verbose=0)
    model.save(tmp_path / "source.h5")
    return keras.saving.load_model(tmp_path / "source.h5")


@pytest.mark.parametrize("kind", ["keras", "hikeras"])
def test_surgery_through_set_weights(kind, tmp_path):
    source = _source(kind, tmp_path)
    weights = source.get_weights()
    np.testing.assert_allclose(source.predict(DATA["x"], verbose=0),
                               _forward(weights, DATA["x"]), rtol=1e-5, atol=1e-6)

    # Drop class 2 and add 4 hidden units that output nothing.
    kernel1, bias1, kernel2, bias2 = weights
    edited = [np.concatenate([kernel1, np.zeros((4, 4), "float32")], axis=1),
              np.concatenate([bias1, np.zeros(4, "float32")]),
              np.concatenate([kernel2[:, :2], np.zeros((4, 2), "float32")], axis=0),
              bias2[:2]]
    student = _classifier(12, 2)
    student.set_weights(edited)
    expected = _forward(edited, DATA["x"])
    np.testing.assert_allclose(student.predict(DATA["x"], verbose=0), expected, rtol=1e-5,
                               atol=1e-6)

    student.save(tmp_path / "student.keras")
    student.save_weights(tmp_path / "student.weights.h5")
    reloaded = keras.saving.load_model(tmp_path / "student.keras")
    np.testing.assert_allclose(reloaded.predict(DATA["x"], verbose=0), expected, rtol=1e-5,
                               atol=1e-6)
    fresh = _classifier(12, 2)
    fresh.load_weights(tmp_path / "student.weights.h5")
    for got, want in zip(fresh.get_weights(), edited):
        np.testing.assert_array_equal(got, want)


def test_a_wrong_shape_changes_nothing_and_says_which(tmp_path):
    source = _source("keras", tmp_path)
    model = _classifier(8, 3)
    before = [w.copy() for w in model.get_weights()]
    wrong = source.get_weights()
    wrong[2] = wrong[2][:, :2]
    with pytest.raises(ValueError, match=r"\(8, 3\).*\(8, 2\)|\(8, 2\).*\(8, 3\)"):
        model.set_weights(wrong)
    for got, want in zip(model.get_weights(), before):
        np.testing.assert_array_equal(got, want)
    model.set_weights(source.get_weights())
    np.testing.assert_array_equal(model.predict(DATA["x"], verbose=0),
                                  source.predict(DATA["x"], verbose=0))


def test_layer_by_layer_copy_from_a_loaded_model():
    source = keras.saving.load_model(path("classifier", "keras"))
    target = _classifier(8, 3)
    for src, dst in zip(source.layers, target.layers):
        dst.set_weights(src.get_weights())
    np.testing.assert_array_equal(target.predict(DATA["x"], verbose=0),
                                  source.predict(DATA["x"], verbose=0))
