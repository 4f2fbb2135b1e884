"""The functional API: multiple inputs and outputs, shared layers, reusing a graph.

A ticket-triage model reads a title and a body (two inputs), predicts a priority
(regression) and a department (classification), and shares one embedding between
both texts. Then a feature extractor is cut out of the trained graph.
"""

import numpy as np

import hikeras as keras
from hikeras import layers


def main(small=False):
    keras.utils.set_random_seed(0)
    n, vocab, length = (64 if small else 512), 100, 12
    rng = np.random.default_rng(0)
    titles = rng.integers(1, vocab, (n, length))
    bodies = rng.integers(1, vocab, (n, 3 * length))
    priority = rng.random((n, 1)).astype("float32")
    department = rng.integers(0, 4, n)

    title_in = keras.Input(shape=(length,), name="title")
    body_in = keras.Input(shape=(3 * length,), name="body")
    embed = layers.Embedding(vocab, 16, name="shared_embedding")  # one layer, two calls
    title_vec = layers.GlobalAveragePooling1D()(embed(title_in))
    body_vec = layers.GlobalAveragePooling1D()(embed(body_in))
    features = layers.Concatenate(name="features")([title_vec, body_vec])
    hidden = layers.Dense(32, activation="relu")(features)
    outputs = {"priority": layers.Dense(1, name="priority")(hidden),
               "department": layers.Dense(4, activation="softmax", name="department")(hidden)}
    model = keras.Model(inputs={"title": title_in, "body": body_in}, outputs=outputs)

    model.compile(optimizer="adam",
                  loss={"priority": "mse", "department": "sparse_categorical_crossentropy"},
                  loss_weights={"priority": 1.0, "department": 0.5},
                  metrics={"department": ["accuracy"]})
    history = model.fit({"title": titles, "body": bodies},
                        {"priority": priority, "department": department},
                        epochs=2 if small else 10, batch_size=16, verbose=0)
    assert history.history["loss"][-1] < history.history["loss"][0]

    # The shared layer appears once, with one set of weights.
    assert len(model.get_layer("shared_embedding").weights) == 1
    # Any intermediate tensor of the graph can become a new model's output.
    extractor = keras.Model(model.inputs, model.get_layer("features").output)
    feats = extractor.predict({"title": titles[:5], "body": bodies[:5]}, verbose=0)
    assert feats.shape == (5, 32)
    return history.history


if __name__ == "__main__":
    main()
