"""Issue 16, item 10 (first part): a softmax or sigmoid output remembers its logits and
the crossentropies use them, as Keras 3 does, in `evaluate` and in training.

Against tests/fixtures/keras_scenarios/confident.npz: very confident classifiers
(partly wrong), where computing from clipped probabilities would give other
losses and other gradients than Keras's.
"""

import os

import numpy as np
import pytest

import hikeras as keras

FIXTURE = np.load(os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))),
                               "fixtures", "keras_scenarios", "confident.npz"))
HEADS = {"categorical": (3, "softmax", "categorical_crossentropy"),
         "sparse": (3, "softmax", "sparse_categorical_crossentropy"),
         "binary": (1, "sigmoid", "binary_crossentropy")}


def _targets(name):
    return {"categorical": np.eye(3, dtype="float32")[FIXTURE["sparse"]],
            "sparse": FIXTURE["sparse"], "binary": FIXTURE["binary"]}[name]


def _model(name, output_layer):
    units, activation, loss = HEADS[name]
    layers = {"dense": [keras.layers.Dense(units, activation=activation)],
              "activation_layer": [keras.layers.Dense(units), keras.layers.Activation(activation)],
              "softmax_layer": [keras.layers.Dense(units), keras.layers.Softmax()]}[output_layer]
    model = keras.Sequential([keras.Input((4,)), *layers])
    model.set_weights([FIXTURE[f"{name}_init_0"], FIXTURE[f"{name}_init_1"]])
    model.compile(keras.optimizers.SGD(0.1), loss)
    return model


CASES = [(name, layer) for name in HEADS for layer in ("dense", "activation_layer")] + [
    ("categorical", "softmax_layer"), ("sparse", "softmax_layer")]


@pytest.mark.parametrize("name,output_layer", CASES)
def test_losses_and_a_training_step_match_keras(name, output_layer):
    model = _model(name, output_layer)
    y = _targets(name)
    assert model.evaluate(FIXTURE["x"], y, verbose=0) == pytest.approx(
        float(FIXTURE[f"{name}_evaluate"]), rel=1e-6)
    assert model.train_on_batch(FIXTURE["x"], y) == pytest.approx(
        float(FIXTURE[f"{name}_train_loss"]), rel=1e-6)
    for i, weight in enumerate(model.get_weights()):
        np.testing.assert_allclose(weight, FIXTURE[f"{name}_step_{i}"], rtol=1e-5, atol=1e-6)


def test_clipping_would_have_given_another_value():
    model = _model("sparse", "dense")
    probabilities = np.array(model.predict(FIXTURE["x"], verbose=0))  # a copy: no logits
    clipped = keras.losses.sparse_categorical_crossentropy(FIXTURE["sparse"], probabilities)
    assert float(np.mean(clipped)) < 0.7 * float(FIXTURE["sparse_evaluate"])


def test_a_crossentropy_metric_agrees_with_the_loss_in_fit_and_evaluate():
    model = _model("categorical", "dense")
    model.compile(keras.optimizers.SGD(0.0), "categorical_crossentropy",
                  metrics=["categorical_crossentropy"])
    y = _targets("categorical")
    history = model.fit(FIXTURE["x"], y, batch_size=8, verbose=0).history
    assert history["categorical_crossentropy"][0] == pytest.approx(history["loss"][0])
    logs = model.evaluate(FIXTURE["x"], y, verbose=0, return_dict=True)
    assert logs["categorical_crossentropy"] == pytest.approx(logs["loss"])


def test_logits_are_used_only_for_the_matching_activation_and_axis(rng):
    logits = rng.normal(size=(4, 3)).astype("float32") * 30
    labels = np.eye(3, dtype="float32")[[0, 1, 2, 0]]
    softmax = keras.activations.softmax(logits)
    exact = keras.losses.categorical_crossentropy(labels, logits, from_logits=True)
    np.testing.assert_allclose(keras.losses.categorical_crossentropy(labels, softmax), exact,
                               rtol=1e-6)
    sigmoid = keras.activations.sigmoid(logits)  # not a softmax: probabilities as given
    copied = np.array(sigmoid)
    np.testing.assert_allclose(keras.losses.categorical_crossentropy(labels, sigmoid),
                               keras.losses.categorical_crossentropy(labels, copied))
    by_rows = keras.activations.softmax(logits, axis=0)  # another axis than the loss's
    np.testing.assert_allclose(keras.losses.categorical_crossentropy(labels, by_rows),
                               keras.losses.categorical_crossentropy(labels, np.array(by_rows)))
