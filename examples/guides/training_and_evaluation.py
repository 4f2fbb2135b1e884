"""Training and evaluation with the built-in methods.

compile/fit/evaluate/predict with validation data, several metrics, class
weights to rebalance a skewed label set, sample weights, and a learning-rate
schedule.
"""

import numpy as np

import hikeras as keras
from hikeras import layers


def main(small=False):
    keras.utils.set_random_seed(4)
    rng = np.random.default_rng(4)
    n = 400 if small else 4000
    x = rng.standard_normal((n, 10)).astype("float32")
    y = (x[:, 0] + 0.5 * x[:, 1] > 1.0).astype("float32")  # about 1 in 5 positive
    (x_train, y_train), (x_val, y_val) = (x[: n * 3 // 4], y[: n * 3 // 4]), \
        (x[n * 3 // 4:], y[n * 3 // 4:])

    schedule = keras.optimizers.schedules.ExponentialDecay(0.01, decay_steps=50,
                                                           decay_rate=0.9)
    model = keras.Sequential([keras.Input((10,)), layers.Dense(16, activation="relu"),
                              layers.Dense(1, activation="sigmoid")])
    model.compile(optimizer=keras.optimizers.Adam(schedule), loss="binary_crossentropy",
                  metrics=["accuracy", keras.metrics.AUC(name="auc"),
                           keras.metrics.Recall(name="recall")])
    positives = y_train.mean()
    history = model.fit(x_train, y_train, batch_size=32, epochs=3 if small else 15,
                        validation_data=(x_val, y_val), verbose=0,
                        class_weight={0: 0.5 / (1 - positives), 1: 0.5 / positives})
    assert {"loss", "auc", "recall", "val_loss", "val_auc"} <= set(history.history)
    results = model.evaluate(x_val, y_val, verbose=0, return_dict=True)
    assert results["auc"] > 0.8

    # Sample weights scale each sample's loss; the mean is still over all samples
    # (Keras's "sum_over_batch_size"), so zeroing half of them halves the loss.
    weights = np.ones(len(x_val), "float32")
    weights[: len(x_val) // 2] = 0.0
    half = model.evaluate(x_val[len(x_val) // 2:], y_val[len(x_val) // 2:], verbose=0,
                          return_dict=True)
    weighted = model.evaluate(x_val, y_val, sample_weight=weights, verbose=0, return_dict=True)
    assert np.isclose(weighted["loss"], half["loss"] * (len(x_val) - len(x_val) // 2)
                      / len(x_val), rtol=1e-4)

    probabilities = model.predict(x_val[:8], verbose=0)
    assert probabilities.shape == (8, 1) and (0 <= probabilities).all() <= 1
    return results


if __name__ == "__main__":
    print(main())
