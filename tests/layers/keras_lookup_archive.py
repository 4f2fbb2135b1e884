"""Writes keras_lookup_archive.keras and .npz: a Keras 3 model with adapted lookup layers.

Not part of the test run. With TensorFlow installed:

    ~/.venvs/tf/bin/python tests/layers/keras_lookup_archive.py

Keras keeps an adapted vocabulary out of the layer config: it writes it to
the archive's `assets/<layer path>/vocabulary.txt`, and `"tf_idf"` weights to
`<layer path>/vars/idf_weights` in `model.weights.h5`. The model has a
`StringLookup` with a mask token (whose vocabulary file starts with a blank
line), a `"tf_idf"` `IntegerLookup`, and a `Dense` layer (ordinary weights
next to them). The `.npz` holds fixed inputs and Keras's outputs.
"""

import os

import numpy as np

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")
os.environ.setdefault("CUDA_VISIBLE_DEVICES", "")
os.environ.setdefault("KERAS_BACKEND", "tensorflow")

HERE = os.path.dirname(os.path.abspath(__file__))


def main():
    import keras

    keras.utils.set_random_seed(5)
    words = keras.layers.StringLookup(mask_token="")
    words.adapt(np.array([["b", "a", "c", "a"], ["c", "", "b", "a"]]))
    ids = keras.layers.IntegerLookup(output_mode="tf_idf")
    ids.adapt(np.array([[3, 4, 4], [5, 3, 7]]))
    text_in = keras.Input((4,), dtype="string")
    id_in = keras.Input((3,), dtype="int64")
    scores = keras.layers.Dense(2)(ids(id_in))
    model = keras.Model([text_in, id_in], [words(text_in), scores])
    text = np.array([["a", "", "c", "zz"], ["b", "b", "a", "c"]])
    numbers = np.array([[3, 9, 4], [7, 7, 5]])
    outputs = model([text, numbers])
    model.save(os.path.join(HERE, "keras_lookup_archive.keras"))
    np.savez(os.path.join(HERE, "keras_lookup_archive.npz"), text=text, numbers=numbers,
             indices=np.asarray(outputs[0]), scores=np.asarray(outputs[1]),
             vocabulary=np.array(words.get_vocabulary()),
             keras_version=np.array(keras.__version__))
    print(f"wrote keras_lookup_archive.keras with Keras {keras.__version__}")


if __name__ == "__main__":
    main()
