"""A full-model `.h5` records a SHA-256 of its `model_config` and `training_config`:
an altered config is refused, a file without the record (Keras's) loads as before."""

import h5py
import numpy as np
import pytest

import hikeras
from hikeras.saving import SavedFileError
from tests.saving.saving_models import mlp


def _saved(tmp_path):
    model = mlp()
    model.compile(optimizer=hikeras.optimizers.Adam(learning_rate=0.001), loss="mse")
    model.fit(np.ones((2, 4), "f4"), np.ones((2, 3), "f4"), verbose=0)
    path = tmp_path / "m.h5"
    model.save(path)
    return model, path


@pytest.mark.parametrize("name,old,new", [("model_config", '"relu"', '"tanh"'),
                                          ("training_config", "0.001", "0.005")])
def test_an_altered_config_is_refused(tmp_path, name, old, new):
    _, path = _saved(tmp_path)
    with h5py.File(path, "r+") as f:
        text = f.attrs[name]
        assert old in text
        f.attrs[name] = text.replace(old, new, 1)
    with pytest.raises(SavedFileError, match=f"m.h5' is corrupt: its '{name}' does not match"):
        hikeras.models.load_model(path)


def test_a_file_without_the_record_loads_as_before(tmp_path):
    model, path = _saved(tmp_path)
    with h5py.File(path, "r+") as f:
        assert {"hikeras_model_config_sha256", "hikeras_training_config_sha256"} <= set(f.attrs)
        f.attrs["model_config"] = f.attrs["model_config"].replace('"relu"', '"tanh"', 1)
        del f.attrs["hikeras_model_config_sha256"]
    loaded = hikeras.models.load_model(path)
    assert loaded.layers[0].activation.__name__ == "tanh"
    assert all(np.array_equal(a, b) for a, b in zip(model.get_weights(), loaded.get_weights()))


def test_a_keras_archives_config_is_checked_against_its_metadata(tmp_path):
    import json
    import zipfile

    model = mlp()
    path = tmp_path / "m.keras"
    model.save(path)
    with zipfile.ZipFile(path) as z:
        members = {name: z.read(name) for name in z.namelist()}
    assert "hikeras_config_json_sha256" in json.loads(members["metadata.json"])
    members["config.json"] = members["config.json"].replace(b'"relu"', b'"tanh"', 1)
    with zipfile.ZipFile(path, "w") as z:  # a fresh, valid CRC: only the checksum tells
        for name, data in members.items():
            z.writestr(name, data)
    with pytest.raises(SavedFileError, match="m.keras' is corrupt: its 'config.json' does not"):
        hikeras.models.load_model(path)


@pytest.mark.parametrize("suffix", [".h5", ".weights.h5"])
def test_a_weight_replaced_without_its_checksum_is_refused(tmp_path, suffix):
    model = mlp()
    path = tmp_path / f"w{suffix}"
    model.save_weights(path)
    with h5py.File(path, "r+") as f:
        names = []
        f.visititems(lambda n, o: names.append(n) if isinstance(o, h5py.Dataset) else None)
        data = f[names[0]][()]
        del f[names[0]]
        f.create_dataset(names[0], data=data + 1)  # same dtype and shape, no checksum
    with pytest.raises(SavedFileError, match=r"carry checksums, but not \["):
        mlp().load_weights(path)
