"""Bad arguments to fit/predict/set_weights/ModelCheckpoint fail up front with
Keras-style messages (issue #21), before any training happens."""

import numpy as np
import pytest

import hikeras


def _model():
    model = hikeras.Sequential([hikeras.Input((4,)), hikeras.layers.Dense(2)])
    model.compile(optimizer="sgd", loss="mse")
    return model


def _data():
    return np.ones((8, 4), "f4"), np.ones((8, 2), "f4")


@pytest.mark.parametrize("kwargs, message", [
    ({"batch_size": 0}, r"batch_size must be a positive integer. Received: batch_size=0"),
    ({"epochs": 1.5}, r"`epochs` must be an integer >= 0. Received: epochs=1.5"),
    ({"epochs": True}, r"Received: epochs=True"),
    ({"initial_epoch": -1}, r"`initial_epoch` must be an integer >= 0"),
])
def test_fit_refuses_bad_counts_before_training(kwargs, message):
    model = _model()
    before = model.get_weights()
    with pytest.raises(ValueError, match=message):
        model.fit(*_data(), verbose=0, **kwargs)
    assert all(np.array_equal(a, b) for a, b in zip(before, model.get_weights()))


def test_fit_and_predict_refuse_complex_x():
    _, y = _data()
    bad = np.ones((8, 4)).astype(complex)
    with pytest.raises(ValueError, match="`fit` needs real numeric `x`.*complex data"):
        _model().fit(bad, y, verbose=0)
    with pytest.raises(ValueError, match="`predict` needs real numeric `x`.*complex"):
        _model().predict(bad, verbose=0)


def test_fit_refuses_complex_targets():
    x, y = _data()
    with pytest.raises(ValueError, match="`fit` needs real numeric `y`.*complex"):
        _model().fit(x, y.astype(complex), verbose=0)


def test_predict_on_zero_samples_says_so():
    with pytest.raises(ValueError, match="`predict` received no samples"):
        _model().predict(np.zeros((0, 4), "f4"), verbose=0)


@pytest.mark.parametrize("value, dtype", [(None, "object"), (np.ones((4, 2), complex),
                                                              "complex128"),
                                           (np.full((4, 2), "a"), "<U1")])
def test_set_weights_refuses_non_real_arrays(value, dtype):
    model = _model()
    before = model.get_weights()
    with pytest.raises(ValueError, match=f"'dense/kernel'.*real numeric.*dtype {dtype}"):
        model.set_weights([value, np.zeros(2, "f4")])
    assert all(np.array_equal(a, b) for a, b in zip(before, model.get_weights()))


@pytest.mark.parametrize("template", ["{epoch:02q}.weights.h5", "{loss:d}.weights.h5"])
def test_model_checkpoint_format_specs_fail_before_training(tmp_path, template):
    with pytest.raises(ValueError, match="format spec that cannot be applied"):
        hikeras.callbacks.ModelCheckpoint(str(tmp_path / template))
    hikeras.callbacks.ModelCheckpoint(str(tmp_path / "{epoch:02d}-{loss:.3f}.weights.h5"))
