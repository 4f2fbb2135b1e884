import numpy as np
import pytest

import hikeras
from hikeras import layers


def spirals(n=200, seed=0):
    """Two interleaved spirals: not linearly separable."""
    rng = np.random.default_rng(seed)
    t = np.sqrt(rng.uniform(0.05, 1, n)) * 2 * np.pi
    sign = np.where(np.arange(n) % 2 == 0, 1.0, -1.0)
    x = np.stack([sign * t * np.cos(t), sign * t * np.sin(t)], axis=1) / (2 * np.pi)
    y = (sign > 0).astype("int64")
    return x.astype("float32"), y


def test_two_spirals_converge_above_95_percent():
    hikeras.utils.set_random_seed(0)
    x, y = spirals()
    model = hikeras.Sequential([
        hikeras.Input((2,)),
        layers.Dense(64, activation="tanh"),
        layers.Dense(64, activation="tanh"),
        layers.Dense(2, activation="softmax"),
    ])
    model.compile(optimizer=hikeras.optimizers.Adam(0.01),
                  loss="sparse_categorical_crossentropy", metrics=["accuracy"])
    history = model.fit(x, y, batch_size=32, epochs=150, verbose=0)
    assert history.history["accuracy"][-1] > 0.95
    assert model.evaluate(x, y, return_dict=True, verbose=0)["accuracy"] > 0.95


def test_xor_with_binary_crossentropy_and_sgd_momentum():
    hikeras.utils.set_random_seed(1)
    x = np.array([[0, 0], [0, 1], [1, 0], [1, 1]] * 16, "float32")
    y = np.array([0, 1, 1, 0] * 16, "float32")[:, None]
    model = hikeras.Sequential([hikeras.Input((2,)), layers.Dense(16, activation="tanh"),
                                layers.Dense(1, activation="sigmoid")])
    model.compile(optimizer=hikeras.optimizers.SGD(0.5, momentum=0.9),
                  loss="binary_crossentropy", metrics=["acc"])
    history = model.fit(x, y, batch_size=8, epochs=60, verbose=0)
    assert "acc" in history.history and history.history["acc"][-1] == 1.0


def test_history_and_validation_split_takes_the_tail():
    x = np.arange(40, dtype="float32").reshape(20, 2)
    y = np.arange(20, dtype="float32")[:, None]
    model = hikeras.Sequential([hikeras.Input((2,)), layers.Dense(1)])
    model.compile(optimizer="sgd", loss="mse", metrics=["mae"])
    seen = []

    class Spy(hikeras.callbacks.Callback):
        def on_test_batch_begin(self, batch, logs=None):
            seen.append(batch)

    history = model.fit(x / 40, y / 20, epochs=3, validation_split=0.25, batch_size=5,
                        verbose=0, callbacks=[Spy()])
    assert set(history.history) == {"loss", "mae", "val_loss", "val_mae"}
    assert all(len(v) == 3 for v in history.history.values())
    assert seen == [0] * 3  # 5 validation samples = 1 batch per epoch
    expected_val = model.evaluate(x[15:] / 40, y[15:] / 20, verbose=0, return_dict=True)
    assert history.history["val_loss"][-1] == pytest.approx(expected_val["loss"], rel=1e-6)


def test_epoch_loss_is_sample_weighted_mean_over_batches():
    x = np.ones((10, 1), "float32")
    y = np.arange(10, dtype="float32")[:, None]
    model = hikeras.Sequential([hikeras.Input((1,)), layers.Dense(1, use_bias=False,
                                                                   kernel_initializer="zeros")])
    model.compile(optimizer=hikeras.optimizers.SGD(0.0), loss="mse")
    logs = model.evaluate(x, y, batch_size=4, verbose=0, return_dict=True)
    assert logs["loss"] == pytest.approx(np.mean(np.arange(10.0) ** 2), rel=1e-6)


def test_evaluate_return_forms_and_predict():
    x = np.ones((6, 3), "float32")
    y = np.zeros((6, 2), "float32")
    model = hikeras.Sequential([hikeras.Input((3,)), layers.Dense(2)])
    model.compile(optimizer="adam", loss="mse")
    assert isinstance(model.evaluate(x, y, verbose=0), float)
    model.compile(optimizer="adam", loss="mse", metrics=["mae"])
    loss, mae = model.evaluate(x, y, verbose=0)
    assert model.evaluate(x, y, verbose=0, return_dict=True) == {"loss": loss, "mae": mae}
    preds = model.predict(np.ones((70, 3), "float32"), batch_size=32, verbose=0)
    assert preds.shape == (70, 2)
    np.testing.assert_allclose(preds[:2], model.predict_on_batch(np.ones((2, 3), "float32")))


