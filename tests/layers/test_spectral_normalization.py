"""SpectralNormalization (and the Wrapper base): harness, hand-worked norms, updates, errors."""

import numpy as np
import pytest

import hikeras
from hikeras import layers
from hikeras.layers.normalization.spectral_normalization import spectral_norm_step
from tests.helpers.layer_test import fresh, run_layer_test


@pytest.mark.parametrize("make_inner, kwargs, input_shape, output_shape, trainable", [
    (lambda: layers.Dense(3), {}, (2, 4), (2, 3), 2),
    (lambda: layers.Conv2D(2, 2, use_bias=False), {"power_iterations": 3}, (2, 4, 4, 3),
     (2, 3, 3, 2), 1),
])
def test_layer_harness(make_inner, kwargs, input_shape, output_shape, trainable):
    # vector_u is non-trainable but refined by every training call.
    run_layer_test(layers.SpectralNormalization, {"layer": fresh(make_inner), **kwargs},
                   input_shape=input_shape, expected_output_shape=output_shape,
                   expected_num_trainable_weights=trainable,
                   expected_num_non_trainable_weights=1, non_trainable_may_change=True)


def _wrapped_dense(kernel, vector_u, **kwargs):
    layer = layers.SpectralNormalization(layers.Dense(kernel.shape[1], use_bias=False),
                                         **kwargs)
    layer(np.zeros((1, kernel.shape[0]), "float32"))
    layer.set_weights([kernel.astype("float32"), np.asarray(vector_u, "float32")])
    return layer


def test_diagonal_kernel_is_divided_by_its_largest_entry():
    kernel = np.diag([4.0, -2.0, 1.0])
    layer = _wrapped_dense(kernel, [[1.0, 0.0, 0.0]])  # already the top singular vector
    x = np.ones((1, 3), "float32")
    np.testing.assert_allclose(layer(x), [[4.0, -2.0, 1.0]])  # inference: kernel unchanged
    np.testing.assert_allclose(layer(x, training=True), [[1.0, -0.5, 0.25]], rtol=1e-6)
    np.testing.assert_allclose(layer.layer.kernel.numpy(), kernel / 4.0, rtol=1e-6)
    np.testing.assert_allclose(layer.vector_u.numpy(), [[1.0, 0.0, 0.0]])


def test_one_power_iteration_by_hand():
    kernel = np.array([[2.0, 0.0], [0.0, 1.0]])
    layer = _wrapped_dense(kernel, [[1.0, 1.0]])
    layer(np.ones((1, 2), "float32"), training=True)
    # v = normalize(u K^T) = [2, 1] / sqrt(5); u' = normalize(v K) = [4, 1] / sqrt(17)
    # sigma = v K u'^T = [4, 1] . [4, 1] / sqrt(5 * 17) = sqrt(17 / 5)
    u = np.array([[4.0, 1.0]]) / np.sqrt(17.0)
    np.testing.assert_allclose(layer.vector_u.numpy(), u, rtol=1e-6)
    np.testing.assert_allclose(layer.layer.kernel.numpy(), kernel / np.sqrt(17.0 / 5.0),
                               rtol=1e-6)


def test_power_iterations_converge_to_the_largest_singular_value(rng):
    kernel = rng.standard_normal((3, 3, 2, 4))
    _, normalized = spectral_norm_step(kernel, rng.standard_normal((1, 4)), 50)
    sigma = np.linalg.svd(kernel.reshape(-1, 4), compute_uv=False)[0]
    np.testing.assert_allclose(normalized, kernel / sigma, rtol=1e-6)


def test_training_repeatedly_drives_the_spectral_norm_to_one():
    layer = layers.SpectralNormalization(layers.Conv1D(3, 2))
    x = np.random.default_rng(3).standard_normal((2, 5, 4)).astype("float32")
    layer(x)
    layer.layer.kernel.assign(np.random.default_rng(4).standard_normal((2, 4, 3)))
    for _ in range(40):
        layer(x, training=True)
    kernel = layer.layer.kernel.numpy().reshape(-1, 3)
    np.testing.assert_allclose(np.linalg.svd(kernel, compute_uv=False)[0], 1.0, rtol=1e-4)


