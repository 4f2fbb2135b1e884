"""Custom operations, graph functions and stateless calls (Keras 3's graph API).

An `Operation` written with `hikeras.ops` runs on arrays and inside functional
models; a `Function` replays part of a model's graph (here: its encoder, from
an intermediate tensor to another); a `StatelessScope` evaluates the model
with candidate weights without touching its own; `name_scope` groups weight
paths.
"""

import numpy as np

import hikeras as keras
from hikeras import layers, ops


class SoftClip(keras.Operation):
    """`limit * tanh(x / limit)`: close to `x` for small values, bounded by `limit`."""

    def __init__(self, limit=3.0, name=None):
        super().__init__(name=name)
        self.limit = limit

    def call(self, x):
        return ops.multiply(self.limit, ops.tanh(ops.divide(x, self.limit)))


def main(small=False):
    keras.utils.set_random_seed(5)
    samples = 64 if small else 512
    rng = np.random.default_rng(5)
    x = rng.normal(size=(samples, 6)).astype("float32")
    y = (x[:, :3].sum(axis=1, keepdims=True) > 0).astype("float32")

    # The operation works on arrays...
    clip = SoftClip(limit=2.0)
    assert np.all(np.abs(clip(np.array([-50.0, 0.1, 50.0], "float32"))) <= 2.0)

    # ...and in a functional model, like a layer.
    with keras.name_scope("classifier"):
        inputs = keras.Input((6,))
        hidden = layers.Dense(8, activation="relu", name="hidden")(inputs)
        code = SoftClip(limit=2.0)(layers.Dense(4, name="code")(hidden))
        outputs = layers.Dense(1, activation="sigmoid", name="head")(code)
        model = keras.Model(inputs, outputs)
    assert model.get_layer("hidden").kernel.path == "classifier/hidden/kernel"
    model.compile(optimizer="adam", loss="binary_crossentropy", metrics=["accuracy"])
    model.fit(x, y, epochs=2 if small else 20, batch_size=32, verbose=0)

    # A Function from the hidden features to the bounded code: part of the graph, replayed.
    encoder_tail = keras.Function(hidden, code)
    features = model.get_layer("hidden")(x[:5])
    codes = encoder_tail(features)
    assert codes.shape == (5, 4) and np.all(np.abs(codes) <= 2.0)

    # Evaluate with other weights (all zeros) inside a StatelessScope: the model keeps its own.
    before = [w.copy() for w in model.get_weights()]
    zeros = [(v, np.zeros(v.shape, v.dtype)) for v in model.weights]
    with keras.StatelessScope(state_mapping=zeros):
        blank = model(x[:3])
    np.testing.assert_allclose(blank, 0.5)  # sigmoid(0)
    for now, then in zip(model.get_weights(), before):
        np.testing.assert_array_equal(now, then)
    print(f"codes of the first sample: {np.round(codes[0], 3).tolist()}")


if __name__ == "__main__":
    main()
