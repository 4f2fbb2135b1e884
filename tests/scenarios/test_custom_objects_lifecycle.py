"""Scenario: custom losses and metrics through save, load and resume.

A model with a custom layer, loss and metric is trained, checkpointed every
epoch, and training resumes from the file in a "new session" (only
`custom_objects` known): the resumed run must end exactly where an
uninterrupted run ends, logs included. The same holds for the file Keras 3
wrote of that model (tests/fixtures/keras_scenarios/custom.*).
"""


import warnings

import numpy as np
import pytest

import hikeras as keras
from tests.scenarios.custom_objects import (
    CUSTOM_OBJECTS,
    Scale,
    weighted_mse,
    within_half,
)
from tests.scenarios.keras_scenarios import DATA, EXPECTED, path


def make_model():
    keras.utils.set_random_seed(7)
    inputs = keras.Input((4,))
    hidden = keras.layers.Dense(5, activation="relu")(inputs)
    outputs = keras.layers.Dense(1)(Scale(0.5, name="scale")(hidden))
    model = keras.Model(inputs, outputs)
    model.compile(keras.optimizers.Adam(0.01), weighted_mse, metrics=[within_half, "mae"])
    return model


def _fit(model, epochs, **kwargs):
    return model.fit(DATA["x"], DATA["price"], batch_size=8, epochs=epochs, shuffle=False,
                     verbose=0, **kwargs).history


@pytest.mark.parametrize("ext", ["keras", "h5"])
def test_resume_from_a_checkpoint_matches_an_uninterrupted_run(ext, tmp_path):
    straight = make_model()
    straight_history = _fit(straight, 3)

    interrupted = make_model()
    checkpoint = keras.callbacks.ModelCheckpoint(str(tmp_path / f"epoch-{{epoch}}.{ext}"))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # the custom objects are named once per save
        _fit(interrupted, 2, callbacks=[checkpoint])

    resumed = keras.saving.load_model(tmp_path / f"epoch-2.{ext}",
                                      custom_objects=CUSTOM_OBJECTS)
    assert int(np.asarray(resumed.optimizer.iterations)) == 4
    last = _fit(resumed, 3, initial_epoch=2)
    assert set(last) == {"loss", "within_half", "mae"}
    for key, values in last.items():
        assert values[0] == pytest.approx(straight_history[key][2], rel=1e-6), key
    for got, want in zip(resumed.get_weights(), straight.get_weights()):
        np.testing.assert_allclose(got, want, rtol=1e-6, atol=1e-7)


def test_the_same_model_saved_by_keras_resumes_like_keras():
    resumed = keras.saving.load_model(path("custom", "keras"), custom_objects=CUSTOM_OBJECTS)
    assert isinstance(resumed.get_layer("scale"), Scale)
    assert resumed.get_layer("scale").factor == 0.5
    history = _fit(resumed, 1, validation_data=(DATA["x"], DATA["price"]))
    for key, value in EXPECTED["custom"]["history"].items():
        assert history[key][0] == pytest.approx(value, rel=1e-5), key


def test_loading_without_the_custom_objects_says_what_to_pass(tmp_path):
    model = make_model()
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        model.save(tmp_path / "m.keras")
    (message,) = [str(w.message) for w in caught]
    assert "custom_objects={'Scale': Scale, 'weighted_mse': weighted_mse, " \
           "'within_half': within_half}" in message
    with pytest.raises(ValueError, match="Scale"):
        keras.saving.load_model(tmp_path / "m.keras")
