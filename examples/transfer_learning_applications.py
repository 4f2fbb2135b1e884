"""Transfer learning with a Keras application: MobileNetV2 as a frozen base for digits.

The recipe of Keras's transfer-learning guide, offline:

1. Build `hikeras.applications.MobileNetV2(include_top=False)`: with
   `weights=None` by default, or with a weights file given on the command line
   (Keras's published `mobilenet_v2_weights_tf_dim_ordering_tf_kernels_0.35_96_no_top.h5`,
   or any `.h5`/`.weights.h5` of the same architecture), or `imagenet` to take
   Keras's file from the Keras cache (see docs/applications.md).
2. Freeze the base (`base.trainable = False`, called with `training=False`, so
   its BatchNormalization runs in inference mode), add a new head and train it
   on the digits that ship with hikeras, upsampled from 8x8 to the network's
   minimum input size (32x32) and repeated over 3 channels.
3. Unfreeze the top blocks (their BatchNormalization layers stay frozen),
   recompile with a low learning rate and fine-tune.
4. Save the model to a `.keras` file and reload it: same predictions.

    python examples/transfer_learning_applications.py
    python examples/transfer_learning_applications.py --weights ~/.keras/models/\
mobilenet_v2_weights_tf_dim_ordering_tf_kernels_0.35_96_no_top.h5
"""

import argparse
import os
import tempfile

import numpy as np

import hikeras
from hikeras import layers
from hikeras.applications import mobilenet_v2
from hikeras.datasets import digits

SIZE = 32  # MobileNetV2's minimum input size
ALPHA = 0.35
TOP_BLOCKS = ("block_15_", "block_16_", "Conv_1")  # unfrozen for fine-tuning


def load_digits(size=SIZE, limit=None):
    """Train/test digits as `(N, size, size, 3)` pixels in [0, 255], labels 0..9."""
    (x_train, y_train), (x_test, y_test) = digits.load_data()

    def prepare(x, y):
        x, y = x[:limit], y[:limit]
        scale = size // x.shape[1]
        x = x.repeat(scale, axis=1).repeat(scale, axis=2).astype("float32") * (255.0 / 16.0)
        return np.repeat(x[..., None], 3, axis=-1), y.astype("int32")

    return prepare(x_train, y_train), prepare(x_test, y_test)


def build_model(weights=None):
    """Preprocessing, the MobileNetV2 base (frozen) and a new 10-way head."""
    base = hikeras.applications.MobileNetV2(weights=weights, alpha=ALPHA, include_top=False,
                                            input_shape=(SIZE, SIZE, 3))
    base.trainable = False
    inputs = hikeras.Input(shape=(SIZE, SIZE, 3))
    x = mobilenet_v2.preprocess_input(inputs)  # [0, 255] -> [-1, 1]
    x = base(x, training=False)  # BatchNormalization stays in inference mode
    x = layers.GlobalAveragePooling2D(name="head_pool")(x)
    x = layers.Dropout(0.2, name="head_dropout")(x)
    outputs = layers.Dense(10, activation="softmax", name="head")(x)
    return hikeras.Model(inputs, outputs, name="digits_mobilenetv2"), base


def train(model, data, epochs, learning_rate, batch_size=32):
    (x_train, y_train), (x_test, y_test) = data
    model.compile(optimizer=hikeras.optimizers.Adam(learning_rate=learning_rate),
                  loss="sparse_categorical_crossentropy", metrics=["accuracy"])
    model.fit(x_train, y_train, batch_size=batch_size, epochs=epochs, verbose=0)
    return model.evaluate(x_test, y_test, return_dict=True, verbose=0)["accuracy"]


def unfreeze_top(base, prefixes=TOP_BLOCKS):
    """Makes the base's top blocks trainable, except their BatchNormalization layers."""
    base.trainable = True
    for layer in base.layers:
        top = layer.name.startswith(prefixes)
        layer.trainable = top and not isinstance(layer, layers.BatchNormalization)
    return [layer.name for layer in base.layers if layer.trainable and layer.weights]


def save_and_reload(model, directory):
    path = os.path.join(directory, "digits_mobilenetv2.keras")
    model.save(path)
    return hikeras.models.load_model(path)


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--weights", default=None,
                        help="a weights file for MobileNetV2(alpha=0.35, include_top=False), "
                             "or 'imagenet' (from the Keras cache); default: random")
    parser.add_argument("--epochs", type=int, default=3)
    parser.add_argument("--fine-tune-epochs", type=int, default=2)
    parser.add_argument("--limit", type=int, default=None, help="use only this many images")
    args = parser.parse_args(argv)

    hikeras.utils.set_random_seed(0)
    data = load_digits(limit=args.limit)
    model, base = build_model(args.weights)
    frozen = [w.value.copy() for w in base.weights]
    accuracy = train(model, data, args.epochs, learning_rate=1e-3)
    assert all(np.array_equal(a, w.value) for a, w in zip(frozen, base.weights))
    print(f"new head on the frozen base: test accuracy {accuracy:.3f}")

    unfrozen = unfreeze_top(base)
    accuracy = train(model, data, args.fine_tune_epochs, learning_rate=1e-5)
    print(f"fine-tuned {len(unfrozen)} layers ({unfrozen[0]} ... {unfrozen[-1]}): "
          f"test accuracy {accuracy:.3f}")

    x_test = data[1][0]
    with tempfile.TemporaryDirectory() as directory:
        reloaded = save_and_reload(model, directory)
    np.testing.assert_allclose(reloaded.predict(x_test[:8], verbose=0),
                               model.predict(x_test[:8], verbose=0), rtol=1e-5, atol=1e-6)
    print("saved and reloaded: same predictions")
    return model


if __name__ == "__main__":
    main()
