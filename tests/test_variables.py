"""`hikeras.Variable` (Keras 3's constructor) and the top-level Keras names."""

import numpy as np
import pytest

import hikeras
from hikeras import layers


def test_initial_values_and_initializers():
    v = hikeras.Variable(np.arange(3.0), name="v")
    np.testing.assert_array_equal(v.numpy(), [0.0, 1.0, 2.0])
    assert v.dtype == np.float64 and v.trainable and v.path == "v"
    ones = hikeras.Variable("ones", shape=(2, 2), dtype="float16", trainable=False)
    assert ones.dtype == np.float16 and not ones.trainable and ones.ref is None
    np.testing.assert_array_equal(ones.numpy(), np.ones((2, 2)))
    seeded = hikeras.initializers.GlorotUniform(seed=3)
    v = hikeras.Variable(seeded, shape=(4, 5))
    np.testing.assert_array_equal(v.numpy(), hikeras.initializers.GlorotUniform(seed=3)((4, 5)))
    assert v.dtype == np.float32
    v = hikeras.Variable(lambda shape, dtype: np.full(shape, 7, dtype), shape=(2,), dtype="int32")
    assert v.numpy().tolist() == [7, 7] and v.dtype == np.int32
    v = hikeras.Variable([1, 2], dtype="float32", aggregation="mean", autocast=False)
    assert v.dtype == np.float32


@pytest.mark.parametrize("kwargs, match", [
    (dict(initializer="zeros"), "needs a `shape`"),
    (dict(initializer=np.zeros(3), shape=(2,)), "has shape \\(3,\\), not the declared"),
])
def test_bad_arguments(kwargs, match):
    with pytest.raises(ValueError, match=match):
        hikeras.Variable(**kwargs)
    with pytest.raises(TypeError, match="unexpected arguments"):
        hikeras.Variable(np.zeros(2), colour="red")


def test_every_variable_hikeras_makes_is_one_and_trains():
    model = hikeras.Sequential([hikeras.Input((3,)), layers.Dense(2),
                                layers.BatchNormalization()])
    model.compile(optimizer="adam", loss="mse", metrics=["mae"])
    model.fit(np.ones((4, 3)), np.zeros((4, 2)), epochs=1, verbose=0)
    assert all(isinstance(w, hikeras.Variable) for w in model.weights)
    assert all(isinstance(v, hikeras.Variable) for v in model.optimizer.variables)
    assert all(isinstance(v, hikeras.Variable) for m in model.metrics for v in m.variables)
    scale = hikeras.Variable(2.0, name="scale")
    with hikeras.GradientTape() as tape:
        y = hikeras.ops.multiply(scale, 3.0)
    assert float(tape.gradient(y, scale)) == 3.0


def test_keras_top_level_names():
    assert hikeras.Loss is hikeras.losses.Loss and hikeras.Metric is hikeras.metrics.Metric
    assert hikeras.Optimizer is hikeras.optimizers.Optimizer
    assert hikeras.Initializer is hikeras.initializers.Initializer
    assert hikeras.Regularizer is hikeras.regularizers.Regularizer
    assert hikeras.InputSpec is layers.InputSpec
    assert isinstance(hikeras.Input((2,)), hikeras.KerasTensor)
    assert hikeras.version() == hikeras.__version__
