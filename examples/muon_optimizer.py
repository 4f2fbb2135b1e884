"""Training with Muon: orthogonalised steps for the hidden matrices, AdamW for the rest.

An MLP on the shipped 8x8 digits, trained once with `Muon` and once with
`AdamW` at the same learning rate and weight decay. Muon updates the hidden
layers' kernels (2-D matrices) with momentum steps orthogonalised by
Newton-Schulz iterations; the biases and the output layer (excluded by name,
as Keras advises) take AdamW steps. The optimizer's variables show which
rule each weight got: a `velocity` slot only for AdamW weights.

Runs offline in a few seconds:

    python examples/muon_optimizer.py
"""

import sys

import hikeras
from hikeras import layers
from hikeras.datasets import digits


def build():
    inputs = hikeras.Input((64,))
    h = layers.Dense(64, activation="relu", name="hidden_1")(inputs)
    h = layers.Dense(64, activation="relu", name="hidden_2")(h)
    return hikeras.Model(inputs, layers.Dense(10, name="output")(h))


def train(optimizer, data, epochs):
    (x_train, y_train), (x_test, y_test) = data
    hikeras.utils.set_random_seed(0)
    model = build()
    model.compile(optimizer=optimizer, metrics=["accuracy"],
                  loss=hikeras.losses.SparseCategoricalCrossentropy(from_logits=True))
    model.fit(x_train, y_train, epochs=epochs, batch_size=64, verbose=0)
    return model, model.evaluate(x_test, y_test, verbose=0)[1]


def main(epochs=10):
    (x_train, y_train), (x_test, y_test) = digits.load_data()
    data = ((x_train.reshape(-1, 64).astype("float32") / 16.0, y_train),
            (x_test.reshape(-1, 64).astype("float32") / 16.0, y_test))
    muon = hikeras.optimizers.Muon(learning_rate=0.01, exclude_layers=["output"])
    _, muon_accuracy = train(muon, data, epochs)
    slots = [v.name for v in muon.variables if v.name.endswith("velocity")]
    print("AdamW-updated (have a velocity):", ", ".join(s[:-len("_velocity")] for s in slots))
    _, adamw_accuracy = train(hikeras.optimizers.AdamW(learning_rate=0.01), data, epochs)
    print(f"test accuracy after {epochs} epochs: Muon {muon_accuracy:.3f}, "
          f"AdamW {adamw_accuracy:.3f}")
    return {"muon": float(muon_accuracy), "adamw": float(adamw_accuracy),
            "adamw_updated": slots}


if __name__ == "__main__":
    result = main()
    sys.exit(0 if result["muon"] > 0.9 else 1)
