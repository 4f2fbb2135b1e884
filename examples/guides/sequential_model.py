"""The Sequential model: a plain stack, built incrementally, inspected and reused.

Layers are added one by one, the model is summarised, a layer popped, and the
stack's intermediate outputs read back through a functional feature extractor.
"""

import numpy as np

import hikeras as keras
from hikeras import layers
from hikeras.datasets import digits


def main(small=False):
    keras.utils.set_random_seed(1)
    (x, y), _ = digits.load_data()
    x = x.reshape(len(x), 64).astype("float32") / 16.0
    if small:
        x, y = x[:300], y[:300]

    model = keras.Sequential(name="digits")
    model.add(keras.Input(shape=(64,)))
    model.add(layers.Dense(32, activation="relu", name="hidden_1"))
    model.add(layers.Dense(16, activation="relu", name="hidden_2"))
    model.add(layers.Dense(1, name="to_be_removed"))
    model.pop()  # layers can be removed from the top, too
    model.add(layers.Dense(10, activation="softmax", name="classes"))
    assert [layer.name for layer in model.layers] == ["hidden_1", "hidden_2", "classes"]
    model.summary(print_fn=lambda line, **kwargs: None)

    model.compile("adam", "sparse_categorical_crossentropy", metrics=["accuracy"])
    history = model.fit(x, y, epochs=3 if small else 20, batch_size=32, verbose=0)
    assert history.history["accuracy"][-1] > history.history["accuracy"][0]

    # Every layer's output, from one call.
    extractor = keras.Model(model.inputs, [layer.output for layer in model.layers])
    activations = extractor.predict(x[:4], verbose=0)
    assert [a.shape for a in activations] == [(4, 32), (4, 16), (4, 10)]
    np.testing.assert_allclose(activations[-1], model.predict(x[:4], verbose=0), rtol=1e-5)
    return history.history["accuracy"][-1]


if __name__ == "__main__":
    print("accuracy", main())
