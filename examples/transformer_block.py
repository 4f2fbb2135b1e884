"""A tiny transformer encoder classifying synthetic token sequences.

Each sequence holds random filler tokens plus one marker `A` and one marker
`B` at random positions; the label says whether `A` comes before `B`. Token
counts carry no information, so the model has to relate two positions:
token + position embeddings, one self-attention block (MultiHeadAttention,
residual connections, LayerNormalization, a feed-forward network), global
average pooling and a softmax classifier. Chance is 50%.

Runs offline in well under a minute:

    python examples/transformer_block.py
"""

import numpy as np

import hikeras
from hikeras import layers, ops

VOCAB_SIZE = 16
SEQUENCE_LENGTH = 12
MARKER_A, MARKER_B = 1, 2  # filler tokens are 3 .. VOCAB_SIZE - 1


def make_sequences(count, rng):
    """`count` sequences and labels (1 when marker A precedes marker B)."""
    tokens = rng.integers(3, VOCAB_SIZE, size=(count, SEQUENCE_LENGTH))
    for row in tokens:
        a, b = rng.choice(SEQUENCE_LENGTH, size=2, replace=False)
        row[a], row[b] = MARKER_A, MARKER_B
    labels = (np.argmax(tokens == MARKER_A, axis=1)
              < np.argmax(tokens == MARKER_B, axis=1)).astype("int32")
    return tokens.astype("int32"), labels


class TokenAndPositionEmbedding(layers.Layer):
    """The sum of a token embedding and a learned embedding of each position."""

    def __init__(self, sequence_length, vocab_size, embed_dim, **kwargs):
        super().__init__(**kwargs)
        self.sequence_length = sequence_length
        self.vocab_size = vocab_size
        self.embed_dim = embed_dim
        self.token_embedding = layers.Embedding(vocab_size, embed_dim)
        self.position_embedding = layers.Embedding(sequence_length, embed_dim)

    def call(self, tokens):
        positions = np.arange(self.sequence_length)
        return ops.add(self.token_embedding(tokens), self.position_embedding(positions))

    def get_config(self):
        config = super().get_config()
        config.update({"sequence_length": self.sequence_length,
                       "vocab_size": self.vocab_size, "embed_dim": self.embed_dim})
        return config


def transformer_block(x, embed_dim, num_heads, ff_dim, rate=0.1):
    """Self-attention and a feed-forward network, each with a residual and a norm."""
    attended = layers.MultiHeadAttention(num_heads=num_heads,
                                         key_dim=embed_dim // num_heads)(x, x)
    attended = layers.Dropout(rate)(attended)
    x = layers.LayerNormalization(epsilon=1e-6)(layers.Add()([x, attended]))
    hidden = layers.Dense(ff_dim, activation="relu")(x)
    hidden = layers.Dropout(rate)(layers.Dense(embed_dim)(hidden))
    return layers.LayerNormalization(epsilon=1e-6)(layers.Add()([x, hidden]))


def build_model(embed_dim=32, num_heads=2, ff_dim=64):
    tokens = hikeras.Input(shape=(SEQUENCE_LENGTH,), dtype="int32")
    x = TokenAndPositionEmbedding(SEQUENCE_LENGTH, VOCAB_SIZE, embed_dim)(tokens)
    x = transformer_block(x, embed_dim, num_heads, ff_dim)
    x = layers.GlobalAveragePooling1D()(x)
    x = layers.Dense(32, activation="relu")(x)
    outputs = layers.Dense(2, activation="softmax")(x)
    return hikeras.Model(tokens, outputs, name="tiny_transformer")


def main(epochs=8):
    hikeras.utils.set_random_seed(0)
    rng = np.random.default_rng(0)
    x_train, y_train = make_sequences(4000, rng)
    x_test, y_test = make_sequences(1000, rng)

    model = build_model()
    model.compile(optimizer=hikeras.optimizers.Adam(learning_rate=3e-3),
                  loss="sparse_categorical_crossentropy", metrics=["accuracy"])
    model.summary()
    model.fit(x_train, y_train, batch_size=64, epochs=epochs, validation_split=0.1)
    results = model.evaluate(x_test, y_test, return_dict=True, verbose=0)
    print(f"test loss {results['loss']:.4f} - test accuracy {results['accuracy']:.4f} "
          "(chance: 0.5)")
    return results["accuracy"]


if __name__ == "__main__":
    main()
