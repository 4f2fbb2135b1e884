"""Writes keras_feature_space.json: a FeatureSpace adapted and run by Keras 3.

Not part of the test run. With TensorFlow installed:

    ~/.venvs/tf/bin/python tests/utils/keras_feature_space.py

A small tabular dict dataset goes through every kind of feature
(`float`, `float_normalized`, `float_rescaled`, `float_discretized`,
`integer_categorical`, `string_categorical`, `string_hashed`,
`integer_hashed`) and two crosses, in `"concat"` and `"dict"` modes. The JSON
holds the data, the encoded batch, an encoded single sample, the
vocabularies, the adapted statistics and the config. The tests import
`data`, `features` and `crosses` from here, so both sides declare the same.

It also saves the `"concat"` feature space with `FeatureSpace.save` to
keras_feature_space.keras, and loads a feature space that hikeras (imported
from this checkout) adapted and saved the same way: the JSON records the
`config.json` Keras accepted and what the reloaded space encoded.
"""

import json
import os
import sys
import tempfile
import zipfile

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))


def data():
    rng = np.random.default_rng(25)
    n = 40
    return {
        "age": rng.integers(18, 80, n).astype("float32"),
        "income": rng.normal(50.0, 20.0, n).round(2).astype("float32"),
        "score": rng.uniform(0.0, 10.0, n).round(3).astype("float32"),
        "hours": rng.uniform(0.0, 60.0, n).round(1).astype("float32"),
        "rooms": rng.choice([1, 2, 3, 4, 7], n).astype("int32"),
        "city": rng.choice(["paris", "oslo", "lima", "kyoto", "são paulo"], n),
        "tag": rng.choice(["a", "bb", "ccc", "dddd", "e", "ff"], n),
        "zip": rng.choice([75001, 1010, 15001, 6008, 99], n).astype("int32"),
    }


def features(FeatureSpace):
    return {
        "age": FeatureSpace.float_discretized(num_bins=4, name="age"),
        "income": FeatureSpace.float_normalized(name="income"),
        "score": FeatureSpace.float(name="score"),
        "hours": FeatureSpace.float_rescaled(scale=0.1, offset=-1.0, name="hours"),
        "rooms": FeatureSpace.integer_categorical(name="rooms"),
        "city": FeatureSpace.string_categorical(name="city"),
        "tag": FeatureSpace.string_hashed(num_bins=8, name="tag"),
        "zip": FeatureSpace.integer_hashed(num_bins=6, name="zip"),
    }


def crosses(FeatureSpace):
    return [FeatureSpace.cross(("city", "rooms"), crossing_dim=16),
            FeatureSpace.cross(("tag", "zip"), crossing_dim=5, output_mode="int")]


def _plain(x):
    return np.asarray(x).tolist()


def main():
    os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")
    os.environ.setdefault("CUDA_VISIBLE_DEVICES", "")
    os.environ.setdefault("KERAS_BACKEND", "tensorflow")
    import keras
    from keras.utils import FeatureSpace

    columns = data()
    concat = FeatureSpace(features(FeatureSpace), output_mode="concat",
                          crosses=crosses(FeatureSpace)[:1], name="space")
    concat.adapt(_dataset(columns))
    as_dict = FeatureSpace(
        {**features(FeatureSpace),
         "rooms": FeatureSpace.integer_categorical(output_mode="int", name="rooms")},
        output_mode="dict", crosses=crosses(FeatureSpace))
    as_dict.adapt(columns)
    batch = {k: v[:6] for k, v in columns.items()}
    sample = {k: v[7] for k, v in columns.items()}
    encoded = as_dict(batch)
    fixture = {
        "keras_version": keras.__version__,
        "data": {k: v.tolist() for k, v in columns.items()},
        "concat": _plain(concat(batch)),
        "concat_sample": _plain(concat(sample)),
        "dict": {k: _plain(v) for k, v in encoded.items()},
        "dict_sample": {k: _plain(v) for k, v in as_dict(sample).items()},
        "vocabularies": {k: concat.preprocessors[k].get_vocabulary() for k in ("rooms", "city")},
        "bin_boundaries": [float(b) for b in concat.preprocessors["age"].bin_boundaries],
        "mean": float(np.asarray(concat.preprocessors["income"].mean).ravel()[0]),
        "variance": float(np.asarray(concat.preprocessors["income"].variance).ravel()[0]),
        "concat_config": keras.saving.serialize_keras_object(concat),
        "encoded_shape": list(concat.get_encoded_features().shape),
        "input_names": sorted(concat.get_inputs()),
        "keras_reads_hikeras": _keras_reads_hikeras(keras, batch),
    }
    concat.save(os.path.join(HERE, "keras_feature_space.keras"))
    with open(os.path.join(HERE, "keras_feature_space.json"), "w", encoding="utf-8") as f:
        json.dump(fixture, f, ensure_ascii=False, indent=1, default=lambda o: o.item())
    print(f"wrote keras_feature_space.json with Keras {keras.__version__}")


def _keras_reads_hikeras(keras, batch):
    """Keras loads a feature space hikeras adapted and saved: its config and encoding."""
    sys.path.insert(0, REPO)
    from hikeras.utils import FeatureSpace

    space = FeatureSpace(features(FeatureSpace), output_mode="concat",
                         crosses=crosses(FeatureSpace)[:1], name="space")
    space.adapt(data())
    with tempfile.TemporaryDirectory() as directory:
        path = os.path.join(directory, "space.keras")
        space.save(path)
        with zipfile.ZipFile(path) as archive:
            config = json.loads(archive.read("config.json"))
        loaded = keras.saving.load_model(path)
    return {"config": config, "concat": _plain(loaded(batch))}


def _dataset(columns):
    import tensorflow as tf
    return tf.data.Dataset.from_tensor_slices(columns).batch(8)


if __name__ == "__main__":
    main()
