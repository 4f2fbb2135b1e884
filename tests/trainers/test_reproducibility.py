import numpy as np

import hikeras
from hikeras import layers


def _train(seed):
    hikeras.utils.set_random_seed(seed)
    model = hikeras.Sequential([hikeras.Input((6,)), layers.Dense(16, activation="relu"),
                                layers.Dropout(0.3), layers.Dense(3, activation="softmax")])
    model.compile(optimizer="adam", loss="sparse_categorical_crossentropy")
    rng = np.random.default_rng(123)
    x, y = rng.standard_normal((100, 6)).astype("float32"), rng.integers(0, 3, 100)
    model.fit(x, y, batch_size=16, epochs=3, verbose=0)
    return model.get_weights()


def test_same_seed_gives_identical_weights_after_fit():
    a, b = _train(7), _train(7)
    assert all(np.array_equal(x, y) for x, y in zip(a, b))


def test_different_seed_gives_different_weights():
    a, b = _train(7), _train(8)
    assert not all(np.array_equal(x, y) for x, y in zip(a, b))
