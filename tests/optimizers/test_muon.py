"""Muon against real Keras 3: trajectories, the choice of rule, and `.keras` files both ways.

The fixtures come from `tests/fixtures/keras_muon/generate.py` (real Keras 3.15 on
TensorFlow). The update rule itself is checked against a numpy transcription in
`tests/backend/test_ops_optimizer_updates.py`.
"""

import json
from pathlib import Path

import numpy as np
import pytest

import hikeras
from hikeras import optimizers
from hikeras.backend import Variable
from hikeras.saving import load_model
from tests.helpers.recording_backend import recording_update_ops

FIXTURES = Path(__file__).parents[1] / "fixtures" / "keras_muon"
GOLDEN = json.loads((FIXTURES / "trajectories.json").read_text())
VERDICT = json.loads((FIXTURES / "keras_reads_hikeras.json").read_text())
OPTIMIZER_CASES = GOLDEN["optimizer"]["cases"]


def f32(value):
    return np.asarray(value, dtype="float32")


def build():
    """The fixture's model (`generate.build`), written against hikeras."""
    layers = hikeras.layers
    inputs = hikeras.Input(shape=(4, 2))
    h = layers.Conv1D(3, 2, activation="tanh", name="conv")(inputs)
    h = layers.Flatten()(h)
    h = layers.Dense(6, activation="tanh", name="token_embedding_proj")(h)
    h = layers.Dense(5, activation="tanh", name="hidden")(h)
    return hikeras.Model(inputs, layers.Dense(2, name="out")(h))


def data():
    rng = np.random.default_rng(11)
    return rng.normal(size=(8, 4, 2)).astype("float32"), rng.normal(size=(8, 2)).astype(
        "float32")


def compiled_model():
    model = build()
    model.set_weights([f32(w) for w in GOLDEN["model"]["initial"]])
    model.compile(optimizer=optimizers.Muon(**GOLDEN["model_config"]), loss="mse")
    return model


def assert_weights(model, expected, atol=2e-6):
    for got, want in zip(model.get_weights(), expected, strict=True):
        np.testing.assert_allclose(got, f32(want), rtol=1e-5, atol=atol)


@pytest.mark.parametrize("label", sorted(OPTIMIZER_CASES))
def test_trajectory_matches_keras(label):
    case, init = OPTIMIZER_CASES[label], GOLDEN["optimizer"]["init"]
    optimizer = optimizers.deserialize({"class_name": "Muon", "config": case["config"]})
    variables = [Variable(f32(value), name=name, path=name) for name, value in init.items()]
    for step, (grads, expected) in enumerate(zip(GOLDEN["optimizer"]["grads"],
                                                 case["trajectory"])):
        optimizer.apply([f32(grads[v.name]) for v in variables], variables)
        for variable in variables:
            assert variable.value.dtype == np.float32
            np.testing.assert_allclose(variable.value, f32(expected[variable.name]),
                                       rtol=1e-5, atol=2e-6,
                                       err_msg=f"{label}: {variable.name}, step {step + 1}")
    assert [v.name for v in optimizer.variables] == case["slots"]


def test_only_unexcluded_matrices_take_the_muon_step():
    variables = [Variable(np.ones(shape, "float32"), path=path) for path, shape in (
        ("dense/kernel", (3, 2)), ("dense/bias", (2,)), ("conv/kernel", (2, 2, 3)),
        ("token_Embedding/kernel", (3, 2)), ("head/kernel", (3, 2)))]
    optimizer = optimizers.Muon(exclude_layers=["^head"], weight_decay=None,
                                adam_weight_decay=None)
    with recording_update_ops() as calls:
        optimizer.apply([np.ones(v.value.shape, "float32") for v in variables], variables)
    assert calls == ["muon_update"] + ["adam_update"] * 4
    optimizer = optimizers.Muon(exclude_embeddings=False, weight_decay=None,
                                adam_weight_decay=None)
    with recording_update_ops() as calls:
        optimizer.apply([np.ones(v.value.shape, "float32") for v in variables], variables)
    assert calls == ["muon_update", "adam_update", "adam_update", "muon_update", "muon_update"]


