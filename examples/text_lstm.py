"""Classify variable-length token sequences with Embedding(mask_zero=True) and an LSTM.

The task is generated here, so the example runs offline in seconds: a
sequence of tokens 1..29 (4 to 24 tokens) is positive when it contains the
two tokens 5 and 7 next to each other, in that order. Sequences are padded
with 0 to a common length; `Embedding(mask_zero=True)` marks the padding, and
the LSTM skips the masked steps, so its final state is the state after each
sequence's last real token, wherever the padding is.

    python examples/text_lstm.py
"""

import itertools

import numpy as np

import hikeras
from hikeras import layers
from hikeras.utils import pad_sequences

VOCAB, MAX_LEN, PATTERN = 30, 24, (5, 7)


def contains_pattern(tokens):
    return any(pair == PATTERN for pair in itertools.pairwise(tokens))


def make_dataset(count, rng):
    """`count` padded sequences, half of them containing the pattern; and their labels."""
    sequences, labels = [], []
    while len(sequences) < count:
        tokens = list(rng.integers(1, VOCAB, rng.integers(4, MAX_LEN + 1)))
        if len(sequences) % 2 == 0:                       # make a positive example
            at = rng.integers(0, len(tokens) - 1)
            tokens[at:at + 2] = PATTERN
        sequences.append(tokens)
        labels.append(float(contains_pattern(tokens)))
    return pad_sequences(sequences, maxlen=MAX_LEN, padding="post"), np.array(labels, "float32")


def build_model():
    return hikeras.Sequential([
        hikeras.Input(shape=(MAX_LEN,), dtype="int32"),
        layers.Embedding(VOCAB, 16, mask_zero=True),
        layers.LSTM(32),
        layers.Dense(1, activation="sigmoid"),
    ])


def main(train_size=3000, epochs=12, verbose="auto"):
    hikeras.utils.set_random_seed(7)
    rng = np.random.default_rng(7)
    x_train, y_train = make_dataset(train_size, rng)
    x_test, y_test = make_dataset(500, rng)

    model = build_model()
    model.compile(optimizer=hikeras.optimizers.Adam(0.01), loss="binary_crossentropy",
                  metrics=["accuracy"])
    model.summary()
    model.fit(x_train, y_train, batch_size=64, epochs=epochs, validation_split=0.1,
              verbose=verbose)
    results = model.evaluate(x_test, y_test, return_dict=True, verbose=0)
    print(f"test loss {results['loss']:.4f} - test accuracy {results['accuracy']:.4f}")

    # Padding changes nothing: called directly (outside a model), the LSTM
    # takes the mask explicitly and matches its output on the bare tokens.
    tokens = [3, 5, 7, 12]
    padded = pad_sequences([tokens], maxlen=MAX_LEN, padding="post")
    embedding, lstm = model.layers[0], model.layers[1]
    masked = lstm(embedding(padded), mask=embedding.compute_mask(padded))
    bare = lstm(embedding(np.array([tokens])))
    print(f"p(pattern in {tokens}) = {float(model.predict(padded, verbose=0)[0, 0]):.3f}; "
          f"padded vs bare LSTM output: max difference {np.abs(masked - bare).max():.1e}")
    return results["accuracy"]


if __name__ == "__main__":
    main()
