"""Image classification from scratch: augmentation and rescaling inside a small CNN."""

import hikeras as keras
from hikeras import layers
from hikeras.datasets import digits


def main(small=False):
    keras.utils.set_random_seed(28)
    (x, y), (x_test, y_test) = digits.load_data()
    x = x.reshape(len(x), 8, 8, 1).astype("float32")
    x_test = x_test.reshape(len(x_test), 8, 8, 1).astype("float32")
    if small:
        x, y = x[:400], y[:400]

    model = keras.Sequential([
        keras.Input((8, 8, 1)),
        layers.RandomTranslation(0.1, 0.1),  # augmentation: active in fit only
        layers.RandomZoom(0.1),
        layers.Rescaling(1.0 / 16.0),
        layers.Conv2D(16, 3, padding="same", activation="relu"),
        layers.MaxPooling2D(),
        layers.Conv2D(32, 3, padding="same", activation="relu"),
        layers.GlobalAveragePooling2D(),
        layers.Dropout(0.2),
        layers.Dense(10, activation="softmax"),
    ])
    model.compile("adam", "sparse_categorical_crossentropy", metrics=["accuracy"])
    history = model.fit(x, y, epochs=3 if small else 30, batch_size=32, verbose=0,
                        validation_data=(x_test, y_test))
    assert history.history["accuracy"][-1] > history.history["accuracy"][0]
    accuracy = model.evaluate(x_test, y_test, verbose=0, return_dict=True)["accuracy"]
    if not small:
        assert accuracy > 0.9
    return accuracy


if __name__ == "__main__":
    print("test accuracy", main())
