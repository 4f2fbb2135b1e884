"""Saving and loading: whole models, weights only, configs, and custom objects."""

import json
import os
import tempfile

import numpy as np

import hikeras as keras
from hikeras import layers


@keras.saving.register_keras_serializable(package="guides")
def clipped_relu(x):
    return keras.ops.clip(x, 0.0, 3.0)


def build():
    inputs = keras.Input((6,))
    hidden = layers.Dense(8, activation=clipped_relu, name="hidden")(inputs)
    return keras.Model(inputs, layers.Dense(2, name="out")(hidden))


def main(small=False):
    keras.utils.set_random_seed(8)
    rng = np.random.default_rng(8)
    x = rng.standard_normal((64, 6)).astype("float32")
    y = rng.standard_normal((64, 2)).astype("float32")
    model = build()
    model.compile("adam", "mse")
    model.fit(x, y, epochs=1 if small else 5, verbose=0)
    expected = model.predict(x, verbose=0)

    with tempfile.TemporaryDirectory() as folder:
        # 1. The whole model: architecture, weights and optimizer state.
        model.save(os.path.join(folder, "model.keras"))
        restored = keras.models.load_model(os.path.join(folder, "model.keras"))
        np.testing.assert_allclose(restored.predict(x, verbose=0), expected, rtol=1e-5)
        assert int(restored.optimizer.iterations) == int(model.optimizer.iterations)
        restored.fit(x, y, epochs=1, verbose=0)  # training resumes

        # 2. Weights only, into a freshly built model.
        model.save_weights(os.path.join(folder, "model.weights.h5"))
        fresh = build()
        fresh.load_weights(os.path.join(folder, "model.weights.h5"))
        np.testing.assert_allclose(fresh.predict(x, verbose=0), expected, rtol=1e-5)

    # 3. The architecture alone, as JSON or as a config dict.
    config = json.loads(model.to_json())
    assert config["class_name"] in ("Functional", "Model")
    clone = keras.models.model_from_json(model.to_json())
    assert [l.name for l in clone.layers] == [l.name for l in model.layers]

    # 4. Weights as arrays: get_weights/set_weights move them between models.
    clone.set_weights(model.get_weights())
    np.testing.assert_allclose(clone.predict(x, verbose=0), expected, rtol=1e-5)
    return expected.shape


if __name__ == "__main__":
    print(main())
