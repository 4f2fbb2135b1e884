"""Time-series forecasting: windows from one long series, a small recurrent forecaster."""

import numpy as np

import hikeras as keras
from hikeras import layers


def main(small=False):
    keras.utils.set_random_seed(22)
    steps = np.arange(600 if small else 4000, dtype="float32")
    series = np.sin(steps / 10.0) + 0.05 * np.random.default_rng(22).standard_normal(
        steps.shape).astype("float32")
    window = 20
    # Each input is `window` values; the target is the value right after it.
    dataset = keras.utils.timeseries_dataset_from_array(
        series[:-window, None], series[window:], sequence_length=window, batch_size=32)
    first_x, first_y = next(iter(dataset))
    np.testing.assert_allclose(np.asarray(first_x)[0, :, 0], series[:window])
    assert np.isclose(float(np.asarray(first_y)[0]), series[window])

    model = keras.Sequential([keras.Input((window, 1)), layers.GRU(16), layers.Dense(1)])
    model.compile("adam", "mse")
    history = model.fit(dataset, epochs=3 if small else 10, verbose=0)
    assert history.history["loss"][-1] < history.history["loss"][0]
    return history.history["loss"][-1]


if __name__ == "__main__":
    print("final loss", main())