def test_train_and_test_on_batch():
    model = hikeras.Sequential([hikeras.Input((3,)), layers.Dense(1)])
    model.compile(optimizer="sgd", loss="mse", metrics=["mae"])
    x, y = np.ones((4, 3), "float32"), np.ones((4, 1), "float32")
    before = model.test_on_batch(x, y)
    model.train_on_batch(x, y)
    after = model.test_on_batch(x, y, return_dict=True)
    assert after["loss"] < before[0]


def test_multi_output_losses_as_dict_with_loss_weights():
    a = hikeras.Input((3,), name="a")
    h = layers.Dense(4)(a)
    model = hikeras.Model(a, [layers.Dense(1, name="reg")(h),
                              layers.Dense(3, activation="softmax", name="cls")(h)])
    model.compile(optimizer="adam",
                  loss={"reg": "mse", "cls": "sparse_categorical_crossentropy"},
                  loss_weights={"reg": 2.0, "cls": 0.5},
                  metrics={"cls": ["accuracy"]})
    x = np.random.default_rng(0).standard_normal((16, 3)).astype("float32")
    y = {"reg": np.zeros((16, 1), "float32"), "cls": np.zeros(16, "int64")}
    logs = model.evaluate(x, y, verbose=0, return_dict=True)
    assert set(logs) == {"loss", "reg_loss", "cls_loss", "cls_accuracy"}
    reg_pred, cls_pred = model.predict(x, verbose=0)
    mse = np.mean(reg_pred ** 2)
    ce = np.mean(-np.log(np.clip(cls_pred[:, 0], 1e-7, 1 - 1e-7)))
    assert logs["loss"] == pytest.approx(2.0 * mse + 0.5 * ce, rel=1e-5)
    history = model.fit(x, [y["reg"], y["cls"]], epochs=2, verbose=0)
    assert len(history.history["loss"]) == 2


def test_class_weight_scales_loss():
    x = np.zeros((4, 2), "float32")
    y = np.array([0, 0, 1, 1])
    model = hikeras.Sequential([hikeras.Input((2,)),
                                layers.Dense(2, kernel_initializer="zeros",
                                             activation="softmax")])
    model.compile(optimizer=hikeras.optimizers.SGD(0.0), loss="sparse_categorical_crossentropy")
    plain = model.fit(x, y, epochs=1, verbose=0, shuffle=False).history["loss"][0]
    weighted = model.fit(x, y, epochs=1, verbose=0, shuffle=False,
                         class_weight={0: 1.0, 1: 3.0}).history["loss"][0]
    assert plain == pytest.approx(np.log(2), rel=1e-5)
    assert weighted == pytest.approx(np.log(2) * 2.0, rel=1e-5)  # (1+1+3+3)/4


def test_float64_models_train_in_float64():
    hikeras.backend.set_floatx("float64")
    try:
        model = hikeras.Sequential([hikeras.Input((3,)), layers.Dense(4, activation="relu"),
                                    layers.Dense(1)])
        model.compile(optimizer="adam", loss="mse")
        x = np.ones((8, 3))
        model.fit(x, np.ones((8, 1)), epochs=1, verbose=0)
        assert all(w.dtype == np.float64 for w in model.get_weights())
        assert model.predict(x, verbose=0).dtype == np.float64
    finally:
        hikeras.backend.set_floatx("float32")


def test_overridden_train_step_can_unpack_x_y():
    seen = []

    class Custom(hikeras.Model):
        def train_step(self, data):
            seen.append(len(data))  # (x, y) without sample weights, as in Keras
            if len(data) == 2:
                x, y = data
            return super().train_step(data)

    inputs = hikeras.Input((2,))
    model = Custom(inputs, layers.Dense(1)(inputs))
    model.compile(optimizer="sgd", loss="mse")
    model.fit(np.ones((4, 2), "float32"), np.ones((4, 1), "float32"), batch_size=2, verbose=0)
    model.fit(np.ones((4, 2), "float32"), np.ones((4, 1), "float32"), batch_size=4, verbose=0,
              sample_weight=np.ones(4))
    assert seen == [2, 2, 3]
