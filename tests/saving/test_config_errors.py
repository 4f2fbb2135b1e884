"""Config problems while rebuilding a model name the layer, the key, the value and what
was expected, in every path (load_model of .keras/.h5, model_from_json, from_config,
deserialize, clone_model); no bare TypeError/KeyError/IndexError/MemoryError text."""

import json
import re
import zipfile

import h5py
import pytest

import hikeras
from hikeras import layers
from hikeras.saving import SavedFileError
from hikeras.serialization.config_errors import ConfigError

_BARE = re.compile(r"^(TypeError|KeyError|IndexError|MemoryError|AttributeError)|"
                   r"^list indices|^list index out of range")


def _sequential_json():
    return hikeras.Sequential([hikeras.Input((3,)), layers.Dense(4, name="a"),
                               layers.Dense(2, name="b")]).to_json()


def _functional_config():
    inputs = hikeras.Input((3,), name="x")
    hidden = layers.Dense(4, name="a")(inputs)
    return json.loads(hikeras.Model(inputs, layers.Dense(2, name="b")(hidden)).to_json())


def _edit(config, edit):
    edit(config)
    return json.dumps(config)


def _node(config, index, value):
    config["config"]["layers"][2]["inbound_nodes"][0][0][index] = value


SEQUENTIAL_CASES = [
    # (edit of the JSON text, what the message must say, in order)
    (('"units": 4', '"units": "four"'), ["layer 'a' (Dense)", "key 'units'", "'four'",
                                        "positive integer"]),
    (('"units": 4', '"units": 4, "colour": 1'), ["layer 'a' (Dense)", "key 'colour'",
                                                 "one of Dense's arguments"]),
    (('"units": 4,', ''), ["layer 'a' (Dense)", "key 'units' is missing", "required"]),
    (('"seed": null', '"seed": null, "bogus": 3'),
     ["initializer GlorotUniform of layer 'a' (Dense)", "key 'bogus'", "has the value 3",
      "arguments ['seed']"]),
    (('"activation": "linear"', '"activation": 5'), ["layer 'a' (Dense)", "key 'activation'",
                                                     "value 5", "Could not interpret"]),
    (('"class_name": "Dense"', '"class_name": "Evil"'), ["layer 'a' (Evil)",
                                                         "Unknown layer: 'Evil'"]),
    (('"units": 4', '"units": 1099511627776'),
     ["layer 'a' (Dense)", "key 'units'", "1099511627776", "weight 'kernel'",
      "of shape (3, 1099511627776)", "more than"]),
]

FUNCTIONAL_CASES = [
    (lambda c: _node(c, 1, 0.5), ["layer 'b' (Dense)", "key 'inbound_nodes[0]'", "0.5",
                                  "non-negative integer indices", "model 'functional'"]),
    (lambda c: _node(c, 2, 7), ["tensor 7 of node 0 of layer 'a'", "1 output tensor"]),
    (lambda c: c["config"].__setitem__("output_layers", [["b", 0, 3]]),
     ["tensor 3 of node 0 of layer 'b'"]),
    (lambda c: c["config"].__setitem__("output_layers", [["b", 4, 0]]),
     ["['b', 4, 0]", "has no node 4"]),
    (lambda c: c["config"]["layers"][1].pop("name"),
     ["layer Dense", "key 'layers[1].name' is missing", "a string"]),
    (lambda c: c["config"]["layers"][2].__setitem__("name", "a"),
     ["layer 'a' (Dense)", "key 'name'", "unique"]),
    (lambda c: c["config"]["layers"][2].__setitem__("inbound_nodes", [[["a", 0]]]),
     ["layer 'b' (Dense)", "key 'inbound_nodes[0]'", "[['a', 0]]"]),
    (lambda c: c["config"].__setitem__("input_layers", [["nope", 0, 0]]),
     ["model 'functional'", "key 'input_layers'", "'nope'", "naming layers of the model"]),
    (lambda c: c["config"]["layers"][1].__setitem__("inbound_nodes", "x"),
     ["layer 'a' (Dense)", "key 'inbound_nodes'", "'x'", "a list"]),
]