def test_wraps_embeddings_and_leaves_a_zero_kernel_alone():
    layer = layers.SpectralNormalization(layers.Embedding(5, 3))
    layer(np.array([[0, 4]]))
    assert layer.kernel is layer.layer.embeddings and layer.vector_u.shape == (1, 3)
    zero = _wrapped_dense(np.zeros((2, 2)), [[0.3, 0.4]])
    zero(np.ones((1, 2), "float32"), training=True)
    np.testing.assert_array_equal(zero.get_weights()[1], np.float32([[0.3, 0.4]]))
    assert not zero.layer.kernel.numpy().any()


def test_weights_in_keras_order_and_initial_u():
    layer = layers.SpectralNormalization(layers.Dense(3), name="sn")
    layer(np.ones((2, 4), "float32"))
    assert [w.name for w in layer.weights] == ["kernel", "vector_u", "bias"]
    assert [w.name for w in layer.trainable_weights] == ["kernel", "bias"]
    assert [w.name for w in layer.non_trainable_weights] == ["vector_u"]
    u = layer.vector_u.numpy()
    assert u.shape == (1, 3) and np.abs(u).max() <= 0.04  # truncated at two stddevs of 0.02


def test_fit_updates_u_and_a_saved_model_reloads(tmp_path, rng):
    x = rng.standard_normal((8, 4)).astype("float32")
    model = hikeras.Sequential([hikeras.Input((4,)),
                                layers.SpectralNormalization(layers.Dense(2))])
    model.compile("sgd", "mse")
    u_before = model.layers[0].vector_u.numpy().copy()
    model.fit(x, np.zeros((8, 2), "float32"), epochs=1, verbose=0)
    assert not np.array_equal(model.layers[0].vector_u.numpy(), u_before)
    path = str(tmp_path / "sn.h5")
    model.save(path)
    restored = hikeras.models.load_model(path)
    np.testing.assert_allclose(restored.predict(x, verbose=0), model.predict(x, verbose=0))
    np.testing.assert_array_equal(restored.layers[0].vector_u.numpy(),
                                  model.layers[0].vector_u.numpy())


def test_config_round_trip_and_wrapper_export():
    layer = layers.SpectralNormalization(layers.Dense(3, name="d"), power_iterations=2, name="s")
    config = layer.get_config()
    assert config["power_iterations"] == 2 and config["layer"]["class_name"] == "Dense"
    restored = layers.deserialize(layers.serialize(layer))
    assert isinstance(restored, layers.SpectralNormalization)
    assert isinstance(restored, layers.Wrapper) and restored.get_config() == config


@pytest.mark.parametrize("power_iterations", [0, -1, 1.5])
def test_bad_power_iterations(power_iterations):
    with pytest.raises(ValueError, match=r"power_iterations.*Received: power_iterations="):
        layers.SpectralNormalization(layers.Dense(2), power_iterations=power_iterations)


def test_errors_name_what_was_received():
    with pytest.raises(ValueError, match=r"wraps a layer instance. Received: layer="):
        layers.SpectralNormalization("dense")
    with pytest.raises(ValueError, match=r"'sn'.*neither a `kernel` nor.*Received: layer="):
        layers.SpectralNormalization(layers.ReLU(), name="sn")(np.ones((1, 2), "float32"))


def test_keras3_weights_layout_lists_the_kernel_as_the_wrappers_first_variable():
    """As Keras 3 writes it: `vars/0` kernel, `vars/1` vector_u, then the wrapped layer's."""
    from hikeras.saving.keras3_weights import variable_paths

    layer = layers.SpectralNormalization(layers.Dense(3))
    layer(np.ones((1, 4), "float32"))
    paths = [(path, v.name) for path, v in variable_paths(layer)]
    assert paths == [("vars/0", "kernel"), ("vars/1", "vector_u"),
                     ("layer/vars/0", "kernel"), ("layer/vars/1", "bias")]
    assert [w.path for w in layer.weights] == ["dense/kernel", "spectral_normalization/vector_u",
                                               "dense/bias"]
