"""RandAugment and AugMix: every output is one of Keras's operations (fixtures/keras_augment,
recorded at factor 0 where each is deterministic) or a blend of them; seeds, inference,
models, pipelines and errors."""

import pathlib

import numpy as np
import pytest

import hikeras
from hikeras import layers
from hikeras.layers.preprocessing.image.rand_augment import OPERATIONS
from tests.helpers.layer_test import run_layer_test

FIXTURE = np.load(pathlib.Path(__file__).parents[1] / "fixtures" / "keras_augment"
                  / "augment.npz")
IMAGES = FIXTURE["choices__input"]


def keras_choices(prefix="choices_"):
    return {name: FIXTURE[prefix + name] for name in OPERATIONS}


def closest(out, choices):
    """The name of the choice nearest to `out`, and its distance."""
    distances = {name: np.abs(np.asarray(out) - c).max() for name, c in choices.items()}
    name = min(distances, key=distances.get)
    return name, distances[name]


@pytest.mark.parametrize("prefix, value_range, scale", [("choices_", (0, 255), 1.0),
                                                        ("choices_unit_", (0, 1), 1 / 255)])
def test_rand_augment_applies_one_of_keras_operations(prefix, value_range, scale):
    images, choices = FIXTURE[prefix + "_input"], keras_choices(prefix)
    distinct = set()
    for seed in range(12):
        out = layers.RandAugment(value_range=value_range, num_ops=1, factor=0.0,
                                 seed=seed)(images)
        name, distance = closest(out, choices)
        assert distance < 1e-3 * scale, (seed, name, distance)
        distinct.add(np.asarray(out).round(2).tobytes())
    assert len(distinct) >= 3  # the picks vary with the seed


def test_rand_augment_composes_num_ops_operations():
    # At factor 0 each operation is deterministic: two ops give one of the 11 x 11 pairs.
    ops = layers.RandAugment(factor=0.0).operations
    singles = [np.asarray(op(IMAGES)) for op in ops]
    pairs = [np.asarray(second(first)) for first in singles for second in ops]
    composed = 0
    for seed in range(8):
        out = np.asarray(layers.RandAugment(num_ops=2, factor=0.0, seed=seed)(IMAGES))
        assert min(np.abs(out - pair).max() for pair in pairs) < 1e-3
        composed += min(np.abs(out - single).max() for single in singles) > 1e-3
    assert composed > 0  # some pairs differ from every single operation


def test_aug_mix_blends_the_image_with_one_keras_operation():
    # One chain of depth one: w * image + (1 - w) * op(image), or the image itself.
    choices = {**keras_choices(), "none": IMAGES}
    for seed in range(12):
        out = np.asarray(layers.AugMix(num_chains=1, chain_depth=1, factor=0.0,
                                       seed=seed)(IMAGES))
        residuals = {}
        for name, chosen in choices.items():
            direction = (IMAGES - chosen).ravel()
            if not direction.any():
                residuals[name] = np.abs(out - IMAGES).max()
                continue
            w = float(direction @ (out - chosen).ravel() / (direction @ direction))
            if 0 <= w <= 1:
                residuals[name] = np.abs(out - (w * IMAGES + (1 - w) * chosen)).max()
        assert min(residuals.values()) < 1e-2, (seed, residuals)


def test_aug_mix_operation_sets():
    base = ["RandomShear", "RandomTranslation", "RandomRotation", "RandomPosterization",
            "Solarization", "AutoContrast", "Equalization"]
    extra = ["RandomBrightness", "RandomColorDegeneration", "RandomContrast", "RandomSharpness"]
    names = lambda layer: [type(op).__name__ for op in layer.operations]
    assert names(layers.AugMix(all_ops=False)) == base
    assert names(layers.AugMix()) == base + extra
    assert sorted(names(layers.RandAugment())) == sorted(base + extra)


@pytest.mark.parametrize("Layer", [layers.RandAugment, layers.AugMix])
def test_inference_leaves_images_as_keras_does(Layer):
    key = "rand_augment_inference" if Layer is layers.RandAugment else "aug_mix_inference"
    np.testing.assert_array_equal(Layer()(IMAGES, training=False), FIXTURE[key])


