"""Fighting overfitting: weight regularizers, dropout, and what they add to the loss."""

import numpy as np

import hikeras as keras
from hikeras import layers


def main(small=False):
    keras.utils.set_random_seed(25)
    dense = layers.Dense(2, kernel_initializer="ones", kernel_regularizer=keras.regularizers.L2(0.1))
    dense(np.ones((1, 3), "float32"))
    assert np.isclose(float(sum(dense.losses)), 0.1 * 6)  # 0.1 * sum(w ** 2) over 3x2 ones

    dropout = layers.Dropout(0.5)
    ones = np.ones((1000, 10), "float32")
    np.testing.assert_array_equal(dropout(ones, training=False), ones)
    dropped = np.asarray(dropout(ones, training=True))
    assert 0.4 < (dropped == 0).mean() < 0.6 and set(np.unique(dropped)) <= {0.0, 2.0}

    rng = np.random.default_rng(25)
    n = 64 if small else 256
    x = rng.standard_normal((n, 20)).astype("float32")
    y = (x[:, 0] > 0).astype("float32")
    model = keras.Sequential([
        keras.Input((20,)),
        layers.Dense(64, activation="relu", kernel_regularizer="l2"),
        layers.Dropout(0.3),
        layers.Dense(1, activation="sigmoid", kernel_regularizer=keras.regularizers.L1(1e-3)),
    ])
    model.compile("adam", "binary_crossentropy")
    history = model.fit(x, y, epochs=3 if small else 30, validation_split=0.25, verbose=0)
    # The reported loss includes the penalties; evaluate on the data without them is lower.
    penalties = float(sum(model.losses))
    assert penalties > 0
    return history.history["loss"][-1], penalties


if __name__ == "__main__":
    print(main())
