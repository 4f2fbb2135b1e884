"""Custom loss and metric functions, written with `hikeras.ops`, on a segmentation task.

A tiny fully-convolutional network labels each pixel of 8x8 two-channel
images with one of 3 classes. The loss is a custom Dice + crossentropy
function; the metric is a per-image macro F1 score computed with
`ops.argmax`, `ops.cast` and `ops.sum` (not differentiable: fine for a
metric, and hikeras would refuse it as a loss at the first step). The model
is saved (the file names the two functions, and `save()` warns that loading
will need them) and reloaded with `custom_objects`.

Run: python examples/custom_loss_and_metric.py
"""

import os
import tempfile

import numpy as np

import hikeras
from hikeras import layers, ops

NUM_CLASSES = 3


def dice_crossentropy(y_true, y_pred):
    """`1 - soft Dice` per image plus the mean pixel crossentropy (differentiable)."""
    intersection = ops.sum(y_true * y_pred, axis=(1, 2, 3))
    total = ops.sum(y_true + y_pred, axis=(1, 2, 3))
    dice = 1.0 - 2.0 * intersection / ops.maximum(total, 1e-7)
    pixel_ce = hikeras.losses.categorical_crossentropy(y_true, y_pred)  # (batch, H, W)
    return dice + ops.mean(pixel_ce, axis=(1, 2))


def f1score(y_true, y_pred):
    """Macro F1 over classes, one value per image of shape (H, W, classes)."""
    predicted = ops.one_hot(ops.argmax(y_pred, axis=-1), NUM_CLASSES)
    y_true = ops.cast(y_true, "float32")
    tp = ops.sum(predicted * y_true, axis=(1, 2))
    fp = ops.sum(predicted * (1.0 - y_true), axis=(1, 2))
    fn = ops.sum((1.0 - predicted) * y_true, axis=(1, 2))
    return ops.mean(2.0 * tp / ops.maximum(2.0 * tp + fp + fn, 1e-7), axis=-1)


def make_data(n, rng):
    """Pixels are labelled by which of the two channels is larger, or 'neither'."""
    x = rng.normal(size=(n, 8, 8, 2)).astype("float32")
    labels = np.where(np.abs(x[..., 0] - x[..., 1]) < 0.5, 2, np.argmax(x, axis=-1))
    return x, np.eye(NUM_CLASSES, dtype="float32")[labels]


def build_model():
    inputs = hikeras.Input((8, 8, 2))
    h = layers.Conv2D(16, 1, activation="relu")(inputs)
    outputs = layers.Conv2D(NUM_CLASSES, 1, activation="softmax")(h)
    return hikeras.Model(inputs, outputs)


def main(epochs=15):
    hikeras.utils.set_random_seed(0)
    rng = np.random.default_rng(0)
    x_train, y_train = make_data(256, rng)
    x_test, y_test = make_data(64, rng)
    model = build_model()
    model.compile(optimizer=hikeras.optimizers.Adam(0.02), loss=dice_crossentropy,
                  metrics=[f1score, "accuracy"])
    model.fit(x_train, y_train, batch_size=32, epochs=epochs, verbose=0)
    logs = model.evaluate(x_test, y_test, verbose=0, return_dict=True)
    print(f"test loss {logs['loss']:.4f}  f1score {logs['f1score']:.4f}  "
          f"accuracy {logs['accuracy']:.4f}")

    custom = {"dice_crossentropy": dice_crossentropy, "f1score": f1score}
    path = os.path.join(tempfile.mkdtemp(), "segmenter.h5")
    model.save(path)  # warns: loading needs custom_objects={'dice_crossentropy': ..., ...}
    reloaded = hikeras.models.load_model(path, custom_objects=custom)
    again = reloaded.evaluate(x_test, y_test, verbose=0, return_dict=True)
    print(f"reloaded f1score {again['f1score']:.4f}")
    return logs["f1score"]


if __name__ == "__main__":
    main()
