"""FeatureSpace against Keras 3.15.1: the encodings of `keras_feature_space.json`.

`keras_feature_space.py` (next to this file) adapted the same feature spaces
in Keras on the same columns and recorded the encoded batch, a single
encoded sample, the adapted state and the config; it also saved the concat
space with `FeatureSpace.save` (keras_feature_space.keras) and recorded what
Keras loaded from a feature space that hikeras saved.
"""

import json
import zipfile
from pathlib import Path

import numpy as np
import pytest

import hikeras
from hikeras.data import Dataset
from hikeras.utils import FeatureSpace
from tests.utils import keras_feature_space as spec  # the generator's declarations

FIXTURE = json.loads((Path(__file__).parent / "keras_feature_space.json")
                     .read_text(encoding="utf-8"))
COLUMNS = spec.data()


def _batch(stop=6):
    return {k: v[:stop] for k, v in COLUMNS.items()}


def _sample(i=7):
    return {k: v[i] for k, v in COLUMNS.items()}


def concat_space():
    space = FeatureSpace(spec.features(FeatureSpace), output_mode="concat",
                         crosses=spec.crosses(FeatureSpace)[:1], name="space")
    space.adapt(Dataset.from_tensor_slices(COLUMNS).batch(8))
    return space


def dict_space():
    features = {**spec.features(FeatureSpace),
                "rooms": FeatureSpace.integer_categorical(output_mode="int", name="rooms")}
    space = FeatureSpace(features, output_mode="dict", crosses=spec.crosses(FeatureSpace))
    space.adapt(COLUMNS)
    return space


def test_the_fixture_data_is_the_generators():
    for key, values in FIXTURE["data"].items():
        np.testing.assert_array_equal(COLUMNS[key], np.array(values, dtype=COLUMNS[key].dtype))


def test_concat_mode_matches_keras():
    space = concat_space()
    got = space(_batch())
    assert got.shape == (6, 49) and got.dtype == np.float32
    np.testing.assert_allclose(got, FIXTURE["concat"], rtol=1e-6, atol=1e-6)
    np.testing.assert_allclose(space(_sample()), FIXTURE["concat_sample"], rtol=1e-6, atol=1e-6)


def test_adapted_state_matches_keras():
    space = concat_space()
    for key, vocabulary in FIXTURE["vocabularies"].items():
        assert space.preprocessors[key].get_vocabulary() == vocabulary
    assert space.preprocessors["age"].bin_boundaries == FIXTURE["bin_boundaries"]
    income = space.preprocessors["income"]
    np.testing.assert_allclose(income.adapt_mean.numpy(), [FIXTURE["mean"]], rtol=1e-6)
    np.testing.assert_allclose(income.adapt_variance.numpy(), [FIXTURE["variance"]], rtol=1e-5)


def test_dict_mode_matches_keras():
    space = dict_space()
    got = space(_batch())
    assert list(got) == list(FIXTURE["dict"])  # sorted features, then sorted crosses
    for key, want in FIXTURE["dict"].items():
        np.testing.assert_allclose(got[key], want, rtol=1e-6, atol=1e-6, err_msg=key)
    single = space(_sample())
    for key, want in FIXTURE["dict_sample"].items():
        np.testing.assert_allclose(single[key], want, rtol=1e-6, atol=1e-6, err_msg=key)
    assert got["rooms"].dtype == np.int64 and got["tag_X_zip"].dtype == np.int64


def test_adapting_on_single_samples_learns_the_same_vocabulary():
    space = FeatureSpace({"city": "string_categorical", "rooms": "integer_categorical"})
    space.adapt(Dataset.from_tensor_slices({k: COLUMNS[k] for k in ("city", "rooms")}))
    assert space.preprocessors["city"].get_vocabulary() == FIXTURE["vocabularies"]["city"]
    assert space.preprocessors["rooms"].get_vocabulary() == FIXTURE["vocabularies"]["rooms"]


def test_symbolic_inputs_and_encoded_features():
    space = concat_space()
    inputs = space.get_inputs()
    assert sorted(inputs) == FIXTURE["input_names"]
    assert all(tuple(t.shape) == (None, 1) for t in inputs.values())
    assert inputs["city"].dtype == object and inputs["rooms"].dtype == np.int32
    assert list(space.get_encoded_features().shape) == FIXTURE["encoded_shape"]


def test_config_has_keras_keys_and_round_trips():
    space = concat_space()
    config = space.get_config()
    keras_config = FIXTURE["concat_config"]["config"]
    assert sorted(config) == sorted(keras_config)
    assert sorted(config["features"]) == sorted(keras_config["features"])
    rebuilt = FeatureSpace.from_config(config)
    assert rebuilt.get_config() == config
    from_keras = FeatureSpace.from_config(keras_config)  # Keras's dialect, module hints and all
    assert from_keras.features["age"].preprocessor.bin_boundaries == FIXTURE["bin_boundaries"]
    assert [c.name for c in from_keras.crosses] == ["city_X_rooms"]


