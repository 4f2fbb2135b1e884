"""LoRA (`enable_lora`, `lora_rank`) against numbers recorded from real Keras 3.15.

`fixtures/keras_lora/generate.py` recorded, for Dense, EinsumDense, Conv2D
and Embedding with rank 2 and alpha 3: the output, the merged weight that
files hold, and every weight after one SGD step.
"""

import json
import pathlib

import numpy as np
import pytest

import hikeras
from hikeras import layers

FIXTURES = pathlib.Path(__file__).parent.parent / "fixtures" / "keras_lora"
RECORD = np.load(FIXTURES / "lora.npz")
META = json.loads((FIXTURES / "lora.json").read_text())["cases"]

CASES = {
    "dense": (lambda **kw: layers.Dense(3, name="d", **kw), (4,), "float32", "kernel"),
    "einsum_dense": (lambda **kw: layers.EinsumDense("abc,cd->abd", (5, 3), bias_axes="d",
                                                     name="e", **kw), (5, 4), "float32",
                     "kernel"),
    "conv2d": (lambda **kw: layers.Conv2D(3, 3, name="c", **kw), (6, 6, 2), "float32",
               "kernel"),
    "embedding": (lambda **kw: layers.Embedding(10, 4, name="m", **kw), (3,), "int32",
                  "embeddings"),
}


def _model_with_keras_weights(case, **layer_kwargs):
    make, shape, dtype, target = CASES[case]
    layer = make(**layer_kwargs)
    inputs = hikeras.Input(shape, dtype=dtype)
    model = hikeras.Model(inputs, layer(inputs))
    if not layer.lora_enabled:
        layer.enable_lora(2, lora_alpha=3)
    for weight in layer.weights:
        weight.assign(RECORD[f"{case}/before/{weight.name}"])
    return model, layer, target


@pytest.mark.parametrize("case", sorted(CASES))
def test_forward_merged_weight_and_one_training_step_match_keras(case):
    model, layer, target = _model_with_keras_weights(case)
    assert [w.name for w in layer.weights] == META[case]["weights"]
    assert [w.name for w in layer.trainable_weights] == META[case]["trainable"]
    x = RECORD[f"{case}/x"]
    np.testing.assert_allclose(model.predict(x, verbose=0), RECORD[f"{case}/y"],
                               rtol=1e-5, atol=1e-5)
    np.testing.assert_allclose(np.asarray(getattr(layer, target)), RECORD[f"{case}/merged"],
                               rtol=1e-5, atol=1e-6)
    model.compile(optimizer=hikeras.optimizers.SGD(0.1), loss="mse")
    model.train_on_batch(x, RECORD[f"{case}/t"])
    for weight in layer.weights:
        np.testing.assert_allclose(weight.numpy(), RECORD[f"{case}/after/{weight.name}"],
                                   rtol=1e-5, atol=1e-6, err_msg=weight.name)


@pytest.mark.parametrize("case", sorted(CASES))
def test_config_carries_rank_and_alpha_and_rebuilds_with_lora(case):
    _, layer, _ = _model_with_keras_weights(case)
    config = layer.get_config()
    assert (config["lora_rank"], config["lora_alpha"]) == (
        META[case]["lora_rank"], META[case]["lora_alpha"])
    rebuilt = type(layer).from_config(config)
    _, shape, dtype, _ = CASES[case]
    rebuilt(np.zeros((1,) + shape, dtype))
    assert rebuilt.lora_enabled and rebuilt.lora_rank == 2 and rebuilt.lora_alpha == 3
    assert "lora_rank" not in CASES[case][0]().get_config()


def test_enabling_lora_changes_no_output_until_trained():
    layer = layers.Dense(3)
    x = np.random.default_rng(0).normal(size=(2, 4)).astype("float32")
    before = layer(x)
    layer.enable_lora(4)
    np.testing.assert_array_equal(layer(x), before)
    assert not layer._kernel.trainable
    assert layer.lora_kernel_a.shape == (4, 4) and layer.lora_kernel_b.shape == (4, 3)


def test_a_keras_file_of_a_lora_model_loads_into_plain_and_lora_layers():
    """Keras saved the merged kernel: a plain Dense predicts as the LoRA one did, and a
    LoRA Dense takes the merged kernel as its base with both factors reset to zero."""
    x = RECORD["dense/x"]
    expected = RECORD["dense/after/kernel"] + 1.5 * (
        RECORD["dense/after/lora_kernel_a"] @ RECORD["dense/after/lora_kernel_b"])
    for lora in (False, True):
        model, layer, _ = _model_with_keras_weights("dense")
        if not lora:
            inputs = hikeras.Input((4,))
            layer = layers.Dense(3, name="d")
            model = hikeras.Model(inputs, layer(inputs))
        model.load_weights(FIXTURES / "dense_lora.weights.h5")
        np.testing.assert_allclose(np.asarray(layer.kernel), expected, rtol=1e-5, atol=1e-6)
        np.testing.assert_allclose(layer.bias.numpy(), RECORD["dense/after/bias"], rtol=1e-6)
        if lora:
            assert not layer.lora_kernel_a.numpy().any()
            assert not layer.lora_kernel_b.numpy().any()
        assert model.predict(x, verbose=0).shape == (2, 3)


def test_our_lora_file_holds_the_merged_kernel_only(tmp_path):
    model, _, _ = _model_with_keras_weights("dense")
    path = tmp_path / "m.weights.h5"
    model.save_weights(path)
    inputs = hikeras.Input((4,))
    plain = hikeras.Model(inputs, layers.Dense(3, name="d")(inputs))
    plain.load_weights(path)
    x = RECORD["dense/x"]
    np.testing.assert_allclose(plain.predict(x, verbose=0), model.predict(x, verbose=0),
                               rtol=1e-5, atol=1e-6)


def test_bad_lora_requests_are_refused_as_keras_does():
    with pytest.raises(ValueError, match="isn't yet built"):
        layers.Dense(2).enable_lora(2)
    constrained = layers.Dense(2, kernel_constraint="non_neg")
    constrained.build((None, 3))
    with pytest.raises(ValueError, match="kernel_constraint"):
        constrained.enable_lora(2)
    layer = layers.Dense(2, lora_rank=1)
    layer.build((None, 3))
    with pytest.raises(ValueError, match="already enabled"):
        layer.enable_lora(2)
    with pytest.raises(ValueError, match="lora_rank"):
        layers.Dense(2, lora_rank=0)
    with pytest.raises(ValueError, match="rank"):
        layers.Embedding(5, 2, lora_rank=1.5)
    with pytest.raises(TypeError, match="lora_rank"):
        layers.Conv2DTranspose(2, 3, lora_rank=2)  # as in Keras, only plain convolutions


def test_a_keras_model_file_with_lora_loads_with_lora_enabled():
    model = hikeras.saving.load_model(FIXTURES / "dense_lora.keras")
    layer = model.get_layer("d")
    assert layer.lora_enabled and (layer.lora_rank, layer.lora_alpha) == (2, 3)
    np.testing.assert_allclose(model.predict(RECORD["dense/x"], verbose=0),
                               RECORD["dense/after/y"], rtol=1e-5, atol=1e-6)
