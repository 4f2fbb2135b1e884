"""Writes keras_hashing_fixtures.json: hash buckets recorded from Keras 3 on TensorFlow.

Not part of the test run. With TensorFlow installed:

    ~/.venvs/tf/bin/python tests/layers/keras_hashing_fixtures.py

Keras's `Hashing` uses TensorFlow's FarmHash Fingerprint64
(`tf.strings.to_hash_bucket_fast`) without a salt and SipHash-2-4
(`to_hash_bucket_strong`) with one; `HashedCrossing` uses
`tf.sparse.cross_hashed`. The strings cover every length branch of both
hashes (0 to 300 bytes), ASCII and multi-byte UTF-8. `num_bins=2**63 - 1`
keeps almost all of the 64-bit hash, so a wrong bit shows.
"""

import json
import os

import numpy as np

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")
os.environ.setdefault("CUDA_VISIBLE_DEVICES", "")
os.environ.setdefault("KERAS_BACKEND", "tensorflow")

HERE = os.path.dirname(os.path.abspath(__file__))
BIG = 2**63 - 1
ALPHABET = "abcxyzABC019 _-/é漢ü€😀"


def _strings():
    rng = np.random.default_rng(18)
    words = ["", "a", "ab", "abc", "abcd", "hello", "1", "-7", "0", "Keras", "é", "漢字", "😀"]
    for length in list(range(70)) + [95, 127, 128, 129, 130, 191, 192, 193, 255, 300]:
        words.append("".join(rng.choice(list(ALPHABET[:18]), size=length)))
        words.append("".join(rng.choice(list(ALPHABET), size=max(1, length // 2))))
    return words


def _layer_case(layer, inputs, **kwargs):
    from keras import layers
    out = getattr(layers, layer)(**kwargs)(inputs)
    return np.asarray(out).tolist()


def main():
    import keras
    import tensorflow as tf

    words = _strings()
    fast = {str(n): tf.strings.to_hash_bucket_fast(words, n).numpy().tolist()
            for n in (BIG, 1000, 7)}
    salts = [[0, 0], [1, 2], [123456789, 987654321], [2**62 + 5, 7]]
    strong = {json.dumps(s): tf.strings.to_hash_bucket_strong(words, BIG, s).numpy().tolist()
              for s in salts}
    ints = [0, 1, -1, 7, 42, -123456789, 2**40 + 3, -(2**63), 2**63 - 1]
    floats = [0.0, 1.7, -2.5, 3.0, 1e6]
    word_batch = [["a", "b", ""], ["hello", "", "漢字"]]
    layer_cases = [
        ("Hashing", ints, {"num_bins": BIG}),
        ("Hashing", ints, {"num_bins": 13}),
        ("Hashing", floats, {"num_bins": 101}),
        ("Hashing", [[1, 0, 5], [0, 9, 2]], {"num_bins": 5, "mask_value": 0}),
        ("Hashing", word_batch, {"num_bins": 11, "mask_value": ""}),
        ("Hashing", word_batch, {"num_bins": 17, "salt": 133}),
        ("Hashing", word_batch, {"num_bins": 17, "salt": [3, 4]}),
        ("Hashing", ints, {"num_bins": 97, "salt": [5, 6]}),
        ("Hashing", word_batch, {"num_bins": 6, "output_mode": "multi_hot"}),
        ("Hashing", word_batch, {"num_bins": 6, "output_mode": "count"}),
        ("Hashing", ["a", "b", "c", "d"], {"num_bins": 5, "output_mode": "one_hot"}),
        ("Hashing", [["a"], ["b"], ["c"]], {"num_bins": 5, "output_mode": "one_hot"}),
        ("Hashing", [[1, 2], [3, 4]], {"num_bins": 4, "output_mode": "count",
                                       "mask_value": 2}),
    ]
    layers_out = [{"layer": name, "inputs": inputs, "kwargs": kwargs,
                   "outputs": _layer_case(name, np.array(inputs), **kwargs),
                   "config": getattr(keras.layers, name)(**kwargs).get_config()}
                  for name, inputs, kwargs in layer_cases]
    crossing_inputs = [
        (["A", "B", "A", "B", "A"], [101, 101, 101, 102, 102]),
        (words[:40], list(range(-20, 20))),
        (words[:30], words[30:60]),
        ([0, -1, 2**40, -(2**63), 2**63 - 1], [5, 6, 7, 8, 9]),
    ]
    crossings = []
    for first, second in crossing_inputs:
        for kwargs in ({"num_bins": BIG}, {"num_bins": 10},
                       {"num_bins": 5, "output_mode": "one_hot"}):
            out = keras.layers.HashedCrossing(**kwargs)((np.array(first), np.array(second)))
            crossings.append({"inputs": [first, second], "kwargs": kwargs,
                              "outputs": np.asarray(out).tolist()})
    three = (["x", "y", "z"], [1, 2, 3], ["p", "q", "r"])
    out = keras.layers.HashedCrossing(num_bins=BIG)(tuple(np.array(x) for x in three))
    crossings.append({"inputs": list(three), "kwargs": {"num_bins": BIG},
                      "outputs": np.asarray(out).tolist()})
    out = keras.layers.HashedCrossing(num_bins=7)((np.array([["u"], ["v"]]),
                                                    np.array([[3], [4]])))
    crossings.append({"inputs": [[["u"], ["v"]], [[3], [4]]], "kwargs": {"num_bins": 7},
                      "outputs": np.asarray(out).tolist()})
    fixture = {"keras_version": keras.__version__, "tensorflow_version": tf.__version__,
               "strings": words, "fast": fast, "strong": strong,
               "layers": layers_out, "crossings": crossings,
               "crossing_config": keras.layers.HashedCrossing(num_bins=4).get_config()}
    with open(os.path.join(HERE, "keras_hashing_fixtures.json"), "w", encoding="utf-8") as f:
        json.dump(fixture, f, ensure_ascii=False, indent=0)
    print(f"wrote keras_hashing_fixtures.json with Keras {keras.__version__}")


if __name__ == "__main__":
    main()
