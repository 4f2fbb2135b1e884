"""Recurrent layers: LSTM/GRU/SimpleRNN outputs and states, stacking, Bidirectional, cells."""

import numpy as np

import hikeras as keras
from hikeras import layers


def main(small=False):
    keras.utils.set_random_seed(11)
    x = np.random.default_rng(11).standard_normal((4, 7, 3)).astype("float32")

    assert layers.LSTM(5)(x).shape == (4, 5)
    assert layers.GRU(5, return_sequences=True)(x).shape == (4, 7, 5)
    output, hidden, carry = layers.LSTM(5, return_state=True)(x)
    np.testing.assert_allclose(output, hidden)  # the last output is the hidden state
    assert carry.shape == (4, 5)

    # An encoder's final states start a decoder.
    encoder_in = keras.Input((None, 3))
    _, h, c = layers.LSTM(8, return_state=True)(encoder_in)
    decoder_in = keras.Input((None, 2))
    decoded = layers.LSTM(8, return_sequences=True)(decoder_in, initial_state=[h, c])
    seq2seq = keras.Model([encoder_in, decoder_in], layers.Dense(2)(decoded))
    assert seq2seq.predict([x, np.zeros((4, 5, 2), "float32")], verbose=0).shape == (4, 5, 2)

    # Bidirectional concatenates both directions; RNN runs any cell.
    assert layers.Bidirectional(layers.SimpleRNN(4))(x).shape == (4, 8)
    assert layers.RNN(layers.GRUCell(6))(x).shape == (4, 6)

    # Learn to sum a sequence.
    rng = np.random.default_rng(11)
    n = 128 if small else 2048
    seqs = rng.uniform(-1, 1, (n, 6, 1)).astype("float32")
    targets = seqs.sum(axis=1)
    model = keras.Sequential([keras.Input((6, 1)), layers.LSTM(16, return_sequences=True),
                              layers.LSTM(8), layers.Dense(1)])
    model.compile("adam", "mse")
    history = model.fit(seqs, targets, epochs=2 if small else 20, batch_size=32, verbose=0)
    assert history.history["loss"][-1] < history.history["loss"][0]
    return history.history["loss"][-1]


if __name__ == "__main__":
    print("final loss", main())
