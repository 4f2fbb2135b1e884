"""Masking and padding: variable-length sequences padded to one length, the padding masked.

`pad_sequences` pads, `Embedding(mask_zero=True)` makes the mask, and the LSTM
skips the masked steps: a sequence gives the same output whatever padding follows.
"""

import numpy as np

import hikeras as keras
from hikeras import layers


def main(small=False):
    keras.utils.set_random_seed(10)
    raw = [[7, 3, 9], [4, 2], [5, 8, 1, 6, 2]]
    padded = keras.utils.pad_sequences(raw, padding="post")
    assert padded.shape == (3, 5) and padded[1].tolist() == [4, 2, 0, 0, 0]

    embedding = layers.Embedding(input_dim=10, output_dim=4, mask_zero=True)
    mask = embedding.compute_mask(padded)
    assert np.asarray(mask)[1].tolist() == [True, True, False, False, False]

    inputs = keras.Input((None,), dtype="int32")
    outputs = layers.LSTM(6)(layers.Embedding(10, 4, mask_zero=True)(inputs))
    model = keras.Model(inputs, outputs)
    short = model.predict(np.array([[4, 2, 0, 0, 0]]), verbose=0)
    longer_padding = model.predict(np.array([[4, 2, 0, 0, 0, 0, 0, 0]]), verbose=0)
    np.testing.assert_allclose(short, longer_padding, rtol=1e-5)

    # Masking marks time steps whose features all equal the mask value.
    series = np.zeros((2, 4, 3), "float32")
    series[0, :2] = 1.0
    masked = layers.Masking(mask_value=0.0)
    assert np.asarray(masked.compute_mask(series)).tolist() == [
        [True, True, False, False], [False, False, False, False]]

    # A whole model trains on padded batches.
    rng = np.random.default_rng(10)
    n = 64 if small else 512
    lengths = rng.integers(1, 6, n)
    sequences = [rng.integers(1, 10, k).tolist() for k in lengths]
    labels = (lengths > 3).astype("float32")
    x = keras.utils.pad_sequences(sequences, maxlen=6, padding="post")
    classifier = keras.Sequential([keras.Input((6,), dtype="int32"),
                                   layers.Embedding(10, 8, mask_zero=True), layers.GRU(8),
                                   layers.Dense(1, activation="sigmoid")])
    classifier.compile("adam", "binary_crossentropy", metrics=["accuracy"])
    history = classifier.fit(x, labels, epochs=2 if small else 15, verbose=0)
    return history.history["accuracy"][-1]


if __name__ == "__main__":
    print("accuracy", main())
