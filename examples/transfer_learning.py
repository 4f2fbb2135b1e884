"""Transfer learning: reuse a CNN trained on digits 0-4 to classify digits 5-9.

1. Train a small convolutional base (Conv2D, BatchNormalization, pooling)
   with a classifier head on digits 0-4 of the shipped 8x8 digits set.
2. Freeze the base (`base.trainable = False`), nest it in a new model with a
   fresh head, and train that head on digits 5-9. A frozen
   BatchNormalization runs in inference mode, so the base's weights, moving
   mean and variance included, stay bit-identical.
3. Fine-tune: unfreeze the base's last convolution at a low learning rate,
   keeping its BatchNormalization layers frozen (in inference mode).

Runs offline in well under a minute:

    python examples/transfer_learning.py
"""

import numpy as np

import hikeras
from hikeras import layers
from hikeras.datasets import digits

SOURCE_DIGITS = (0, 1, 2, 3, 4)
TARGET_DIGITS = (5, 6, 7, 8, 9)


def load_task(task_digits):
    """Train/test images `(N, 8, 8, 1)` in [0, 1] and labels 0..4 for `task_digits`."""
    (x_train, y_train), (x_test, y_test) = digits.load_data()

    def select(x, y):
        keep = np.isin(y, task_digits)
        images = x[keep].reshape(-1, 8, 8, 1).astype("float32") / 16.0
        return images, (y[keep] - min(task_digits)).astype("int32")

    return select(x_train, y_train), select(x_test, y_test)


def build_base():
    """Two conv blocks -> a 32-feature vector per image."""
    inputs = hikeras.Input(shape=(8, 8, 1))
    x = layers.Conv2D(16, 3, padding="same", use_bias=False)(inputs)
    # momentum 0.9 rather than 0.99: this short run has only a few hundred steps
    # for the moving statistics to forget their initial values.
    x = layers.BatchNormalization(momentum=0.9)(x)
    x = layers.Activation("relu")(x)
    x = layers.MaxPooling2D(2)(x)
    x = layers.Conv2D(32, 3, padding="same", use_bias=False, name="top_conv")(x)
    x = layers.BatchNormalization(momentum=0.9, name="top_bn")(x)
    x = layers.Activation("relu")(x)
    outputs = layers.GlobalAveragePooling2D()(x)
    return hikeras.Model(inputs, outputs, name="base")


def with_head(base, name):
    """`base` nested in a new model with a fresh head (Dense-ReLU, then a 5-way softmax).

    Calling the base with `training=False` keeps its BatchNormalization in
    inference mode even when parts of it are unfrozen later.
    """
    inputs = hikeras.Input(shape=(8, 8, 1))
    features = base(inputs, training=False)
    hidden = layers.Dense(32, activation="relu")(features)
    hidden = layers.Dropout(0.2)(hidden)
    outputs = layers.Dense(len(TARGET_DIGITS), activation="softmax", name=name)(hidden)
    return hikeras.Model(inputs, outputs)


def train(model, data, epochs, learning_rate):
    (x_train, y_train), (x_test, y_test) = data
    model.compile(optimizer=hikeras.optimizers.Adam(learning_rate=learning_rate),
                  loss="sparse_categorical_crossentropy", metrics=["accuracy"])
    model.fit(x_train, y_train, batch_size=32, epochs=epochs, verbose=0)
    return model.evaluate(x_test, y_test, return_dict=True, verbose=0)["accuracy"]


def train_source(base, epochs=10):
    """Step 1: base + head trained end to end on digits 0-4 (BatchNorm in training mode)."""
    inputs = hikeras.Input(shape=(8, 8, 1))
    outputs = layers.Dense(len(SOURCE_DIGITS), activation="softmax")(base(inputs))
    return train(hikeras.Model(inputs, outputs), load_task(SOURCE_DIGITS), epochs, 3e-3)


def train_new_head(base, epochs=20):
    """Step 2: the frozen base under a new head, trained on digits 5-9."""
    base.trainable = False
    model = with_head(base, "new_head")
    return model, train(model, load_task(TARGET_DIGITS), epochs, 3e-3)


def fine_tune(model, base, epochs=5):
    """Step 3: unfreeze the top convolution (its BatchNorm stays frozen); low learning rate."""
    base.trainable = True
    for layer in base.layers:
        layer.trainable = layer.name == "top_conv"
    return train(model, load_task(TARGET_DIGITS), epochs, 3e-4)


def main():
    hikeras.utils.set_random_seed(0)
    base = build_base()
    source_accuracy = train_source(base)
    print(f"digits 0-4, base trained end to end: test accuracy {source_accuracy:.4f}")

    before = base.get_weights()
    model, transfer_accuracy = train_new_head(base)
    unchanged = all(np.array_equal(a, b) for a, b in zip(before, base.get_weights()))
    model.summary()
    print(f"digits 5-9, frozen base + new head: test accuracy {transfer_accuracy:.4f}")
    print(f"base weights (BatchNormalization moving statistics included) unchanged: "
          f"{unchanged}")

    fine_tuned_accuracy = fine_tune(model, base)
    print(f"digits 5-9, top convolution fine-tuned: test accuracy {fine_tuned_accuracy:.4f}")
    return {"source": source_accuracy, "transfer": transfer_accuracy,
            "fine_tuned": fine_tuned_accuracy, "base_unchanged": unchanged}


if __name__ == "__main__":
    main()
