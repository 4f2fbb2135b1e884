"""Issue 16, item 7: functional models rebuilt by `load_model`, `clone_model` or
`from_config` have `input`, `output`, `input_shape` and `output_shape`, and feature
extraction from their layers works, as in Keras 3 (including Keras-written files)."""

import numpy as np
import pytest

import hikeras as keras
from tests.scenarios.keras_scenarios import DATA, path


def _model():
    inputs = keras.Input((4,), name="x")
    hidden = keras.layers.Dense(8, activation="relu", name="d1")(inputs)
    features = keras.layers.Dense(6, name="d2")(hidden)
    return keras.Model(inputs, keras.layers.Dense(2, name="d3")(features))


REBUILDERS = {
    "load_keras": lambda m, tmp: (m.save(tmp / "m.keras"),
                                  keras.saving.load_model(tmp / "m.keras"))[1],
    "load_h5": lambda m, tmp: (m.save(tmp / "m.h5"), keras.saving.load_model(tmp / "m.h5"))[1],
    "clone_model": lambda m, tmp: keras.models.clone_model(m),
    "Model.from_config": lambda m, tmp: keras.Model.from_config(m.get_config()),
    "model_from_json": lambda m, tmp: keras.models.model_from_json(m.to_json()),
}


@pytest.mark.parametrize("how", sorted(REBUILDERS))
def test_rebuilt_model_has_its_endpoints_and_feeds_feature_extraction(how, tmp_path, rng):
    model = _model()
    rebuilt = REBUILDERS[how](model, tmp_path)
    assert rebuilt.input.name == "x"
    assert rebuilt.output is rebuilt.outputs[0]
    assert rebuilt.input_shape == (None, 4)
    assert rebuilt.output_shape == (None, 2)
    rebuilt.set_weights(model.get_weights())
    extractor = keras.Model(rebuilt.input, rebuilt.get_layer("d2").output)
    x = rng.normal(size=(3, 4)).astype("float32")
    hidden = np.maximum(x @ model.get_weights()[0] + model.get_weights()[1], 0)
    expected = hidden @ model.get_weights()[2] + model.get_weights()[3]
    np.testing.assert_allclose(extractor.predict(x, verbose=0), expected, rtol=1e-5, atol=1e-6)


def test_multi_output_endpoints_keep_their_structure():
    inputs = keras.Input((3,), name="features")
    hidden = keras.layers.Dense(4)(inputs)
    model = keras.Model(inputs, {"price": keras.layers.Dense(1, name="price")(hidden),
                                 "kind": keras.layers.Dense(3, name="kind")(hidden)})
    rebuilt = keras.Model.from_config(model.get_config())
    assert rebuilt.output_shape == {"kind": (None, 3), "price": (None, 1)}
    assert rebuilt.output_names == ["kind", "price"]  # Keras 3 flattens dicts by key


def test_keras_written_functional_file_gives_its_layers_outputs():
    model = keras.saving.load_model(path("multi", "keras"))
    assert model.input_shape == (None, 4)
    assert model.output_shape == {"kind": (None, 3), "price": (None, 1)}
    trunk = keras.Model(model.input, model.layers[1].output)
    assert trunk.predict(DATA["x"], verbose=0).shape == (16, 8)


def test_model_from_config_of_a_subclass_config_still_uses_the_constructor():
    class Small(keras.Model):
        def __init__(self, units=2, **kwargs):
            super().__init__(**kwargs)
            self.units = units
            self.dense = keras.layers.Dense(units)

        def call(self, x):
            return self.dense(x)

        def get_config(self):
            return {**super().get_config(), "units": self.units}

    assert Small.from_config(Small(units=5).get_config()).units == 5
