"""Learning-rate schedules: schedule objects, LearningRateScheduler and ReduceLROnPlateau."""

import numpy as np

import hikeras as keras
from hikeras import layers


def main(small=False):
    keras.utils.set_random_seed(18)
    cosine = keras.optimizers.schedules.CosineDecay(0.1, decay_steps=100)
    assert np.isclose(float(cosine(0)), 0.1) and np.isclose(float(cosine(100)), 0.0, atol=1e-7)
    steps = keras.optimizers.schedules.PiecewiseConstantDecay([10, 20], [0.1, 0.01, 0.001])
    assert [round(float(steps(s)), 4) for s in (5, 15, 25)] == [0.1, 0.01, 0.001]

    rng = np.random.default_rng(18)
    x = rng.standard_normal((64, 2)).astype("float32")
    y = x[:, :1] * 3.0
    model = keras.Sequential([keras.Input((2,)), layers.Dense(1)])
    model.compile(keras.optimizers.SGD(0.1), "mse")
    seen = []
    model.fit(x, y, epochs=3, verbose=0, callbacks=[
        keras.callbacks.LearningRateScheduler(lambda epoch, lr: 0.1 / (epoch + 1)),
        keras.callbacks.LambdaCallback(
            on_epoch_begin=lambda epoch, logs: seen.append(model.optimizer.learning_rate))])
    np.testing.assert_allclose(seen, [0.1, 0.05, 0.1 / 3], rtol=1e-6)

    # A plateau (a loss that cannot improve) halves the rate after `patience` epochs.
    model.compile(keras.optimizers.SGD(0.0), "mse")
    model.optimizer.learning_rate = 0.2
    history = model.fit(x, y, epochs=4, verbose=0, callbacks=[
        keras.callbacks.ReduceLROnPlateau(monitor="loss", factor=0.5, patience=1,
                                          min_delta=1e9)])
    assert model.optimizer.learning_rate < 0.2  # reduced at least once
    return history.history["loss"]


if __name__ == "__main__":
    print(main())
