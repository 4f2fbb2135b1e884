"""A model's random state is saved in `.keras` and `.h5` model files and restored on load.

The truth is the original model itself: after saving, it draws its next
dropout masks (and `SeedGenerator` numbers); the reloaded model must draw
exactly the same, which a freshly built model with the same seeds does not.
"""

import h5py
import numpy as np
import pytest

import hikeras
from hikeras import layers, random
from hikeras.saving import SavedFileError, register_keras_serializable


@register_keras_serializable(package="random_state_tests")
class Noise(layers.Layer):
    """Adds `random.normal` noise drawn from its own `SeedGenerator`."""

    def __init__(self, seed=0, **kwargs):
        super().__init__(**kwargs)
        self.seed = seed
        self.seed_generator = random.SeedGenerator(seed)

    def call(self, inputs, training=False):
        if not training:
            return inputs
        return inputs + random.normal(inputs.shape, seed=self.seed_generator)

    def get_config(self):
        return {**super().get_config(), "seed": self.seed}


def _model():
    return hikeras.Sequential([hikeras.Input((64,)), layers.Dropout(0.5, seed=3),
                               Noise(seed=5), layers.Dense(4)])


def _draws(model, x, times=3):
    return [np.asarray(model(x, training=True)) for _ in range(times)]


@pytest.mark.parametrize("name", ["m.keras", "m.h5"])
def test_a_reloaded_model_continues_the_random_stream(tmp_path, rng, name):
    x = rng.normal(size=(8, 64)).astype("float32")
    model = _model()
    _draws(model, x)  # advance the generators past their start
    model.save(tmp_path / name)
    loaded = hikeras.models.load_model(tmp_path / name)
    fresh = _draws(_model(), x, times=1)[0]
    expected = _draws(model, x)
    got = _draws(loaded, x)
    for a, b in zip(expected, got):
        np.testing.assert_array_equal(a, b)
    assert not np.array_equal(fresh, expected[0])  # restoring was needed


def test_the_state_sits_in_its_own_group(tmp_path):
    model = _model()
    model.save(tmp_path / "m.h5")
    with h5py.File(tmp_path / "m.h5", "r") as f:
        assert set(f) == {"model_weights", "hikeras_random_state"}
        assert "hikeras_random_state" not in f["model_weights"]


def test_a_file_without_random_state_loads_with_fresh_generators(tmp_path, rng):
    model = _model()
    model.save(tmp_path / "m.h5")
    with h5py.File(tmp_path / "m.h5", "r+") as f:
        del f["hikeras_random_state"]
    loaded = hikeras.models.load_model(tmp_path / "m.h5")
    assert len(_draws(loaded, rng.normal(size=(2, 64)).astype("float32"), 1)) == 1


@pytest.mark.parametrize("state,match", [
    ('{"layers": {"2/dropout/_rng": {"bit_generator": "PCG64"}}}', "'2/dropout/_rng'"),
    ('{"seed_generators": {"3/noise/seed_generator": [1, -2]}}', "'3/noise/seed_generator'"),
    ('{"layers": [1, 2]}', "must map keys"),
    ("[1, 2]", "state"),
])
def test_a_damaged_random_state_is_a_clear_error(tmp_path, state, match):
    model = _model()
    model.save(tmp_path / "m.h5")
    with h5py.File(tmp_path / "m.h5", "r+") as f:
        f["hikeras_random_state"].attrs["state"] = state
    with pytest.raises(SavedFileError, match=match) as error:
        hikeras.models.load_model(tmp_path / "m.h5")
    assert str(tmp_path / "m.h5") in str(error.value)
