"""The custom objects named by the scenario fixtures, as a user defines them.

They match, line for line in meaning, those of
tests/fixtures/keras_scenarios/generate.py, so a Keras-written file that names
them rebuilds the same model here through `custom_objects`.
"""

import hikeras as keras
from hikeras import ops


class Scale(keras.layers.Layer):
    """Multiplies its input by a constant factor (a layer with a config)."""

    def __init__(self, factor=2.0, **kwargs):
        super().__init__(**kwargs)
        self.factor = factor

    def call(self, x):
        return x * self.factor

    def get_config(self):
        return {**super().get_config(), "factor": self.factor}


def weighted_mse(y_true, y_pred):
    return ops.mean(ops.square(y_true - y_pred) * 1.5, axis=-1)


def within_half(y_true, y_pred):
    return ops.mean(ops.cast(ops.abs(y_true - y_pred) < 0.5, "float32"), axis=-1)


CUSTOM_OBJECTS = {"Scale": Scale, "weighted_mse": weighted_mse, "within_half": within_half}
