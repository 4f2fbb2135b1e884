"""Train a digit classifier on the 8x8 handwritten-digits set shipped with hikeras.

Runs offline in a few seconds:

    python examples/quickstart.py
"""

import hikeras
from hikeras import layers
from hikeras.datasets import digits


def main():
    hikeras.utils.set_random_seed(42)
    (x_train, y_train), (x_test, y_test) = digits.load_data()
    # 8x8 images with values 0..16 -> 64 features in [0, 1].
    x_train = x_train.reshape(len(x_train), 64).astype("float32") / 16.0
    x_test = x_test.reshape(len(x_test), 64).astype("float32") / 16.0

    model = hikeras.Sequential([
        hikeras.Input(shape=(64,)),
        layers.Dense(128, activation="relu"),
        layers.Dropout(0.2),
        layers.Dense(10, activation="softmax"),
    ])
    model.compile(optimizer="adam", loss="sparse_categorical_crossentropy",
                  metrics=["accuracy"])
    model.summary()

    model.fit(x_train, y_train, batch_size=32, epochs=30, validation_split=0.1)
    results = model.evaluate(x_test, y_test, return_dict=True, verbose=0)
    print(f"test loss {results['loss']:.4f} - test accuracy {results['accuracy']:.4f}")
    predictions = model.predict(x_test[:5], verbose=0).argmax(axis=1)
    print(f"first predictions {predictions.tolist()} - labels {y_test[:5].tolist()}")
    return results["accuracy"]


if __name__ == "__main__":
    main()
