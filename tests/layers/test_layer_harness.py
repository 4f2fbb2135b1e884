"""The layer harness must pass on correct layers and fail on broken ones."""

import pytest

from hikeras import backend, layers
from tests.helpers.layer_test import run_layer_test


def test_dense_passes_the_harness():
    run_layer_test(layers.Dense, {"units": 3, "activation": "tanh"}, input_shape=(4, 5),
                   expected_output_shape=(4, 3), expected_num_trainable_weights=2,
                   expected_num_non_trainable_weights=0)


class WrongGradientDense(layers.Dense):
    """Dense whose bias gradient is wrong: it adds the bias through stop_gradient + 2x."""

    def call(self, inputs):
        out = backend.apply("dense", inputs, self.kernel)
        return out + self.bias * 2.0 - backend.apply("stop_gradient", self.bias)


def test_harness_catches_a_wrong_gradient():
    with pytest.raises(AssertionError, match="gradient of .*bias"):
        run_layer_test(WrongGradientDense, {"units": 2}, input_shape=(3, 4),
                       run_training_check=False)


def test_harness_catches_a_wrong_output_shape():
    with pytest.raises(AssertionError, match="output shape"):
        run_layer_test(layers.Dense, {"units": 2}, input_shape=(3, 4),
                       expected_output_shape=(3, 3))


def test_harness_catches_a_weight_that_does_not_train():
    class FrozenBias(layers.Dense):
        def call(self, inputs):
            return backend.apply("dense", inputs, self.kernel) + backend.apply(
                "stop_gradient", self.bias)

    with pytest.raises(AssertionError, match="bias did not change"), \
            pytest.warns(UserWarning, match="Gradients do not exist for variables"):
        run_layer_test(FrozenBias, {"units": 2}, input_shape=(3, 4), check_gradients=False)
