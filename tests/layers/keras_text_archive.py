"""Writes keras_text_archive.keras and .npz: a Keras 3 model with adapted TextVectorization.

Not part of the test run. With TensorFlow installed:

    ~/.venvs/tf/bin/python tests/layers/keras_text_archive.py

As for the lookup layers (`keras_lookup_archive.py`), Keras writes an adapted
`TextVectorization` vocabulary to the archive's `assets/<layer path>/
vocabulary.txt`, outside the config, and `"tf_idf"` weights to
`model.weights.h5`. The model has an `"int"` layer (padded to a fixed
length) feeding an `Embedding`, and a `"tf_idf"` layer with bigrams feeding
a `Dense`. The `.npz` holds fixed inputs, Keras's outputs and vocabularies.
"""

import os

import numpy as np

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")
os.environ.setdefault("CUDA_VISIBLE_DEVICES", "")
os.environ.setdefault("KERAS_BACKEND", "tensorflow")

HERE = os.path.dirname(os.path.abspath(__file__))
CORPUS = ["The cat sat.", "The dog sat on the cat!", "A bird, a cat", "Dogs & cats"]


def main():
    import keras

    keras.utils.set_random_seed(7)
    sequences = keras.layers.TextVectorization(max_tokens=8, output_sequence_length=5)
    sequences.adapt(CORPUS)
    scores = keras.layers.TextVectorization(output_mode="tf_idf", ngrams=2)
    scores.adapt(CORPUS)
    text = keras.Input((1,), dtype="string")
    pooled = keras.layers.GlobalAveragePooling1D()(keras.layers.Embedding(8, 3)(sequences(text)))
    model = keras.Model(text, [pooled, keras.layers.Dense(2)(scores(text))])
    data = np.array([["the cat, the DOG"], ["a fish sat"], [""]])
    outputs = model(data)
    model.save(os.path.join(HERE, "keras_text_archive.keras"))
    np.savez(os.path.join(HERE, "keras_text_archive.npz"), text=data,
             pooled=np.asarray(outputs[0]), scores=np.asarray(outputs[1]),
             sequences_vocabulary=np.array(sequences.get_vocabulary()),
             scores_vocabulary=np.array(scores.get_vocabulary()),
             keras_version=np.array(keras.__version__))
    print(f"wrote keras_text_archive.keras with Keras {keras.__version__}")


if __name__ == "__main__":
    main()
