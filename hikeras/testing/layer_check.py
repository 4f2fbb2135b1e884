"""`check_layer`: the checks every layer must pass, in one call (Keras-style).

hikeras's own layer tests run it (as `tests/helpers`' `run_layer_test`), and
so can a user's custom layer. Given a layer class, constructor kwargs and an
input shape, it checks:

1. the output shape on concrete data, and symbolically through `Input`;
2. the number of trainable and non-trainable weights;
3. the config round trip: `from_config(get_config())` gives the same config
   and, with the same weights, the same outputs;
4. a training step inside a `Sequential` changes every trainable weight and
   (unless `non_trainable_may_change`) no non-trainable one;
5. gradients, in float64, of a random projection of the output with respect
   to the input (for float inputs) and to every trainable weight, against
   central finite differences along a random direction;
6. (with `check_saving`) a model holding the layer saved as `.keras` and
   loaded back predicts the same (the class is passed as a custom object).

The harness constructs the layer several times (in float64 for step 5), so
an argument that is itself a layer, such as the layer a wrapper wraps or an
RNN's cell, is given as `fresh(lambda: layers.Dense(3))`: built anew for
each construction.
"""

import os
import tempfile

import numpy as np

from .. import backend, ops
from ..backend import GradientTape
from ..layers import Input
from ..models import Model, Sequential, load_model
from ..optimizers import SGD
from ..serialization import custom_object_scope


class _Fresh:
    def __init__(self, make):
        self.make = make

    def __repr__(self):
        return f"fresh({self.make!r})"


def fresh(make):
    """An init argument made anew, by `make()`, each time the harness constructs the layer."""
    return _Fresh(make)


def construct(layer_cls, init_kwargs):
    """`layer_cls(**init_kwargs)`, with each `fresh` argument made anew."""
    return layer_cls(**{key: value.make() if isinstance(value, _Fresh) else value
                        for key, value in init_kwargs.items()})


def _random_input(shape, dtype, rng, int_high):
    if np.issubdtype(np.dtype(dtype), np.integer):
        return rng.integers(0, int_high, size=shape).astype(dtype)
    return rng.standard_normal(shape).astype(dtype)


def _flat(outputs):
    return list(outputs) if isinstance(outputs, (list, tuple)) else [outputs]


def check_layer(layer_cls, init_kwargs=None, input_shape=(2, 3), input_dtype="float32",
                input_data=None, expected_output_shape=None,
                expected_num_trainable_weights=None, expected_num_non_trainable_weights=None,
                non_trainable_may_change=False, run_training_check=True,
                check_gradients=True, check_saving=True, int_high=5, grad_rtol=1e-4,
                grad_atol=1e-6, seed=0):
    """Runs the checks in the module docstring; returns the layer built on float32 data.

    Args:
        layer_cls: the layer class.
        init_kwargs: its constructor arguments (a layer argument as `fresh(...)`).
        input_shape, input_dtype: the random input's shape (batch axis first)
            and dtype; or `input_data`, the input itself.
        expected_output_shape: the output shape (a list of shapes for several outputs).
        expected_num_trainable_weights, expected_num_non_trainable_weights: counts.
        non_trainable_may_change: a training step may change non-trainable
            weights (a BatchNormalization's moving statistics).
        run_training_check, check_gradients, check_saving: turn steps 4-6 off.
        int_high: integer inputs are drawn from `[0, int_high)`.
        grad_rtol, grad_atol: tolerance of the gradient check.
        seed: seed of the random input and directions.

    Raises:
        AssertionError: naming the check that failed.
    """
    init_kwargs = dict(init_kwargs or {})
    rng = np.random.default_rng(seed)
    x = input_data if input_data is not None else _random_input(input_shape, input_dtype, rng,
                                                                int_high)
    input_shape = x.shape

    # 1-2. concrete output shape and weight counts
    layer = construct(layer_cls, init_kwargs)
    out = layer(x)
    if expected_output_shape is not None:
        assert _shapes(out) == _as_shapes(expected_output_shape), \
            f"output shape {_shapes(out)} != expected {expected_output_shape}"
    if expected_num_trainable_weights is not None:
        assert len(layer.trainable_weights) == expected_num_trainable_weights
    if expected_num_non_trainable_weights is not None:
        assert len(layer.non_trainable_weights) == expected_num_non_trainable_weights

    # symbolic shape through Input
    symbolic = construct(layer_cls, init_kwargs)(Input(input_shape[1:], dtype=x.dtype))
    for sym, concrete in zip(_flat(symbolic), _flat(out)):
        assert tuple(sym.shape) == (None,) + tuple(np.shape(concrete))[1:], \
            f"symbolic shape {sym.shape} disagrees with {np.shape(concrete)}"

    # 3. config round trip
    config = layer.get_config()
    clone = layer_cls.from_config(config)
    assert clone.get_config() == config, "config changed in a from_config round trip"
    clone(x)
    clone.set_weights(layer.get_weights())
    for a, b in zip(_flat(clone(x)), _flat(layer(x))):
        np.testing.assert_allclose(np.asarray(a), np.asarray(b), rtol=1e-6, atol=1e-6)

    # 4. one training step changes exactly the trainable weights
    if run_training_check and layer.trainable_weights:
        _check_training_step(layer_cls, init_kwargs, x, non_trainable_may_change)

    # 5. gradients in float64
    if check_gradients:
        _check_gradients(layer_cls, init_kwargs, x, grad_rtol, grad_atol, seed)

    # 6. a saved and reloaded model predicts the same
    if check_saving:
        _check_saving(layer_cls, init_kwargs, x)
    return layer


