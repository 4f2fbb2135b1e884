"""The layers the architectures define (InceptionResNetV2's CustomScaleLayer) save and load."""

import numpy as np

import hikeras
from hikeras import layers
from hikeras.applications.inception_resnet_v2 import CustomScaleLayer


def test_custom_scale_layer_round_trip(tmp_path):
    inputs = layers.Input((4,))
    residual = layers.Dense(4, name="residual")(inputs)
    outputs = CustomScaleLayer(0.17, name="scaled")([inputs, residual])
    model = hikeras.Model(inputs, outputs)
    x = np.random.default_rng(0).normal(size=(3, 4)).astype("float32")
    expected = x + 0.17 * model.get_layer("residual")(x)
    np.testing.assert_allclose(model.predict(x, verbose=0), expected, rtol=1e-6)
    model.save(tmp_path / "m.keras")
    loaded = hikeras.models.load_model(tmp_path / "m.keras")
    assert loaded.get_layer("scaled").scale == 0.17
    np.testing.assert_allclose(loaded.predict(x, verbose=0), expected, rtol=1e-6)