def _assert_says(error, parts):
    message = str(error)
    assert not _BARE.search(message), message
    position = 0
    for part in parts:
        found = message.find(part, position)
        assert found >= 0, f"{part!r} not in {message!r}"
        position = found + len(part)


@pytest.mark.parametrize("replace,parts", SEQUENTIAL_CASES)
def test_model_from_json_names_layer_key_and_value(replace, parts):
    text = _sequential_json()
    assert replace[0] in text
    with pytest.raises(SavedFileError) as caught:
        hikeras.models.model_from_json(text.replace(*replace, 1))
    _assert_says(caught.value, ["json string", *parts])


@pytest.mark.parametrize("edit,parts", FUNCTIONAL_CASES)
def test_functional_configs_name_layer_key_and_value(edit, parts):
    text = _edit(_functional_config(), edit)
    with pytest.raises(SavedFileError) as caught:
        hikeras.models.model_from_json(text)
    _assert_says(caught.value, ["json string", *parts])


@pytest.mark.parametrize("suffix", [".h5", ".keras"])
def test_files_name_the_file_then_the_layer(tmp_path, suffix):
    path = tmp_path / f"m{suffix}"
    hikeras.models.model_from_json(_sequential_json()).save(path)
    bad = _sequential_json().replace('"units": 4', '"units": 4, "colour": 1')
    if suffix == ".h5":
        with h5py.File(path, "r+") as f:  # as Keras would write it: no config checksum
            f.attrs["model_config"] = bad
            del f.attrs["hikeras_model_config_sha256"]
    else:
        with zipfile.ZipFile(path) as z:
            members = {n: z.read(n) for n in z.namelist()}
        members["config.json"] = bad.encode()
        del members["metadata.json"]  # as if Keras wrote it: no config checksum
        with zipfile.ZipFile(path, "w") as z:
            for name, data in members.items():
                z.writestr(name, data)
    with pytest.raises(SavedFileError) as caught:
        hikeras.models.load_model(path)
    _assert_says(caught.value, [str(path), "layer 'a' (Dense)", "key 'colour'", "value 1"])


def test_from_config_and_deserialize_raise_config_errors():
    config = json.loads(_sequential_json())["config"]
    config["layers"][1]["config"]["units"] = [4]
    with pytest.raises(ConfigError) as caught:
        hikeras.Sequential.from_config(config)
    _assert_says(caught.value, ["layer 'a' (Dense)", "key 'units'", "[4]"])
    with pytest.raises(ConfigError) as caught:
        layers.deserialize({"class_name": "Conv2D", "config": {"name": "c", "filters": 2,
                                                               "kernel_size": "x"}})
    _assert_says(caught.value, ["layer 'c' (Conv2D)", "key 'kernel_size'", "'x'"])
    # Keras raises TypeError when from_config fails: both excepts catch a ConfigError.
    assert issubclass(ConfigError, TypeError) and issubclass(ConfigError, ValueError)


def test_a_layer_failing_in_build_is_named_not_the_model():
    config = json.loads(_sequential_json())
    config["config"]["layers"][2]["config"]["kernel_initializer"] = {
        "class_name": "Constant", "config": {"value": "text"}}
    with pytest.raises(SavedFileError) as caught:
        hikeras.models.model_from_json(json.dumps(config))
    _assert_says(caught.value, ["layer 'b' (Dense)"])


class _Forgetful(layers.Layer):
    """A layer whose `get_config` leaves out a required argument."""

    def __init__(self, size, **kwargs):
        super().__init__(**kwargs)
        self.size = size

    def call(self, x):
        return x

    def get_config(self):
        return {"name": self.name}


def test_clone_model_names_the_layer_and_the_missing_key():
    model = hikeras.Sequential([hikeras.Input((3,)), _Forgetful(3, name="forgetful")])
    with pytest.raises(ConfigError) as caught:
        hikeras.models.clone_model(model)
    _assert_says(caught.value, ["layer 'forgetful' (_Forgetful)", "key 'size' is missing"])
