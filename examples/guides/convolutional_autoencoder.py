"""A convolutional autoencoder: Conv2D down, Conv2DTranspose up, on the digits images."""

import hikeras as keras
from hikeras import layers
from hikeras.datasets import digits


def main(small=False):
    keras.utils.set_random_seed(23)
    (x, _), _ = digits.load_data()
    x = x.reshape(len(x), 8, 8, 1).astype("float32") / 16.0
    if small:
        x = x[:256]
    inputs = keras.Input((8, 8, 1))
    encoded = layers.Conv2D(8, 3, strides=2, padding="same", activation="relu")(inputs)
    encoded = layers.Conv2D(4, 3, strides=2, padding="same", activation="relu")(encoded)
    decoded = layers.Conv2DTranspose(8, 3, strides=2, padding="same", activation="relu")(encoded)
    decoded = layers.Conv2DTranspose(1, 3, strides=2, padding="same",
                                     activation="sigmoid")(decoded)
    autoencoder = keras.Model(inputs, decoded)
    assert autoencoder.predict(x[:2], verbose=0).shape == (2, 8, 8, 1)
    assert keras.Model(inputs, encoded).predict(x[:2], verbose=0).shape == (2, 2, 2, 4)
    autoencoder.compile("adam", "binary_crossentropy")
    history = autoencoder.fit(x, x, epochs=2 if small else 20, batch_size=32, verbose=0)
    assert history.history["loss"][-1] < history.history["loss"][0]
    return history.history["loss"][-1]


if __name__ == "__main__":
    print("final loss", main())
