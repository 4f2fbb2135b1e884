"""Corrupt and hostile files: a clear `ValueError` naming the file, never anything else.

Valid files are mutated (bit flips, truncations, overwritten byte runs, and
structural edits of attributes, groups and datasets); loading each mutant
either succeeds or raises `ValueError` (`SavedFileError`) that names the file,
and a failed load leaves the model exactly as it was. Seeded and bounded.
"""

import json
import random
import zlib

import h5py
import numpy as np
import pytest

import hikeras
from hikeras import layers
from hikeras.saving import SavedFileError

_CONFIG_CHECKSUM = "hikeras_model_config_sha256"


def _model():
    return hikeras.Sequential([hikeras.Input((3,)), layers.Dense(4, name="a"),
                               layers.Dense(2, name="b")])


def _state(model):
    return [v.value.copy() for v in model.weights]


def _load_weights_checked(path, by_name=False):
    model = _model()
    before = _state(model)
    try:
        model.load_weights(path, by_name=by_name, skip_mismatch=by_name)
    except ValueError as e:
        assert str(path) in str(e), str(e)
        for a, b in zip(before, _state(model)):
            np.testing.assert_array_equal(a, b)


def _load_model_checked(path):
    try:
        hikeras.models.load_model(path)
    except ValueError as e:
        assert str(path) in str(e), str(e)


def _bytes_mutants(data, rng, count):
    for _ in range(count):
        kind = rng.randrange(3)
        buf = bytearray(data)
        if kind == 0:
            for _ in range(rng.randint(1, 8)):
                i = rng.randrange(len(buf))
                buf[i] ^= 1 << rng.randrange(8)
        elif kind == 1:
            buf = buf[:rng.randrange(len(buf))]
        else:
            i = rng.randrange(len(buf))
            n = rng.randint(1, 64)
            buf[i:i + n] = bytes(rng.randrange(256) for _ in range(min(n, len(buf) - i)))
        yield bytes(buf)


@pytest.mark.parametrize("suffix,loader", [(".h5", "weights"), (".weights.h5", "weights"),
                                           ("_model.h5", "model"), (".keras", "model"),
                                           (".keras", "weights")])
def test_byte_level_mutations(tmp_path, suffix, loader):
    hikeras.utils.set_random_seed(0)  # the same file, hence the same mutants, every run
    model = _model()
    model.compile(optimizer="adam", loss="mse")
    model.fit(np.ones((4, 3), "float32"), np.ones((4, 2), "float32"), verbose=0)
    good = tmp_path / f"good{suffix}"
    if loader == "model" or suffix == ".keras":
        model.save(good)
    else:
        model.save_weights(good)
    data = good.read_bytes()
    path = tmp_path / f"mutant{suffix}"
    rng = random.Random(zlib.crc32(f"{suffix}-{loader}".encode()))  # str hash() varies per run
    check = _load_model_checked if loader == "model" else _load_weights_checked
    for mutant in _bytes_mutants(data, rng, 500):
        path.write_bytes(mutant)
        check(path)


def _edit_legacy(f, rng):
    """One structural edit of a legacy weights file."""
    edits = [
        lambda: f.attrs.__setitem__("layer_names", np.arange(3)),
        lambda: f.attrs.__setitem__("layer_names", [b"a", b"\xff\xfe"]),
        lambda: f.attrs.__setitem__("layer_names", [b"a", b"missing"]),
        lambda: f.attrs.__setitem__("layer_names", "a"),
        lambda: f.attrs.__delitem__("layer_names"),
        lambda: f["a"].attrs.__setitem__("weight_names", [b"a/kernel:0"]),
        lambda: f["a"].attrs.__setitem__("weight_names", [b"nope:0", b"a/bias:0"]),
        lambda: f["a"].attrs.__setitem__("weight_names", np.zeros((2, 2))),
        lambda: f["a"].attrs.__setitem__("weight_names", [b"", b"."]),
        lambda: f.__delitem__("b"),
        lambda: (f["a/a"].__delitem__("kernel:0"),
                 f["a/a"].create_dataset("kernel:0", data=np.zeros((4, 3), "f4"))),
        lambda: (f["a/a"].__delitem__("kernel:0"),
                 f["a/a"].create_dataset("kernel:0", data=np.array([b"xx"] * 12))),
        lambda: (f["a/a"].__delitem__("bias:0"), f["a/a"].create_group("bias:0")),
        lambda: (f["b/b"].__delitem__("bias:0"),
                 f["b/b"].create_dataset("bias:0", data=np.zeros(2, "f8"),
                                         chunks=(1,), compression="gzip")),
        lambda: (f["b/b"].__delitem__("bias:0"),
                 f["b/b"].create_dataset("bias:0", shape=(10**6, 10**6), dtype="f4")),
        lambda: (f["b/b"].__delitem__("bias:0"),
                 f["b/b"].create_dataset("bias:0", shape=(10**9,), dtype="f4", chunks=(8,))),
        lambda: (f["b/b"].__delitem__("bias:0"),
                 f["b/b"].create_dataset("bias:0", data=np.zeros(2, "f4"),
                                         external=[(str(f.filename) + ".ext", 0, 8)])),
    ]
    rng.choice(edits)()