def test_each_rule_has_its_own_weight_decay():
    kernel = Variable(np.ones((2, 2), "float32"), path="d/kernel")
    bias = Variable(np.ones(2, "float32"), path="d/bias")
    optimizer = optimizers.Muon(learning_rate=0.5, weight_decay=0.2, adam_weight_decay=0.1)
    optimizer.build([kernel, bias])
    optimizer._apply_weight_decay([kernel, bias], 0.5)
    np.testing.assert_allclose(kernel.value, 0.9)
    np.testing.assert_allclose(bias.value, 0.95)


def test_model_training_matches_keras():
    model, (x, y) = compiled_model(), data()
    for expected in GOLDEN["model"]["trajectory"]:
        model.train_on_batch(x, y)
        assert_weights(model, expected)


def test_loads_a_keras_file_with_its_state_and_continues_like_keras():
    model = load_model(FIXTURES / "keras_muon.keras")
    assert isinstance(model.optimizer, optimizers.Muon)
    assert model.optimizer.exclude_layers == ["out"]
    assert int(model.optimizer.iterations) == 3
    saved = GOLDEN["model"]["optimizer_variables"]
    assert len(model.optimizer.variables) == len(saved)
    for variable in model.optimizer.variables:
        want = saved[variable.path.split("/", 1)[1]]
        np.testing.assert_array_equal(variable.value, np.asarray(want, variable.value.dtype))
    assert_weights(model, GOLDEN["model"]["trajectory"][-1], atol=0)
    model.train_on_batch(*data())
    assert_weights(model, GOLDEN["model"]["next"])


def test_keras_loads_our_file_and_continues_like_us():
    # Written by the generator: hikeras saved the model after three Muon steps, Keras loaded it.
    assert VERDICT["optimizer"] == "Muon" and VERDICT["iterations"] == 3
    assert VERDICT["weights_max_abs_diff"] == 0.0
    assert VERDICT["next_max_abs_diff"] < 1e-5
    model = compiled_model()
    model.train_on_batch(*data())
    assert [v.path.split("/", 1)[1] for v in model.optimizer.variables] == VERDICT["slot_names"]


def test_keras_file_round_trip_keeps_the_state(tmp_path):
    model, (x, y) = compiled_model(), data()
    model.train_on_batch(x, y)
    model.save(tmp_path / "muon.keras")
    loaded = load_model(tmp_path / "muon.keras")
    assert loaded.optimizer.get_config() == model.optimizer.get_config()
    model.train_on_batch(x, y)
    loaded.train_on_batch(x, y)
    for got, want in zip(loaded.get_weights(), model.get_weights(), strict=True):
        np.testing.assert_array_equal(got, want)


def test_config_round_trips_and_has_keras_keys():
    optimizer = optimizers.Muon(learning_rate=0.02, exclude_layers=["out"], nesterov=False,
                                rms_rate=None, ns_steps=4)
    config = optimizer.get_config()
    assert set(config) == set(OPTIMIZER_CASES["defaults"]["config"])
    rebuilt = optimizers.deserialize(optimizers.serialize(optimizer))
    assert type(rebuilt) is optimizers.Muon and rebuilt.get_config() == config
    assert optimizers.get("muon").name == "muon"


@pytest.mark.parametrize("kwargs, name", [
    ({"ns_steps": 2.5}, "ns_steps"),
    ({"ns_steps": -1}, "ns_steps"),
    ({"exclude_layers": "out"}, "exclude_layers"),
    ({"momentum": "high"}, "momentum"),
    ({"rms_rate": [0.2]}, "rms_rate"),
])
def test_argument_errors(kwargs, name):
    with pytest.raises(ValueError, match=f"Received: {name}="):
        optimizers.Muon(**kwargs)


def test_docstring_example():
    import doctest

    from hikeras.optimizers import muon

    result = doctest.testmod(muon)
    assert result.failed == 0 and result.attempted > 0
