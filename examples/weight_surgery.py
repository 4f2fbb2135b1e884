"""Weight surgery: reuse a trained backbone and cut a classifier head down to 2 classes.

1. Train a small classifier with an 81-way head (think of a detector's 80
   classes plus background) on the shipped 8x8 digits, and save it to `.keras`.
2. Load it, build a new model with the same backbone and a 2-way head, copy
   the backbone's weights over with `get_weights`/`set_weights`, and slice
   the head: `kernel[..., :2]`, `bias[:2]` keep the first two output channels.
3. The new model's logits are exactly the first two of the old model's; it
   separates digits 0 and 1 without any further training. Save it, reload it,
   and check the reloaded model predicts the same.

Runs offline in a few seconds:

    python examples/weight_surgery.py
"""

import os
import sys
import tempfile

import numpy as np

import hikeras
from hikeras import layers
from hikeras.datasets import digits


def build(num_classes):
    """Backbone (`features`) plus a linear head (`classifier`) with `num_classes` logits."""
    inputs = hikeras.Input((64,))
    h = layers.Dense(32, activation="relu", name="features")(inputs)
    return hikeras.Model(inputs, layers.Dense(num_classes, name="classifier")(h))


def load_digits():
    (x_train, y_train), (x_test, y_test) = digits.load_data()
    prepare = lambda x: x.reshape(len(x), 64).astype("float32") / 16.0
    return (prepare(x_train), y_train.astype("int32")), (prepare(x_test), y_test.astype("int32"))


def main(workdir, epochs=20):
    hikeras.utils.set_random_seed(0)
    (x_train, y_train), (x_test, y_test) = load_digits()

    # 1. A "pretrained" model with 81 output channels (only 10 are ever the label).
    pretrained = build(81)
    pretrained.compile(optimizer=hikeras.optimizers.Adam(0.01),
                       loss=hikeras.losses.SparseCategoricalCrossentropy(from_logits=True))
    pretrained.fit(x_train, y_train, epochs=epochs, batch_size=64, verbose=0)
    pretrained_path = os.path.join(workdir, "pretrained.keras")
    pretrained.save(pretrained_path)

    # 2. Surgery on the reloaded model.
    old = hikeras.models.load_model(pretrained_path)
    new = build(2)
    new.get_layer("features").set_weights(old.get_layer("features").get_weights())
    kernel, bias = old.get_layer("classifier").get_weights()
    head = new.get_layer("classifier")
    head.kernel.assign(kernel[..., :2])
    head.bias.assign(bias[:2])

    # 3. Same logits for the kept channels; a working 0-vs-1 classifier; save (as `.h5`
    #    this time, which tf.keras loads too) and reload.
    keep = np.isin(y_test, (0, 1))
    x01, y01 = x_test[keep], y_test[keep]
    new_logits = new.predict(x01, verbose=0)
    max_diff = float(np.max(np.abs(new_logits - old.predict(x01, verbose=0)[:, :2])))
    accuracy = float(np.mean(np.argmax(new_logits, axis=1) == y01))
    surgery_path = os.path.join(workdir, "two_classes.h5")
    new.save(surgery_path)
    reloaded = hikeras.models.load_model(surgery_path)
    reload_diff = float(np.max(np.abs(reloaded.predict(x01, verbose=0) - new_logits)))
    print(f"kept-channel logits differ by {max_diff:.2e}; 0-vs-1 accuracy {accuracy:.3f}; "
          f"reloaded model differs by {reload_diff:.2e}")
    return {"max_diff": max_diff, "accuracy": accuracy, "reload_diff": reload_diff}


if __name__ == "__main__":
    with tempfile.TemporaryDirectory() as directory:
        result = main(directory)
    sys.exit(0 if result["accuracy"] > 0.9 else 1)