def test_a_model_on_raw_features_trains_saves_and_loads(tmp_path):
    space = concat_space()
    hidden = hikeras.layers.Dense(4, activation="relu")(space.get_encoded_features())
    outputs = hikeras.layers.Dense(1, activation="sigmoid")(hidden)
    model = hikeras.Model(space.get_inputs(), outputs)
    model.compile("adam", "binary_crossentropy")
    columns = {k: v[:, None] for k, v in COLUMNS.items()}
    labels = (COLUMNS["income"] > 50).astype("float32")
    model.fit(columns, labels, epochs=1, batch_size=8, verbose=0)
    want = model.predict(columns, verbose=0)
    path = tmp_path / "model.keras"
    model.save(path)
    loaded = hikeras.models.load_model(path)
    np.testing.assert_allclose(loaded.predict(columns, verbose=0), want, rtol=1e-6)
    with zipfile.ZipFile(path) as archive:  # what Keras reads: its modules, "string" inputs
        written = json.loads(archive.read("config.json"))["config"]["layers"]
    modules = {layer["class_name"]: layer["module"] for layer in written}
    assert modules["TFDConcat"] == "keras.src.layers.preprocessing.feature_space"
    assert modules["TFDIdentity"] == "keras.src.layers.preprocessing.feature_space"
    assert modules["HashedCrossing"] == modules["Hashing"] == "keras.layers"
    city = next(layer for layer in written if layer["name"] == "city_preprocessor")
    assert city["inbound_nodes"][0]["args"][0]["config"]["dtype"] == "string"


def test_preprocessors_with_given_state_are_not_adapted():
    text = hikeras.layers.TextVectorization(vocabulary=["red", "blue"], output_mode="count")
    fixed = hikeras.layers.Normalization(mean=1.0, variance=4.0)
    learned = hikeras.layers.TextVectorization(output_mode="count")
    space = FeatureSpace({"a": FeatureSpace.feature("string", text, "float"),
                          "b": FeatureSpace.feature("float32", fixed, "float"),
                          "c": FeatureSpace.feature("string", learned, "float")})
    space.adapt({"a": np.array(["green green"]), "b": np.array([9.0]),
                 "c": np.array(["green green"])})
    assert text.get_vocabulary() == ["[UNK]", "red", "blue"]
    assert learned.get_vocabulary() == ["[UNK]", "green"]
    out = space({"a": np.array(["red green"]), "b": np.array([3.0]), "c": np.array(["green"])})
    # a: counts of [UNK], red, blue; b: (3 - 1) / sqrt(4); c: counts of [UNK], green
    np.testing.assert_allclose(out, [[1, 1, 0, 1.0, 0, 1]])


def test_one_hot_integer_features_and_a_custom_feature():
    space = FeatureSpace({
        "n": FeatureSpace.feature("float32", hikeras.layers.Rescaling(2.0), "float"),
        "k": FeatureSpace.integer_hashed(num_bins=3, output_mode="int"),
    }, output_mode="dict")
    out = space({"n": np.array([1.0, 2.0]), "k": np.array([5, 6])})
    np.testing.assert_allclose(out["n"], [[2.0], [4.0]])
    np.testing.assert_array_equal(out["k"], hikeras.layers.Hashing(3)(np.array([[5], [6]])))


@pytest.mark.parametrize("make, match", [
    (lambda: FeatureSpace({}), r"non-empty dict.*Received: features=\{\}"),
    (lambda: FeatureSpace({"a": "float"}, output_mode="list"), r"Received: output_mode='list'"),
    (lambda: FeatureSpace({"a": "floaty"}), r"'a'.*Received: 'floaty'"),
    (lambda: FeatureSpace({"a": "float"}, crosses=[("a", "b")]),
     r"unknown features \['b'\]"),
    (lambda: FeatureSpace.cross(("a", "b"), 4, output_mode="multi_hot"),
     r"Received: output_mode='multi_hot'"),
    (lambda: FeatureSpace.feature("float32", hikeras.layers.Rescaling(1.0), "dense"),
     r"Received: output_mode='dense'"),
])
def test_bad_declarations_are_refused(make, match):
    with pytest.raises(ValueError, match=match):
        make()


def test_bad_use_is_refused():
    space = FeatureSpace({"c": "string_categorical"})
    with pytest.raises(ValueError, match=r"call `.adapt\(dataset\)`"):
        space({"c": np.array(["x"])})
    with pytest.raises(ValueError, match=r"Dataset or a dict.*Received: list"):
        space.adapt([1, 2])
    with pytest.raises(ValueError, match=r"dicts of features.*Received: an element of type"):
        space.adapt(Dataset.from_tensor_slices(np.arange(3)))
    space.adapt({"c": np.array(["x", "y"])})
    with pytest.raises(ValueError, match=r"dict of features.*Received: data of type ndarray"):
        space(np.array(["x"]))
    with pytest.raises(ValueError, match=r"no value for features \['c'\]"):
        space({"d": np.array(["x"])})
    with pytest.raises(ValueError, match=r"writes a '.keras' file.*space.h5"):
        space.save("space.h5")


