"""Issue 16, item 6: `optimizer.learning_rate.assign(...)` works as in Keras 3, and a
schedule stays a schedule."""

import numpy as np
import pytest

import hikeras as keras


def _model():
    model = keras.Sequential([keras.Input((2,)), keras.layers.Dense(1, use_bias=False,
                                                                   kernel_initializer="zeros")])
    model.compile(keras.optimizers.SGD(0.1), "mse")
    return model


def test_assign_changes_the_rate_of_the_next_steps():
    model = _model()
    x, y = np.ones((4, 2), "float32"), np.ones((4, 1), "float32")
    model.optimizer.learning_rate.assign(5e-3)
    assert model.optimizer.learning_rate == pytest.approx(5e-3)
    model.train_on_batch(x, y)
    # d/dw mean((x.w - 1)^2) at w = 0 is -2 per weight: one step moves w by 2 * lr.
    np.testing.assert_allclose(model.get_weights()[0], np.full((2, 1), 2 * 5e-3), rtol=1e-6)
    assert model.optimizer.get_config()["learning_rate"] == pytest.approx(5e-3)


def test_assign_after_loading_and_in_place_updates(tmp_path):
    model = _model()
    model.fit(np.ones((4, 2)), np.ones((4, 1)), verbose=0)
    model.save(tmp_path / "m.keras")
    loaded = keras.saving.load_model(tmp_path / "m.keras")
    loaded.optimizer.learning_rate.assign(5e-5)  # fine-tuning with a smaller rate
    assert float(loaded.optimizer.learning_rate) == pytest.approx(5e-5)
    loaded.optimizer.learning_rate.assign_add(5e-5)
    assert loaded.optimizer.learning_rate.numpy() == pytest.approx(1e-4)
    loaded.optimizer.learning_rate = 0.5
    assert loaded.optimizer.learning_rate == 0.5


def test_a_schedule_stays_a_schedule():
    schedule = keras.optimizers.schedules.ExponentialDecay(0.1, decay_steps=1, decay_rate=0.5)
    optimizer = keras.optimizers.SGD(schedule)
    assert not hasattr(optimizer.learning_rate, "assign")
    assert optimizer.get_config()["learning_rate"]["class_name"] == "ExponentialDecay"
