"""Issue 16, item 10 (second part): AdamW on a Conv2D feeding BatchNormalization, against
six steps of Keras 3 (tests/fixtures/keras_scenarios/adamw_conv_bn.npz).

Why the reported drift happens: BatchNormalization subtracts the batch mean, so a
convolution bias in front of it has a gradient of exactly zero in exact arithmetic.
Both frameworks compute rounding noise instead (~1e-9), and Adam divides each
gradient by `sqrt(v) + epsilon`, turning that noise into steps of up to the
learning rate, in directions set by the noise. The bias (and, through it, the
moving mean) then differs from Keras's by more than rounding, while every other
weight, and the model's training-mode output, still agree. Without the bias
(`use_bias=False`, the usual choice before BatchNormalization) everything agrees.
"""

import os

import numpy as np
import pytest

import hikeras as keras

FIXTURE = np.load(os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))),
                               "fixtures", "keras_scenarios", "adamw_conv_bn.npz"))


def _weights(use_bias, stage):
    prefix = f"bias{int(use_bias)}_{stage}_"
    count = sum(1 for k in FIXTURE.files if k.startswith(prefix))
    return [FIXTURE[f"{prefix}{i}"] for i in range(count)]


def _model(use_bias):
    layers = keras.layers
    model = keras.Sequential([keras.Input((6, 6, 2)), layers.Conv2D(3, 3, use_bias=use_bias),
                              layers.BatchNormalization(), layers.Activation("relu"),
                              layers.Flatten(), layers.Dense(2)])
    model.set_weights(_weights(use_bias, "init"))
    model.compile(keras.optimizers.AdamW(0.01, weight_decay=0.004), "mse")
    return model


def test_without_conv_bias_six_steps_match_keras():
    model = _model(use_bias=False)
    for step in range(6):
        model.train_on_batch(FIXTURE["x"], FIXTURE["y"])
        for got, want in zip(model.get_weights(), _weights(False, f"step{step}")):
            np.testing.assert_allclose(got, want, atol=2e-6)


def test_with_conv_bias_only_the_bias_and_moving_mean_follow_noise():
    model = _model(use_bias=True)
    bias, moving_mean = 1, 4  # conv bias; BatchNormalization's moving mean
    for step in range(6):
        model.train_on_batch(FIXTURE["x"], FIXTURE["y"])
        expected = _weights(True, f"step{step}")
        for i, (got, want) in enumerate(zip(model.get_weights(), expected)):
            if i not in (bias, moving_mean):
                np.testing.assert_allclose(got, want, atol=2e-6, err_msg=f"weight {i}")
        # Each bias step is bounded by the learning rate, in both frameworks.
        assert np.abs(model.get_weights()[bias] - expected[bias]).max() <= 2 * 0.01 * (step + 1)

    with keras.GradientTape() as tape:
        loss = keras.ops.mean(keras.ops.square(model(FIXTURE["x"], training=True)
                                               - FIXTURE["y"]))
    conv = model.layers[0]
    grad_kernel, grad_bias = tape.gradient(loss, [conv.kernel, conv.bias])
    assert np.abs(np.asarray(grad_bias)).max() < 1e-6  # zero but for rounding
    assert np.abs(np.asarray(grad_kernel)).max() > 1e-3


@pytest.mark.parametrize("use_bias", [False, True])
def test_training_mode_outputs_agree_either_way(use_bias):
    ours = _model(use_bias)
    for _ in range(6):
        ours.train_on_batch(FIXTURE["x"], FIXTURE["y"])
    keras_weights = _model(use_bias)
    keras_weights.set_weights(_weights(use_bias, "step5"))
    np.testing.assert_allclose(ours(FIXTURE["x"], training=True),
                               keras_weights(FIXTURE["x"], training=True), atol=1e-5)