def test_a_feature_space_keras_saved_loads_and_encodes_as_keras():
    loaded = hikeras.saving.load_model(Path(__file__).parent / "keras_feature_space.keras")
    assert isinstance(loaded, FeatureSpace)
    np.testing.assert_allclose(loaded(_batch()), FIXTURE["concat"], rtol=1e-6, atol=1e-6)
    np.testing.assert_allclose(loaded(_sample()), FIXTURE["concat_sample"], rtol=1e-6,
                               atol=1e-6)
    assert loaded.preprocessors["city"].get_vocabulary() == FIXTURE["vocabularies"]["city"]


def test_save_and_load_round_trip_the_adapted_state(tmp_path):
    space = concat_space()
    space.save(tmp_path / "space.keras")
    loaded = hikeras.saving.load_model(tmp_path / "space.keras")
    assert isinstance(loaded, FeatureSpace) and loaded.output_mode == "concat"
    np.testing.assert_array_equal(loaded(_batch(40)), space(_batch(40)))
    np.testing.assert_allclose(loaded.preprocessors["income"].adapt_mean.numpy(),
                               [FIXTURE["mean"]], rtol=1e-6)
    dict_mode = dict_space()
    dict_mode.save(tmp_path / "dict.keras")
    again = hikeras.saving.load_model(tmp_path / "dict.keras")
    for key, value in dict_mode(_batch()).items():
        np.testing.assert_array_equal(again(_batch())[key], value)


def test_keras_loaded_the_file_hikeras_saves_today(tmp_path):
    # keras_feature_space.py had Keras 3.15.1 load a feature space hikeras saved, and
    # recorded that file's config and Keras's encoding of it: the same config still
    # comes out, so Keras still loads it, and encodes as hikeras does.
    space = concat_space()
    space.save(tmp_path / "space.keras")
    with zipfile.ZipFile(tmp_path / "space.keras") as archive:
        config = json.loads(archive.read("config.json"))
    assert config == FIXTURE["keras_reads_hikeras"]["config"]
    np.testing.assert_allclose(space(_batch()), FIXTURE["keras_reads_hikeras"]["concat"],
                               rtol=1e-6, atol=1e-6)


def test_unencodable_features_are_refused_when_the_encoding_is_built():
    floats = FeatureSpace({"x": FeatureSpace.feature("float32", hikeras.layers.Rescaling(1.0),
                                                     "one_hot")})
    with pytest.raises(ValueError, match=r"'x'.*should return integers.*Received: dtype float32"):
        floats.get_encoded_features()
    ints = FeatureSpace({"k": FeatureSpace.integer_hashed(num_bins=3, output_mode="int")})
    with pytest.raises(ValueError, match=r"Cannot concatenate.*'k'.*int64.*output_mode='dict'"):
        ints.get_encoded_features()


def test_keras_two_model_pattern_training_on_encoded_data():
    # keras.io's recipe: train on feature_space(x), then serve raw dicts through
    # Model(get_inputs(), outputs), which shares the trained layers.
    space = concat_space()
    encoded = space.get_encoded_features()
    outputs = hikeras.layers.Dense(1, activation="sigmoid")(encoded)
    training_model = hikeras.Model(encoded, outputs)
    training_model.compile("adam", "binary_crossentropy")
    labels = (COLUMNS["income"] > 50).astype("float32")
    training_model.fit(space(COLUMNS), labels, epochs=2, batch_size=8, verbose=0)
    inference_model = hikeras.Model(space.get_inputs(), outputs)
    columns = {k: v[:, None] for k, v in COLUMNS.items()}
    np.testing.assert_allclose(inference_model.predict(columns, verbose=0),
                               training_model.predict(space(COLUMNS), verbose=0), rtol=1e-6)


def test_mapping_a_labelled_dataset_through_the_feature_space():
    # Keras's recipe: ds.map(lambda x, y: (feature_space(x), y)) feeds a model.
    space = concat_space()
    labels = (COLUMNS["income"] > 50).astype("float32")
    ds = Dataset.from_tensor_slices((COLUMNS, labels)).batch(16).map(
        lambda x, y: (space(x), y), num_parallel_calls=2)
    batches = list(ds)
    assert [b[0].shape for b in batches] == [(16, 49), (16, 49), (8, 49)]
    np.testing.assert_allclose(batches[0][0][:6], FIXTURE["concat"], rtol=1e-6, atol=1e-6)
