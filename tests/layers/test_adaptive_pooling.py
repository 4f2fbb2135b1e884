"""Adaptive pooling layers: harness, hand-worked bins, a loop reference, configs, errors."""

import itertools
import math

import numpy as np
import pytest

import hikeras
from hikeras import layers
from tests.helpers.layer_test import run_layer_test

HARNESS = [
    (layers.AdaptiveMaxPooling1D, {"output_size": 3}, (2, 7, 3), (2, 3, 3)),
    (layers.AdaptiveMaxPooling2D, {"output_size": (2, 4)}, (2, 5, 6, 2), (2, 2, 4, 2)),
    (layers.AdaptiveMaxPooling3D, {"output_size": 2, "data_format": "channels_first"},
     (1, 2, 3, 4, 5), (1, 2, 2, 2, 2)),
    (layers.AdaptiveAveragePooling1D, {"output_size": 5, "data_format": "channels_first"},
     (2, 3, 2), (2, 3, 5)),
    (layers.AdaptiveAveragePooling2D, {"output_size": 3}, (2, 5, 7, 2), (2, 3, 3, 2)),
    (layers.AdaptiveAveragePooling3D, {"output_size": (1, 2, 3)}, (1, 3, 4, 5, 2),
     (1, 1, 2, 3, 2)),
]


@pytest.mark.parametrize("cls, kwargs, input_shape, output_shape", HARNESS,
                         ids=[c.__name__ for c, *_ in HARNESS])
def test_layer_harness(cls, kwargs, input_shape, output_shape):
    run_layer_test(cls, kwargs, input_shape=input_shape, expected_output_shape=output_shape,
                   expected_num_trainable_weights=0, expected_num_non_trainable_weights=0)


def test_hand_worked_bins_1d():
    # length 5 into 3 bins: [0, 2), [1, 4), [3, 5) -- the middle one overlaps both others
    x = np.array([4.0, 1.0, 7.0, 2.0, 6.0], "float32").reshape(1, 5, 1)
    np.testing.assert_allclose(layers.AdaptiveAveragePooling1D(3)(x)[0, :, 0],
                               [2.5, 10.0 / 3.0, 4.0], rtol=1e-6)
    np.testing.assert_array_equal(layers.AdaptiveMaxPooling1D(3)(x)[0, :, 0], [4.0, 7.0, 6.0])
    # length 2 into 5 bins: [0, 1), [0, 1), [0, 2), [1, 2), [1, 2)
    y = np.array([1.0, 3.0], "float32").reshape(1, 2, 1)
    np.testing.assert_allclose(layers.AdaptiveAveragePooling1D(5)(y)[0, :, 0],
                               [1.0, 1.0, 2.0, 3.0, 3.0])


def test_hand_worked_bins_2d():
    x = np.arange(12, dtype="float32").reshape(1, 3, 4, 1)
    # rows into 2 bins: [0, 2), [1, 3); columns into 2 bins: [0, 2), [2, 4)
    expected = [[np.mean([0, 1, 4, 5]), np.mean([2, 3, 6, 7])],
                [np.mean([4, 5, 8, 9]), np.mean([6, 7, 10, 11])]]
    np.testing.assert_allclose(layers.AdaptiveAveragePooling2D(2)(x)[0, :, :, 0], expected)
    np.testing.assert_array_equal(layers.AdaptiveMaxPooling2D(2)(x)[0, :, :, 0],
                                  [[5, 7], [9, 11]])


def _reference(x, output_size, reduce):
    """Bin by bin, with the bins from floats (floor of the start, ceil of the end)."""
    axes = [[(math.floor(i * n / o), math.ceil((i + 1) * n / o)) for i in range(o)]
            for n, o in zip(x.shape[1:-1], output_size)]
    out = np.zeros((x.shape[0], *output_size, x.shape[-1]))
    for pos in itertools.product(*(range(o) for o in output_size)):
        window = x[(slice(None),) + tuple(slice(*a[p]) for a, p in zip(axes, pos))]
        out[(slice(None), *pos)] = reduce(window.reshape(x.shape[0], -1, x.shape[-1]), axis=1)
    return out


