"""Global settings (`hikeras.config`) and nested structures (`hikeras.tree`).

float64 end to end, channels-first images, capped runs for smoke tests, and
the structure utilities that turn nested outputs into flat lists and back.
"""

import numpy as np

import hikeras as keras
from hikeras import layers


def main(small=False):
    keras.utils.set_random_seed(14)
    rng = np.random.default_rng(14)
    try:
        keras.config.set_floatx("float64")
        model = keras.Sequential([keras.Input((3,)), layers.Dense(2)])
        model.compile("sgd", "mse")
        model.fit(rng.standard_normal((16, 3)), rng.standard_normal((16, 2)), verbose=0)
        assert all(w.dtype == "float64" for w in model.weights)
    finally:
        keras.config.set_floatx("float32")

    try:
        keras.config.set_image_data_format("channels_first")
        conv = layers.Conv2D(4, 3)
        assert conv(np.ones((1, 2, 6, 6), "float32")).shape == (1, 4, 4, 4)
    finally:
        keras.config.set_image_data_format("channels_last")

    try:  # a long script, cut short
        keras.config.set_max_epochs(1)
        keras.config.set_max_steps_per_epoch(2)
        model = keras.Sequential([keras.Input((3,)), layers.Dense(1)])
        model.compile("sgd", "mse")
        history = model.fit(rng.standard_normal((640, 3)), rng.standard_normal((640, 1)),
                            epochs=100, batch_size=8, verbose=0)
        assert len(history.history["loss"]) == 1 and int(model.optimizer.iterations) == 2
    finally:
        keras.config.set_max_epochs(None)
        keras.config.set_max_steps_per_epoch(None)

    nested = {"scores": [1.0, 2.0], "meta": {"count": 3, "label": None}}
    leaves = keras.tree.flatten(nested)
    assert leaves == [3, None, 1.0, 2.0]  # sorted keys: meta (count, label), then scores
    doubled = keras.tree.map_structure(lambda v: v if v is None else v * 2, nested)
    assert doubled == {"scores": [2.0, 4.0], "meta": {"count": 6, "label": None}}
    assert keras.tree.pack_sequence_as(nested, leaves) == nested
    return leaves


if __name__ == "__main__":
    print(main())
