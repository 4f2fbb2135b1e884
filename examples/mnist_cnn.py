"""A small convolutional network on the 8x8 handwritten digits shipped with hikeras.

The MNIST-style CNN recipe (convolutions, max pooling, dropout, a dense
head), scaled to the 8x8 images so that it runs offline in a few seconds:

    python examples/mnist_cnn.py
"""

import hikeras
from hikeras import layers
from hikeras.datasets import digits


def build_model():
    return hikeras.Sequential([
        hikeras.Input(shape=(8, 8, 1)),
        layers.Conv2D(16, 3, padding="same", activation="relu"),
        layers.Conv2D(32, 3, padding="same", activation="relu"),
        layers.MaxPooling2D(2),                      # 8x8 -> 4x4
        layers.Conv2D(64, 3, padding="same", activation="relu"),
        layers.MaxPooling2D(2),                      # 4x4 -> 2x2
        layers.Flatten(),
        layers.Dropout(0.25),
        layers.Dense(64, activation="relu"),
        layers.Dense(10),
    ])


def main(epochs=10):
    hikeras.utils.set_random_seed(7)
    (x_train, y_train), (x_test, y_test) = digits.load_data()
    # (n, 8, 8) counts in 0..16 -> (n, 8, 8, 1) images in [0, 1], channels last.
    x_train = x_train.reshape(-1, 8, 8, 1).astype("float32") / 16.0
    x_test = x_test.reshape(-1, 8, 8, 1).astype("float32") / 16.0

    model = build_model()
    model.compile(optimizer=hikeras.optimizers.Adam(3e-3),
                  loss=hikeras.losses.SparseCategoricalCrossentropy(from_logits=True),
                  metrics=["accuracy"])
    model.summary()
    model.fit(x_train, y_train, batch_size=64, epochs=epochs, validation_split=0.1)

    results = model.evaluate(x_test, y_test, return_dict=True, verbose=0)
    print(f"test loss {results['loss']:.4f} - test accuracy {results['accuracy']:.4f}")
    predictions = model.predict(x_test[:8], verbose=0).argmax(axis=1)
    print(f"first predictions {predictions.tolist()} - labels {y_test[:8].tolist()}")
    return results["accuracy"]


if __name__ == "__main__":
    main()
