"""Resource limits are checked before anything is allocated: declared weight sizes
(against the file's content and the available memory), layer counts, JSON depth and
string sizes. Each error names the limit, and how to raise it where one can."""

import json
import tracemalloc
import zipfile

import h5py
import pytest

import hikeras
from hikeras import layers
from hikeras.saving import SavedFileError
from hikeras.serialization import limits


def _dense_json(units):
    return json.dumps({"class_name": "Sequential", "config": {"name": "s", "layers": [
        {"class_name": "InputLayer", "config": {"batch_input_shape": [None, 16]}},
        {"class_name": "Dense", "config": {"units": units, "name": "d"}}]}})


def _peak_bytes(function):
    tracemalloc.start()
    try:
        with pytest.raises(SavedFileError) as caught:
            function()
        return tracemalloc.get_traced_memory()[1], caught.value
    finally:
        tracemalloc.stop()


def test_a_tiny_config_cannot_make_the_loader_allocate_terabytes():
    text = _dense_json(2**40)
    assert len(text) < 250
    peak, error = _peak_bytes(lambda: hikeras.models.model_from_json(text))
    assert peak < 50 * 2**20
    message = str(error)
    assert "layer 'd' (Dense)" in message and "key 'units'" in message
    assert "(16, 1099511627776)" in message and "memory available now" in message


@pytest.mark.parametrize("suffix", [".h5", ".keras"])
def test_a_file_cannot_declare_more_weights_than_it_holds(tmp_path, suffix):
    path = tmp_path / f"m{suffix}"
    hikeras.models.model_from_json(_dense_json(2)).save(path)
    big = _dense_json(2**24)  # 16 x 2**24 float32 = 1 GiB, in a file of a few KiB
    if suffix == ".h5":
        with h5py.File(path, "r+") as f:
            f.attrs["model_config"] = big
            del f.attrs["hikeras_model_config_sha256"]  # else the checksum refuses it first
    else:
        with zipfile.ZipFile(path) as z:
            members = {name: z.read(name) for name in z.namelist()}
        members["config.json"] = big.encode()
        del members["metadata.json"]  # as if Keras wrote it: no config checksum
        with zipfile.ZipFile(path, "w") as z:
            for name, data in members.items():
                z.writestr(name, data)
    peak, error = _peak_bytes(lambda: hikeras.models.load_model(path))
    assert peak < 50 * 2**20
    message = str(error)
    assert str(path) in message and "layer 'd' (Dense)" in message
    assert "1.0 GiB" in message and "FILE_WEIGHT_FACTOR" in message


def test_the_weight_budget_allows_real_models(tmp_path):
    model = hikeras.Sequential([hikeras.Input((64,)), layers.Dense(256), layers.Dense(10)])
    for name in ("m.h5", "m.keras"):
        model.save(tmp_path / name)
        assert hikeras.models.load_model(tmp_path / name).count_params() == model.count_params()


def test_layer_count_limit_names_the_limit(monkeypatch):
    monkeypatch.setattr(limits, "MAX_LAYERS", 3)
    model = hikeras.Sequential([hikeras.Input((2,))] + [layers.Dense(2) for _ in range(4)])
    with pytest.raises(SavedFileError, match=r"5 layers, more than the limit of 3 "
                                             r"\(`hikeras.serialization.limits.MAX_LAYERS`"):
        hikeras.models.model_from_json(model.to_json())
    monkeypatch.setattr(limits, "MAX_LAYERS", 5)  # raising the limit lets it load
    assert len(hikeras.models.model_from_json(model.to_json()).layers) == 4


def test_json_depth_limit_names_the_limit():
    with pytest.raises(SavedFileError, match=r"nested deeper than 100 levels.*MAX_JSON_DEPTH"):
        hikeras.models.model_from_json("[" * 101 + "]" * 101)


def test_string_size_limit_names_the_limit(monkeypatch):
    monkeypatch.setattr(limits, "MAX_STRING_BYTES", 1000)
    text = _dense_json(2).replace('"name": "d"', '"name": "' + "d" * 2000 + '"')
    with pytest.raises(SavedFileError, match=r"string of 2000 characters.*limit of 1000 bytes"):
        hikeras.models.model_from_json(text)