def _shapes(out):
    return [tuple(np.shape(o)) for o in _flat(out)]


def _as_shapes(expected):
    if expected and isinstance(expected[0], (tuple, list)):
        return [tuple(s) for s in expected]
    return [tuple(expected)]


def _check_training_step(layer_cls, init_kwargs, x, non_trainable_may_change):
    layer = construct(layer_cls, init_kwargs)
    inputs = Input(x.shape[1:], dtype=x.dtype)
    outputs = _flat(layer(inputs))[0]
    model = Model(inputs, outputs)
    target = np.random.default_rng(1).standard_normal(
        (x.shape[0],) + tuple(outputs.shape[1:])).astype("float32")
    model.compile(optimizer=SGD(0.1), loss="mse")
    trainable = [w.value.copy() for w in layer.trainable_weights]
    frozen = [w.value.copy() for w in layer.non_trainable_weights]
    model.fit(x, target, batch_size=len(x), epochs=1, verbose=0, shuffle=False)
    for w, before in zip(layer.trainable_weights, trainable):
        assert not np.array_equal(w.value, before), f"trainable weight {w.path} did not change"
    if not non_trainable_may_change:
        for w, before in zip(layer.non_trainable_weights, frozen):
            assert np.array_equal(w.value, before), f"non-trainable weight {w.path} changed"


def _check_saving(layer_cls, init_kwargs, x):
    model = Sequential([Input(x.shape[1:], dtype=x.dtype), construct(layer_cls, init_kwargs)])
    expected = _flat(model.predict(x, verbose=0))
    # The class need not be registered: it is known by name for the round trip only.
    with tempfile.TemporaryDirectory() as folder, \
            custom_object_scope({layer_cls.__name__: layer_cls}):
        path = os.path.join(folder, "layer.keras")
        model.save(path)
        loaded = load_model(path)
    for a, b in zip(_flat(loaded.predict(x, verbose=0)), expected):
        np.testing.assert_allclose(np.asarray(a), np.asarray(b), rtol=1e-6, atol=1e-6,
                                   err_msg="a saved and reloaded model predicts differently")


def _check_gradients(layer_cls, init_kwargs, x, rtol, atol, seed):
    floatx = backend.floatx()
    backend.set_floatx("float64")
    try:
        layer = construct(layer_cls, init_kwargs)
        is_float = np.issubdtype(x.dtype, np.floating)
        x64 = x.astype("float64") if is_float else x
        layer(x64)
        rng = np.random.default_rng(seed + 1)
        directions = [rng.standard_normal(np.shape(o)) for o in _flat(layer(x64))]

        def objective(inp):
            total = 0.0
            for o, u in zip(_flat(layer(inp, training=False)), directions):
                total = total + ops.sum(ops.multiply(o, u))
            return total

        sources = list(layer.trainable_weights)
        with GradientTape() as tape:
            if is_float:
                tape.watch(x64)
            value = objective(x64)
        grads = tape.gradient(value, ([x64] if is_float else []) + sources)
        arrays = ([x64] if is_float else []) + [w.value for w in sources]
        names = (["input"] if is_float else []) + [w.path for w in sources]
        for name, array, grad in zip(names, arrays, grads):
            assert grad is not None, f"no gradient for {name}"
            v = rng.standard_normal(array.shape)
            eps = 1e-6
            original = array.copy()
            array += eps * v
            up = float(np.asarray(objective(x64)))
            array[...] = original - eps * v
            down = float(np.asarray(objective(x64)))
            array[...] = original
            numeric = (up - down) / (2 * eps)
            analytic = float(np.sum(np.asarray(grad) * v))
            assert abs(numeric - analytic) <= atol + rtol * abs(numeric), \
                f"gradient of {name}: analytic {analytic} vs numeric {numeric}"
    finally:
        backend.set_floatx(floatx)
