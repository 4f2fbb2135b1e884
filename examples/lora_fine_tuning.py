"""LoRA fine-tuning: adapt a pretrained model by training a small low-rank update.

An MLP is pretrained on the shipped 8x8 digits 0-4 (its output layer already
has ten units). Then LoRA is enabled on its two hidden layers: their kernels
freeze, and only two rank-4 factors per layer, the biases and the output layer
train on digits 5-9, a fraction of the parameters. The fine-tuned model is
saved; the file holds merged kernels, so a model built without LoRA loads it
and predicts the same.

Runs offline in a few seconds:

    python examples/lora_fine_tuning.py
"""

import os
import sys
import tempfile

import numpy as np

import hikeras
from hikeras import layers
from hikeras.datasets import digits


def build():
    inputs = hikeras.Input((64,))
    h = layers.Dense(128, activation="relu", name="hidden_1")(inputs)
    h = layers.Dense(128, activation="relu", name="hidden_2")(h)
    return hikeras.Model(inputs, layers.Dense(10, name="output")(h))


def compile_and_fit(model, x, y, epochs):
    model.compile(optimizer=hikeras.optimizers.Adam(0.01), metrics=["accuracy"],
                  loss=hikeras.losses.SparseCategoricalCrossentropy(from_logits=True))
    model.fit(x, y, epochs=epochs, batch_size=64, verbose=0)


def main(epochs=15):
    (x_train, y_train), (x_test, y_test) = digits.load_data()
    x_train = x_train.reshape(-1, 64).astype("float32") / 16.0
    x_test = x_test.reshape(-1, 64).astype("float32") / 16.0
    old, new = y_train < 5, y_train >= 5
    hikeras.utils.set_random_seed(0)
    model = build()
    compile_and_fit(model, x_train[old], y_train[old], epochs)

    for name in ("hidden_1", "hidden_2"):
        model.get_layer(name).enable_lora(4)
    trainable = sum(int(np.prod(v.shape)) for v in model.trainable_variables)
    print(f"trainable parameters with LoRA: {trainable} of {model.count_params()}")
    compile_and_fit(model, x_train[new], y_train[new], epochs)
    test_new = y_test >= 5
    accuracy = model.evaluate(x_test[test_new], y_test[test_new], verbose=0)[1]
    print(f"test accuracy on digits 5-9 after LoRA fine-tuning: {accuracy:.3f}")

    path = os.path.join(tempfile.mkdtemp(), "fine_tuned.weights.h5")
    model.save_weights(path)
    plain = build()  # no LoRA: the file's merged kernels are ordinary kernels
    plain.load_weights(path)
    gap = float(np.max(np.abs(plain.predict(x_test, verbose=0)
                              - model.predict(x_test, verbose=0))))
    print(f"largest difference, reloaded without LoRA: {gap:.2e}")
    return {"accuracy": float(accuracy), "trainable": trainable,
            "total": int(model.count_params()), "gap": gap}


if __name__ == "__main__":
    result = main()
    sys.exit(0 if result["accuracy"] > 0.8 else 1)