def test_structural_mutations_of_legacy_files(tmp_path):
    rng = random.Random(5)
    good = tmp_path / "good.h5"
    _model().save_weights(good)
    data = good.read_bytes()
    path = tmp_path / "mutant.h5"
    for i in range(300):
        path.write_bytes(data)
        with h5py.File(path, "r+") as f:
            for _ in range(rng.randint(1, 2)):
                try:
                    _edit_legacy(f, rng)
                except (KeyError, ValueError, OSError):
                    pass  # the edit did not apply to an already-edited file
        _load_weights_checked(path, by_name=bool(i % 2))


def _edit_config(config, rng):
    text = json.dumps(config)
    choices = [
        "[]", "3", '"text"', "{", "[" * 5000 + "]" * 5000, "{\"class_name\": 5}",
        text.replace('"Dense"', '"NoSuchLayer"'),
        text.replace('"units": 4', '"units": "four"'),
        text.replace('"units": 4', '"units": -1'),
        text.replace('"batch_input_shape": [null, 3]', '"batch_input_shape": 7'),
        text.replace('"layers": [', '"layers": [5, '),
        text.replace('"name": "b"', '"name": "a"'),
        text.replace('"config": {"name": "sequential"', '"config": {"name": 1'),
    ]
    return rng.choice(choices)


def test_hostile_model_configs(tmp_path):
    rng = random.Random(9)
    model = _model()
    good = tmp_path / "good.h5"
    model.save(good)
    config = json.loads(model.to_json())
    data = good.read_bytes()
    path = tmp_path / "mutant.h5"
    for _ in range(150):
        path.write_bytes(data)
        text = _edit_config(config, rng)
        with h5py.File(path, "r+") as f:
            f.attrs["model_config"] = text.encode("utf-8") if rng.random() < 0.5 else text
            f.attrs.pop(_CONFIG_CHECKSUM, None)  # as Keras writes it: the parser is under test
        _load_model_checked(path)
        try:
            hikeras.models.model_from_json(text)
        except ValueError as e:
            assert "json string" in str(e)


def test_specific_hostile_cases_have_clear_messages(tmp_path):
    path = tmp_path / "m.h5"
    _model().save(path)
    with h5py.File(path, "r+") as f:
        f.attrs["model_config"] = "[" * 1000 + "]" * 1000
        del f.attrs[_CONFIG_CHECKSUM]  # as Keras writes it: the parser is under test
    with pytest.raises(SavedFileError, match="m.h5.*nested deeper than"):
        hikeras.models.load_model(path)
    with h5py.File(path, "r+") as f:
        f.attrs["model_config"] = "[1, 2]"
    with pytest.raises(SavedFileError, match="not a JSON object"):
        hikeras.models.load_model(path)
    weights = tmp_path / "w.h5"
    _model().save_weights(weights)
    with h5py.File(weights, "r+") as f:
        f.attrs["layer_names"] = [b"a", b"\xff"]
    with pytest.raises(SavedFileError, match="w.h5.*not valid UTF-8"):
        _model().load_weights(weights)
    truncated = tmp_path / "t.h5"
    truncated.write_bytes(weights.read_bytes()[:3000])
    with pytest.raises(SavedFileError, match="t.h5"):
        _model().load_weights(truncated)
    (tmp_path / "text.h5").write_text("not hdf5")
    with pytest.raises(SavedFileError, match="text.h5.*not a readable HDF5"):
        hikeras.models.load_model(tmp_path / "text.h5")


def test_data_outside_the_file_is_never_read(tmp_path):
    secret = tmp_path / "secret.bin"
    secret.write_bytes(np.arange(2, dtype="f4").tobytes())
    path = tmp_path / "w.h5"
    _model().save_weights(path)
    with h5py.File(path, "r+") as f:
        del f["b/b/bias:0"]
        f["b/b"].create_dataset("bias:0", shape=(2,), dtype="f4",
                                external=[(str(secret), 0, 8)])
    with pytest.raises(SavedFileError, match="w.h5.*outside the file"):
        _model().load_weights(path)


def test_hostile_keras_archives(tmp_path):
    import zipfile

    weights = tmp_path / "w.weights.h5"
    _model().save_weights(weights)
    config = _model().to_json()

    def archive(name, members):
        path = tmp_path / name
        with zipfile.ZipFile(path, "w") as z:
            for member, data in members.items():
                z.writestr(member, data)
        return path

    cases = {
        "no_config.keras": ({"model.weights.h5": weights.read_bytes()}, "no 'config.json'"),
        "list.keras": ({"config.json": "[]"}, "not a JSON object"),
        "binary.keras": ({"config.json": b"\xff\xfe"}, "not UTF-8"),
        "no_weights.keras": ({"config.json": config}, "no 'model.weights.h5'"),
        "bad_weights.keras": ({"config.json": config, "model.weights.h5": b"garbage"},
                              "not a readable HDF5 file"),
        "unknown.keras": ({"config.json": config.replace('"Dense"', '"Evil"')},
                          "Unknown layer: 'Evil'"),
    }
    for name, (members, message) in cases.items():
        with pytest.raises(SavedFileError, match=f"{name}.*{message}"):
            hikeras.models.load_model(archive(name, members))
    good = archive("good.keras", {"config.json": config, "model.weights.h5": weights.read_bytes()})
    assert hikeras.models.load_model(good).count_params() == _model().count_params()
