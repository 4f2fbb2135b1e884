"""`hikeras.config`: each setting is honoured where Keras honours it."""

import numpy as np
import pytest

import hikeras
from hikeras import config, layers


@pytest.fixture
def restore():
    yield
    config.set_floatx("float32")
    config.set_image_data_format("channels_last")
    config.set_max_epochs(None)
    config.set_max_steps_per_epoch(None)
    config.enable_interactive_logging()
    config.set_dtype_policy(None)


def small_model():
    model = hikeras.Sequential([hikeras.Input((3,)), layers.Dense(2)])
    model.compile("sgd", "mse")
    return model


def test_floatx_float64_trains_in_float64(restore, rng):
    config.set_floatx("float64")
    model = small_model()
    model.fit(rng.standard_normal((8, 3)), rng.standard_normal((8, 2)), verbose=0)
    assert all(w.dtype == "float64" for w in model.weights)
    assert model.predict(np.ones((1, 3), "float32"), verbose=0).dtype == np.float64


def test_image_data_format_is_the_layers_default(restore):
    config.set_image_data_format("channels_first")
    conv = layers.Conv2D(4, 3)
    assert conv.data_format == "channels_first"
    assert conv(np.ones((1, 2, 6, 6), "float32")).shape == (1, 4, 4, 4)
    with pytest.raises(ValueError, match=r"Received: data_format='channels_middle'"):
        config.set_image_data_format("channels_middle")


def test_epsilon_round_trips(restore):
    before = config.epsilon()
    config.set_epsilon(1e-5)
    assert config.epsilon() == 1e-5
    config.set_epsilon(before)


def test_max_epochs_and_steps_cap_fit(restore, rng):
    config.set_max_epochs(2)
    config.set_max_steps_per_epoch(3)
    model = small_model()
    seen = []
    history = model.fit(rng.standard_normal((64, 3)), rng.standard_normal((64, 2)), epochs=10,
                        batch_size=4, verbose=0, callbacks=[hikeras.callbacks.LambdaCallback(
                            on_train_batch_end=lambda batch, logs: seen.append(batch))])
    assert len(history.history["loss"]) == 2
    assert seen == [0, 1, 2, 0, 1, 2]
    with pytest.raises(ValueError, match=r"Received: max_epochs=0"):
        config.set_max_epochs(0)


def test_disabled_interactive_logging_prints_lines(restore, rng, capsys):
    config.disable_interactive_logging()
    assert not config.is_interactive_logging_enabled()
    small_model().fit(rng.standard_normal((8, 3)), rng.standard_normal((8, 2)), epochs=2,
                      verbose=1)
    out = capsys.readouterr().out
    assert "\r" not in out
    assert out.count("loss:") == 2


def test_unsafe_deserialization_never_runs_a_lambdas_bytecode(restore):
    config.enable_unsafe_deserialization()
    assert config.is_unsafe_deserialization_enabled()
    keras_lambda = {"name": "f", "function": {"class_name": "__lambda__", "config": {
        "code": "4wEAAAAAAAAA", "defaults": None, "closure": None}},
        "function_type": "lambda", "arguments": {}}
    with pytest.raises(ValueError, match="never executes"):
        layers.Lambda.from_config(keras_lambda)


def test_dtype_policy_sets_the_layers_default(restore):
    config.set_dtype_policy("float64")
    assert config.dtype_policy().name == "float64"
    dense = layers.Dense(2)
    assert dense.dtype == dense.compute_dtype == dense.variable_dtype == "float64"
    assert dense.dtype_policy == hikeras.DTypePolicy("float64")


def test_backend_name():
    assert config.backend() == hikeras.backend.backend() == "numpy"
