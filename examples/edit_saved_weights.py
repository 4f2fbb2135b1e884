"""Adapting a saved weights file to a changed model with `KerasFileEditor`, file to file.

1. Train a 10-digit classifier on the shipped 8x8 digits and save its weights
   (`digits.weights.h5`, Keras 3's layout).
2. The architecture changes: the head now has 2 outputs (digit 0 or 1). Without
   rebuilding the old model, open the file with the editor, look at it
   (`summary`), drop the optimizer's state, and replace the head's weights by
   their first two output channels.
3. `compare` checks the edited file against the new model, `save` writes it
   (atomically), and `load_weights` reads it: the new model's logits are the
   old model's first two, so it separates 0s from 1s with no training.

Runs offline in a few seconds:

    python examples/edit_saved_weights.py
"""

import os
import sys
import tempfile

import numpy as np

import hikeras
from hikeras import layers
from hikeras.datasets import digits
from hikeras.saving import KerasFileEditor


def build(num_classes):
    inputs = hikeras.Input((64,))
    h = layers.Dense(32, activation="relu")(inputs)
    return hikeras.Model(inputs, layers.Dense(num_classes)(h))


def main(workdir, epochs=20):
    hikeras.utils.set_random_seed(0)
    (x_train, y_train), (x_test, y_test) = digits.load_data()
    x_train = x_train.reshape(len(x_train), 64).astype("float32") / 16.0
    x_test = x_test.reshape(len(x_test), 64).astype("float32") / 16.0

    # 1. The old model, trained and saved.
    old = build(10)
    old.compile(optimizer="adam",
                loss=hikeras.losses.SparseCategoricalCrossentropy(from_logits=True))
    old.fit(x_train, y_train, epochs=epochs, batch_size=64, verbose=0)
    old_path = os.path.join(workdir, "digits.weights.h5")
    old.save_weights(old_path)

    # 2. Edit the file: the head is `layers/dense_1` (Keras's structural key).
    editor = KerasFileEditor(old_path)
    editor.summary()
    editor.delete_object("optimizer")
    head = editor.weights_dict["layers"]["dense_1"]
    kernel, bias = head["0"][:, :2], head["1"][:2]
    editor.delete_object("layers/dense_1")
    editor.add_object("layers/dense_1", {"0": kernel, "1": bias})

    # 3. Check, save, load.
    new = build(2)
    report = editor.compare(new)
    new_path = os.path.join(workdir, "zero_or_one.weights.h5")
    editor.save(new_path)
    new.load_weights(new_path)
    keep = np.isin(y_test, (0, 1))
    logits = new.predict(x_test[keep], verbose=0)
    max_diff = float(np.max(np.abs(logits - old.predict(x_test[keep], verbose=0)[:, :2])))
    accuracy = float(np.mean(np.argmax(logits, axis=1) == y_test[keep]))
    print(f"compare: {report['status']}; kept logits differ by {max_diff:.2e}; "
          f"0-vs-1 accuracy {accuracy:.3f}")
    return {"status": report["status"], "max_diff": max_diff, "accuracy": accuracy}


if __name__ == "__main__":
    with tempfile.TemporaryDirectory() as directory:
        result = main(directory)
    sys.exit(0 if result["accuracy"] > 0.9 else 1)
