"""Scenario: a model trained and saved by Keras 3 is loaded, evaluated and trained on.

Each fixture was trained one epoch by Keras and saved as `.keras` and `.h5`;
Keras then evaluated it and trained one more epoch (tests/fixtures/keras_scenarios).
Loading it here must report the same metrics (issue 16, item 1), rebuild its
custom loss/metric/layer from `custom_objects` (items 2, 3), and continue
training exactly as Keras did, optimizer state included (item 4), with the
per-output logs Keras writes (item 5).
"""

import numpy as np
import pytest

import hikeras as keras
from tests.scenarios.custom_objects import CUSTOM_OBJECTS
from tests.scenarios.keras_scenarios import DATA, EXPECTED, TARGETS, path

CASES = [(name, ext) for name in EXPECTED for ext in ("keras", "h5")]


def _load(name, ext):
    custom = CUSTOM_OBJECTS if name == "custom" else None
    return keras.saving.load_model(path(name, ext), custom_objects=custom)


@pytest.mark.parametrize("name,ext", CASES)
def test_evaluate_after_load_reports_what_keras_reported(name, ext):
    model = _load(name, ext)
    logs = model.evaluate(DATA["x"], TARGETS[name], batch_size=8, verbose=0, return_dict=True)
    expected = EXPECTED[name]["evaluate"]
    assert sorted(logs) == sorted(expected)
    for key, value in expected.items():
        np.testing.assert_allclose(logs[key], value, rtol=1e-5, atol=1e-6, err_msg=key)


@pytest.mark.parametrize("name,ext", CASES)
def test_resumed_training_continues_like_keras(name, ext):
    model = _load(name, ext)
    history = model.fit(DATA["x"], TARGETS[name], batch_size=8, epochs=1, shuffle=False,
                        verbose=0, validation_data=(DATA["x"], TARGETS[name]))
    expected = EXPECTED[name]
    assert int(np.asarray(model.optimizer.iterations)) == expected["iterations"]
    assert sorted(history.history) == sorted(expected["history"])
    for key, value in expected["history"].items():
        np.testing.assert_allclose(history.history[key][0], value, rtol=1e-5, atol=1e-6,
                                   err_msg=key)
    for got, want in zip(model.get_weights(), expected["weights"]):
        np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-6)


def test_early_stopping_on_one_output_of_a_keras_multi_output_model():
    model = _load("multi", "keras")
    stopper = keras.callbacks.EarlyStopping(monitor="val_kind_loss", patience=0,
                                            min_delta=1e9)  # no epoch improves enough
    history = model.fit(DATA["x"], TARGETS["multi"], epochs=5, verbose=0,
                        validation_data=(DATA["x"], TARGETS["multi"]), callbacks=[stopper])
    assert len(history.history["val_kind_loss"]) == 2
    np.testing.assert_allclose(history.history["loss"][0],
                               0.5 * history.history["price_loss"][0]
                               + history.history["kind_loss"][0], rtol=1e-5)
