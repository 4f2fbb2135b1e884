"""Text classification from raw strings: TextVectorization inside the model."""

import numpy as np

import hikeras as keras
from hikeras import layers

POSITIVE = ["great", "lovely", "wonderful", "fun", "excellent"]
NEGATIVE = ["awful", "boring", "dreadful", "dull", "terrible"]
FILLER = ["the", "film", "was", "really", "quite", "a", "story", "plot"]


def reviews(rng, n):
    texts, labels = [], []
    for _ in range(n):
        label = int(rng.integers(0, 2))
        words = list(rng.choice(FILLER, 5)) + [rng.choice(POSITIVE if label else NEGATIVE)]
        rng.shuffle(words)
        texts.append(" ".join(words))
        labels.append(label)
    return np.array(texts), np.array(labels, "float32")


def main(small=False):
    keras.utils.set_random_seed(21)
    rng = np.random.default_rng(21)
    texts, labels = reviews(rng, 200 if small else 2000)
    vectorize = layers.TextVectorization(max_tokens=50, output_sequence_length=8)
    vectorize.adapt(texts)

    inputs = keras.Input((1,), dtype="string")
    tokens = vectorize(inputs)
    x = layers.Embedding(50, 8, mask_zero=True)(tokens)
    x = layers.GlobalAveragePooling1D()(x)
    outputs = layers.Dense(1, activation="sigmoid")(x)
    model = keras.Model(inputs, outputs)
    model.compile(keras.optimizers.Adam(0.02), "binary_crossentropy", metrics=["accuracy"])
    history = model.fit(texts[:, None], labels, epochs=8 if small else 10, batch_size=32,
                        verbose=0)
    assert history.history["accuracy"][-1] > 0.8
    probability = model.predict(np.array([["a wonderful film"], ["a dreadful plot"]]),
                                verbose=0)
    assert probability[0, 0] > probability[1, 0]
    return history.history["accuracy"][-1]


if __name__ == "__main__":
    print("accuracy", main())
