"""`run_multi_input_layer_test`: `run_layer_test`'s checks for layers called on several tensors.

Attention layers take several inputs, either as positional arguments
(`mha(query, value)`) or as one list (`attention([query, value])`); `call`
says which. A recurrent cell's step, `cell(inputs, states)`, is checked the
same way with `call=call_cell`. Checked:

1. the output shape(s) on concrete data and through `Input`s;
2. the number of trainable and non-trainable weights;
3. the config round trip (same config, and same outputs with the same weights);
4. one `fit` step of a functional model around the layer changes every
   trainable weight and no non-trainable one;
5. float64 gradients of a random projection of the outputs with respect to
   every float input and every trainable weight, against central finite
   differences along a random direction.
"""

import numpy as np

import hikeras
from hikeras import backend, ops
from hikeras.utils import tree
from tests.helpers.layer_test import construct


def call_positional(layer, inputs, **kwargs):
    return layer(*inputs, **kwargs)


def call_with_list(layer, inputs, **kwargs):
    return layer(list(inputs), **kwargs)


def call_cell(cell, inputs, **kwargs):
    """One step of a recurrent cell on `inputs[0]`, the states being `inputs[1:]` (flat,
    packed as the cell's `state_size`); returns `[output, *new states]`, flat."""
    state_size = cell.state_size
    structure = state_size if isinstance(state_size, (list, tuple)) else [state_size]
    states = tree.pack_sequence_as(structure, list(inputs[1:]))
    output, new_states = cell(inputs[0], states, **kwargs)
    return [output, *tree.flatten(new_states)]


def _flat(outputs):
    return list(outputs) if isinstance(outputs, (list, tuple)) else [outputs]


def run_multi_input_layer_test(layer_cls, init_kwargs, inputs, call=call_positional,
                               call_kwargs=None, expected_output_shape=None,
                               expected_num_trainable_weights=None,
                               expected_num_non_trainable_weights=0, check_gradients=True,
                               grad_rtol=1e-4, grad_atol=1e-6, seed=0):
    """Runs the checks in the module docstring; returns the layer built on `inputs`."""
    call_kwargs = dict(call_kwargs or {})
    inputs = [np.asarray(x) for x in inputs]

    layer = construct(layer_cls, init_kwargs)
    out = call(layer, inputs, **call_kwargs)
    if expected_output_shape is not None:
        expected = expected_output_shape
        if not isinstance(expected[0], (tuple, list)):
            expected = [expected]
        assert [np.shape(o) for o in _flat(out)] == [tuple(s) for s in expected]
    if expected_num_trainable_weights is not None:
        assert len(layer.trainable_weights) == expected_num_trainable_weights
    if expected_num_non_trainable_weights is not None:
        assert len(layer.non_trainable_weights) == expected_num_non_trainable_weights

    symbolic_inputs = [hikeras.Input(x.shape[1:], dtype=x.dtype) for x in inputs]
    symbolic = call(construct(layer_cls, init_kwargs), symbolic_inputs, **call_kwargs)
    for sym, concrete in zip(_flat(symbolic), _flat(out)):
        assert tuple(sym.shape) == (None,) + np.shape(concrete)[1:], \
            f"symbolic shape {sym.shape} disagrees with {np.shape(concrete)}"

    config = layer.get_config()
    clone = layer_cls.from_config(config)
    assert clone.get_config() == config, "config changed in a from_config round trip"
    call(clone, inputs, **call_kwargs)
    clone.set_weights(layer.get_weights())
    for a, b in zip(_flat(call(clone, inputs, **call_kwargs)), _flat(out)):
        np.testing.assert_allclose(np.asarray(a), np.asarray(b), rtol=1e-6, atol=1e-6)

    if layer.trainable_weights:
        _check_training_step(layer_cls, init_kwargs, inputs, call, call_kwargs)
    if check_gradients:
        _check_gradients(layer_cls, init_kwargs, inputs, call, call_kwargs, grad_rtol,
                         grad_atol, seed)
    return layer


def _check_training_step(layer_cls, init_kwargs, inputs, call, call_kwargs):
    layer = construct(layer_cls, init_kwargs)
    symbolic_inputs = [hikeras.Input(x.shape[1:], dtype=x.dtype) for x in inputs]
    output = _flat(call(layer, symbolic_inputs, **call_kwargs))[0]
    model = hikeras.Model(symbolic_inputs, output)
    target = np.random.default_rng(1).standard_normal(
        (len(inputs[0]),) + tuple(output.shape[1:])).astype("float32")
    model.compile(optimizer=hikeras.optimizers.SGD(0.1), loss="mse")
    trainable = [w.value.copy() for w in layer.trainable_weights]
    frozen = [w.value.copy() for w in layer.non_trainable_weights]
    model.fit(inputs, target, batch_size=len(target), epochs=1, verbose=0, shuffle=False)
    for w, before in zip(layer.trainable_weights, trainable):
        assert not np.array_equal(w.value, before), f"trainable weight {w.path} did not change"
    for w, before in zip(layer.non_trainable_weights, frozen):
        assert np.array_equal(w.value, before), f"non-trainable weight {w.path} changed"


def _check_gradients(layer_cls, init_kwargs, inputs, call, call_kwargs, rtol, atol, seed):
    backend.set_floatx("float64")
    try:
        layer = construct(layer_cls, init_kwargs)
        xs = [x.astype("float64") if np.issubdtype(x.dtype, np.floating) else x
              for x in inputs]
        rng = np.random.default_rng(seed + 1)
        directions = [rng.standard_normal(np.shape(o))
                      for o in _flat(call(layer, xs, **call_kwargs))]

        def objective():
            total = 0.0
            for o, u in zip(_flat(call(layer, xs, training=False, **call_kwargs)), directions):
                total = total + ops.sum(ops.multiply(o, u))
            return total

        floats = [x for x in xs if np.issubdtype(x.dtype, np.floating)]
        sources = floats + list(layer.trainable_weights)
        with hikeras.GradientTape() as tape:
            for x in floats:
                tape.watch(x)
            value = objective()
        grads = tape.gradient(value, sources)
        arrays = floats + [w.value for w in layer.trainable_weights]
        names = [f"input {i}" for i in range(len(floats))] + \
            [w.path for w in layer.trainable_weights]
        for name, array, grad in zip(names, arrays, grads):
            assert grad is not None, f"no gradient for {name}"
            v = rng.standard_normal(array.shape)
            original = array.copy()
            eps = 1e-6
            array += eps * v
            up = float(np.asarray(objective()))
            array[...] = original - eps * v
            down = float(np.asarray(objective()))
            array[...] = original
            numeric = (up - down) / (2 * eps)
            analytic = float(np.sum(np.asarray(grad) * v))
            assert abs(numeric - analytic) <= atol + rtol * abs(numeric), \
                f"gradient of {name}: analytic {analytic} vs numeric {numeric}"
    finally:
        backend.set_floatx("float32")
