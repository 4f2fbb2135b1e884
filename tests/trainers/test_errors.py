import numpy as np
import pytest

import hikeras
from hikeras import layers


def _model():
    return hikeras.Sequential([hikeras.Input((4,)), layers.Dense(3, activation="softmax")])


def test_fit_before_compile():
    with pytest.raises(RuntimeError, match="compile"):
        _model().fit(np.ones((2, 4)), np.zeros(2), verbose=0)


def test_mismatched_x_y_lengths():
    model = _model()
    model.compile(optimizer="adam", loss="sparse_categorical_crossentropy")
    with pytest.raises(ValueError, match="x with 10 samples, y with 9 samples"):
        model.fit(np.ones((10, 4)), np.zeros(9), verbose=0)


def test_nan_in_inputs_names_first_bad_index():
    model = _model()
    model.compile(optimizer="adam", loss="sparse_categorical_crossentropy")
    x = np.ones((10, 4))
    x[3, 2] = np.nan
    with pytest.raises(ValueError, match=r"x contains a non-finite value \(nan\) at index \(3, 2\)"):
        model.fit(x, np.zeros(10), verbose=0)
    y = np.zeros((10, 3))
    y[7, 0] = np.inf
    model.compile(optimizer="adam", loss="categorical_crossentropy")
    with pytest.raises(ValueError, match=r"y contains.*\(7, 0\)"):
        model.fit(np.ones((10, 4)), y, verbose=0)


@pytest.mark.parametrize("kwargs, word", [
    ({"optimizer": "adamm", "loss": "mse"}, "adamm"),
    ({"optimizer": "adam", "loss": "msee"}, "msee"),
])
def test_unknown_names_list_valid_choices(kwargs, word):
    model = _model()
    with pytest.raises(ValueError, match=f"{word}.*(Valid|valid)"):
        model.compile(**kwargs)
        model.fit(np.ones((2, 4)), np.zeros((2, 3)), verbose=0)


def test_unknown_metric_and_activation_and_initializer():
    model = _model()
    model.compile(optimizer="adam", loss="mse", metrics=["accuracyy"])
    with pytest.raises(ValueError, match="accuracyy"):
        model.fit(np.ones((2, 4)), np.zeros((2, 3)), verbose=0)
    with pytest.raises(ValueError, match="relux"):
        layers.Dense(2, activation="relux")
    with pytest.raises(ValueError, match="glorot_uniformm"):
        layers.Dense(2, kernel_initializer="glorot_uniformm")


def test_integer_labels_to_categorical_crossentropy():
    model = _model()
    model.compile(optimizer="adam", loss="categorical_crossentropy")
    with pytest.raises(ValueError, match="sparse_categorical_crossentropy"):
        model.fit(np.ones((4, 4)), np.array([0, 1, 2, 1]), verbose=0)


def test_one_hot_labels_to_sparse_crossentropy():
    model = _model()
    model.compile(optimizer="adam", loss="sparse_categorical_crossentropy")
    with pytest.raises(ValueError, match="categorical_crossentropy"):
        model.fit(np.ones((4, 4)), np.eye(3)[[0, 1, 2, 1]], verbose=0)


def test_errors_end_with_received():
    model = _model()
    model.compile(optimizer="adam", loss="sparse_categorical_crossentropy")
    with pytest.raises(ValueError, match="Received"):
        model.fit(np.ones((10, 4)), np.zeros(9), verbose=0)
    with pytest.raises(ValueError, match="Received: validation_split"):
        model.fit(np.ones((10, 4)), np.zeros(10), validation_split=1.5, verbose=0)