@pytest.mark.parametrize("Layer", [layers.RandAugment, layers.AugMix])
def test_seed_reproduces_calls_differ_and_values_stay_in_range(Layer):
    first = np.asarray(Layer(factor=0.8, seed=5)(IMAGES))
    np.testing.assert_array_equal(Layer(factor=0.8, seed=5)(IMAGES), first)
    layer = Layer(factor=0.8, seed=5)
    outputs = [np.asarray(layer(IMAGES)) for _ in range(3)]
    assert not all(np.allclose(o, first) for o in outputs)
    for out in outputs:
        assert out.min() >= 0 and out.max() <= 255 and out.dtype == np.float32


@pytest.mark.parametrize("Layer", [layers.RandAugment, layers.AugMix])
def test_channels_first_single_image_model_and_pipeline(Layer):
    images = IMAGES.transpose(0, 3, 1, 2)
    out = Layer(seed=2, data_format="channels_first")(images)
    assert np.asarray(out).shape == images.shape
    assert np.asarray(Layer(seed=1)(IMAGES[0])).shape == IMAGES.shape[1:]
    inputs = hikeras.Input((None, None, 3))
    outputs = layers.Conv2D(2, 3)(Layer(seed=1)(inputs))
    model = hikeras.Model(inputs, layers.GlobalAveragePooling2D()(outputs))
    model.compile("sgd", "mse")
    model.fit(IMAGES, np.zeros((2, 2), "float32"), epochs=1, verbose=0)
    dataset = hikeras.data.Dataset.from_tensor_slices(IMAGES).batch(2).map(
        Layer(factor=1.0, seed=3))
    (batch,) = list(dataset)
    assert batch.shape == IMAGES.shape


def test_harness():
    run_layer_test(layers.RandAugment, {"num_ops": 3, "factor": 0.4, "seed": 1},
                   input_shape=(2, 6, 7, 3), expected_output_shape=(2, 6, 7, 3),
                   expected_num_trainable_weights=0, check_gradients=False)
    run_layer_test(layers.AugMix, {"num_chains": 2, "chain_depth": 2, "alpha": 0.5,
                                   "seed": 1, "value_range": (-5, 5)},
                   input_shape=(2, 6, 7, 3), expected_output_shape=(2, 6, 7, 3),
                   expected_num_trainable_weights=0, check_gradients=False)


def test_configs_keep_keras_keys():
    config = layers.AugMix(factor=0.5, all_ops=False).get_config()
    assert config["factor"] == (0, 0.5) and config["all_ops"] is False
    assert {"value_range", "num_chains", "chain_depth", "alpha", "interpolation", "seed",
            "data_format"} <= set(config)
    config = layers.RandAugment(num_ops=4).get_config()
    assert config["num_ops"] == 4 and config["factor"] == (0, 0.5)
    assert layers.RandAugment.from_config(config).num_ops == 4


def test_bad_arguments():
    with pytest.raises(ValueError, match="Received: factor=1.5"):
        layers.RandAugment(factor=1.5)
    with pytest.raises(ValueError, match="Received: num_ops=-1"):
        layers.RandAugment(num_ops=-1)
    with pytest.raises(ValueError, match="Received: interpolation='cubic'"):
        layers.RandAugment(interpolation="cubic")
    with pytest.raises(ValueError, match="Received: num_chains=0"):
        layers.AugMix(num_chains=0)
    with pytest.raises(ValueError, match="Received: chain_depth=0"):
        layers.AugMix(chain_depth=0)
    with pytest.raises(ValueError, match="Received: alpha=0"):
        layers.AugMix(alpha=0)
    with pytest.raises(ValueError, match="Received: value_range=1"):
        layers.AugMix(value_range=1)


@pytest.mark.parametrize("Layer", [layers.RandAugment, layers.AugMix])
def test_operations_compute_in_the_layers_dtype(Layer):
    layer = Layer(num_ops=3, seed=1) if Layer is layers.RandAugment else Layer(seed=1)
    assert {op.dtype for op in layer.operations} == {"float32"}
    layer = Layer(seed=1, dtype="float64")
    assert {op.dtype for op in layer.operations} == {"float64"}
    assert np.asarray(layer(IMAGES)).dtype == np.float64
