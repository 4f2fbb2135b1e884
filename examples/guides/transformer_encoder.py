"""A transformer encoder block from MultiHeadAttention, LayerNormalization and Dense layers."""

import numpy as np

import hikeras as keras
from hikeras import layers


class EncoderBlock(keras.Layer):
    def __init__(self, dim, heads, hidden, **kwargs):
        super().__init__(**kwargs)
        self.attention = layers.MultiHeadAttention(num_heads=heads, key_dim=dim // heads)
        self.feed_forward = keras.Sequential([layers.Dense(hidden, activation="relu"),
                                              layers.Dense(dim)])
        self.norm_1 = layers.LayerNormalization()
        self.norm_2 = layers.LayerNormalization()

    def call(self, x):
        x = self.norm_1(x + self.attention(x, x))
        return self.norm_2(x + self.feed_forward(x))


def main(small=False):
    keras.utils.set_random_seed(24)
    rng = np.random.default_rng(24)
    n, length, vocab = (128 if small else 1024), 8, 20
    tokens = rng.integers(1, vocab, (n, length))
    labels = (tokens == 7).any(axis=1).astype("float32")  # does token 7 occur?

    inputs = keras.Input((length,), dtype="int32")
    x = layers.Embedding(vocab, 16)(inputs)
    x = EncoderBlock(16, heads=2, hidden=32)(x)
    outputs = layers.Dense(1, activation="sigmoid")(layers.GlobalAveragePooling1D()(x))
    model = keras.Model(inputs, outputs)
    model.compile(keras.optimizers.Adam(3e-3), "binary_crossentropy", metrics=["accuracy"])
    history = model.fit(tokens, labels, epochs=2 if small else 15, batch_size=32, verbose=0)
    assert history.history["loss"][-1] < history.history["loss"][0]
    attention = model.layers[2].attention
    _, scores = attention(np.ones((1, 3, 16), "float32"), np.ones((1, 3, 16), "float32"),
                          return_attention_scores=True)
    assert scores.shape == (1, 2, 3, 3)
    np.testing.assert_allclose(np.asarray(scores).sum(axis=-1), 1.0, rtol=1e-5)
    return history.history["accuracy"][-1]


if __name__ == "__main__":
    print("accuracy", main())