@pytest.mark.parametrize("cls, reduce, output_size, input_shape", [
    (layers.AdaptiveAveragePooling1D, np.mean, (4,), (2, 10, 3)),
    (layers.AdaptiveMaxPooling1D, np.max, (6,), (2, 4, 3)),
    (layers.AdaptiveAveragePooling2D, np.mean, (3, 5), (2, 8, 11, 2)),
    (layers.AdaptiveMaxPooling2D, np.max, (4, 1), (2, 9, 3, 2)),
    (layers.AdaptiveAveragePooling3D, np.mean, (2, 3, 2), (1, 5, 7, 3, 2)),
    (layers.AdaptiveMaxPooling3D, np.max, (3, 2, 4), (1, 4, 4, 7, 2)),
])
def test_values_match_loop_reference(cls, reduce, output_size, input_shape, rng):
    x = rng.standard_normal(input_shape).astype("float32")
    np.testing.assert_allclose(cls(output_size)(x), _reference(x, output_size, reduce),
                               rtol=1e-5, atol=1e-6)


def test_channels_first_is_channels_last_transposed(rng):
    x = rng.standard_normal((2, 3, 7, 5)).astype("float32")
    first = layers.AdaptiveMaxPooling2D((3, 2), data_format="channels_first")
    last = layers.AdaptiveMaxPooling2D((3, 2))
    np.testing.assert_array_equal(first(x), np.transpose(last(np.transpose(x, (0, 2, 3, 1))),
                                                         (0, 3, 1, 2)))


def test_same_size_is_identity_and_average_of_ints_is_float():
    x = np.arange(6, dtype="int32").reshape(1, 3, 2)
    out = layers.AdaptiveAveragePooling1D(3)(x)
    assert out.dtype == np.float32 and out.tolist() == x.tolist()
    assert layers.AdaptiveMaxPooling1D(3)(x).tolist() == x.tolist()


def test_max_gradient_goes_to_each_bins_maximum():
    x = np.array([0.0, 5.0, 1.0, 2.0, 3.0], "float32").reshape(1, 5, 1)
    with hikeras.GradientTape() as tape:
        tape.watch(x)
        out = layers.AdaptiveMaxPooling1D(3)(x)  # bins [0, 2), [1, 4), [3, 5)
    (g,) = tape.gradient(out, [x])
    np.testing.assert_array_equal(g[0, :, 0], [0, 2, 0, 0, 1])


def test_config_round_trip():
    layer = layers.AdaptiveAveragePooling2D(4, data_format="channels_first", name="ap")
    config = layer.get_config()
    assert config["output_size"] == (4, 4) and config["data_format"] == "channels_first"
    restored = layers.deserialize(layers.serialize(layer))
    assert type(restored) is layers.AdaptiveAveragePooling2D
    assert restored.get_config() == config
    keras_style = layers.deserialize({"class_name": "AdaptiveMaxPooling1D",
                                      "config": {"output_size": [3], "data_format": None}})
    assert keras_style.output_size == (3,)


@pytest.mark.parametrize("output_size", [0, (2, 2), "3", 2.5])
def test_bad_output_size(output_size):
    with pytest.raises(ValueError, match=r"output_size.*Received: output_size="):
        layers.AdaptiveMaxPooling1D(output_size)


def test_wrong_rank_names_the_layer():
    with pytest.raises(ValueError, match=r"'ap'.*rank 4.*Received: input_shape="):
        layers.AdaptiveAveragePooling2D(2, name="ap")(np.ones((1, 4, 3), "float32"))


def test_unknown_length_gives_the_output_size():
    # As Keras: the bins are laid out from each batch's length.
    outputs = layers.AdaptiveMaxPooling1D(2)(hikeras.Input((None, 3)))
    assert outputs.shape == (None, 2, 3)
