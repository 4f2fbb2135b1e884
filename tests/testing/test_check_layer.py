"""`hikeras.testing.check_layer` on a user's custom layer: passes a good one, catches bugs."""

import numpy as np
import pytest

import hikeras
from hikeras import ops
from hikeras.testing import check_layer


class Scale(hikeras.Layer):
    """`x * w` with one weight per feature (a custom layer, as a user writes one)."""

    def __init__(self, initial=1.0, **kwargs):
        super().__init__(**kwargs)
        self.initial = initial

    def build(self, input_shape):
        self.w = self.add_weight(shape=(input_shape[-1],),
                                 initializer=hikeras.initializers.Constant(self.initial))

    def call(self, x):
        return x * self.w

    def get_config(self):
        return {**super().get_config(), "initial": self.initial}


class ForgetsItsFactor(Scale):
    """Multiplies by `factor` too, but leaves it out of its config."""

    def __init__(self, factor=1.0, **kwargs):
        super().__init__(**kwargs)
        self.factor = factor

    def call(self, x):
        return x * self.w * self.factor


class WrongGradient(Scale):
    def call(self, x):
        return x * ops.stop_gradient(self.w) + 0.0 * self.w


def test_a_correct_custom_layer_passes():
    layer = check_layer(Scale, {"initial": 2.0}, input_shape=(3, 4),
                        expected_output_shape=(3, 4), expected_num_trainable_weights=1)
    np.testing.assert_array_equal(layer.w.value, np.full(4, 2.0))


def test_a_lost_config_entry_is_caught():
    with pytest.raises(AssertionError):
        check_layer(ForgetsItsFactor, {"factor": 3.0}, input_shape=(3, 4))


def test_a_cut_gradient_is_caught():
    with pytest.raises(AssertionError, match="trainable weight|gradient"):
        check_layer(WrongGradient, {}, input_shape=(3, 4))
